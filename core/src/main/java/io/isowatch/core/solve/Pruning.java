package io.isowatch.core.solve;

import io.isowatch.core.graph.IntList;
import java.util.Arrays;

/**
 * PolySI's pruning (§4.2): a choice "chain C before chain D" whose edges would close a cycle with
 * the certain edges alone is impossible, so the other order is forced. C before D adds WW last(C)
 * → first(D) and RW r → first(D) for every reader r of C's last version, so it is impossible when
 * first(D) reaches last(C) or such an r. For SI only paths without RW edges count (a cycle of
 * SO/WR/WW/RT edges and at most that one RW is an SI cycle); for SER and SSER any path does.
 *
 * <p>Every pair of chains of every key is tested against the certain graph's {@link Reachability}
 * (exact, O(1) per test), and the answer is kept per pair in {@link #state}: open, or which order
 * is forced. A forced pair needs no solver variable (the search fixes it, see {@link
 * VersionOrderSearch}); a pair whose two orders are both impossible proves a violation by itself.
 */
final class Pruning {
  /** Pair states: neither order impossible; the lower-listed chain first; the higher first; neither possible. */
  static final byte OPEN = 0;
  static final byte LOWER_FIRST = 1;
  static final byte HIGHER_FIRST = 2;
  static final byte NEITHER = 3;

  /** What {@link #prune} did. */
  enum Status { PRUNED, TOO_LARGE, OUT_OF_TIME }

  /** A forced choice: the literal that must hold, and the path that rules out its negation. */
  record Forced(int literal, int from, int to, int closingChain, int openedChain) {}

  private final VersionOrderProblem p;
  private final boolean si;
  private Reachability reach;
  /** Per key, per pair (a, b) with a &lt; b listed positions, in the order of {@link VersionOrderProblem#literal}. */
  byte[][] state;
  /** Open pairs after pruning (all pairs when nothing was pruned). */
  long open;
  /** A pair whose two orders are both impossible, as {key, a, b}, or null. */
  int[] conflict;

  Pruning(final VersionOrderProblem p, final boolean si) {
    this.p = p;
    this.si = si;
  }

  /** Index of pair (a, b), a &lt; b, among the h·(h−1)/2 pairs of a key with h chains. */
  static int pairIndex(final int h, final int a, final int b) {
    return (int) ((long) a * (2L * h - a - 1) / 2 + (b - a - 1));
  }

  /**
   * Tests every pair of chains; on {@link Status#PRUNED} {@link #state} holds the result. Otherwise
   * (the certain graph too large for either reachability representation, or the deadline passed)
   * nothing is pruned and {@link #state} is null.
   */
  Status prune(final long deadline) {
    reach = Reachability.of(p.known, p.nodes, p.realNodes(), si, deadline);
    if (reach == null) {
      return System.nanoTime() > deadline ? Status.OUT_OF_TIME : Status.TOO_LARGE;
    }
    final byte[][] out = new byte[p.openChains.size()][];
    long left = 0;
    for (int k = 0; k < p.openChains.size(); k++) {
      final int[] chains = p.openChains.get(k);
      final int h = chains.length;
      final byte[] s = new byte[h * (h - 1) / 2];
      out[k] = s;
      for (int a = 0; a < h; a++) {
        if ((a & 63) == 0 && System.nanoTime() > deadline) {
          return Status.OUT_OF_TIME;
        }
        for (int b = a + 1; b < h; b++) {
          byte st = OPEN;
          if (blocking(chains[a], chains[b]) >= 0) {
            st |= HIGHER_FIRST; // a before b is impossible
          }
          if (blocking(chains[b], chains[a]) >= 0) {
            st |= LOWER_FIRST;
          }
          s[pairIndex(h, a, b)] = st;
          if (st == OPEN) {
            left++;
          } else if (st == NEITHER && conflict == null) {
            conflict = new int[] {k, a, b};
          }
        }
      }
    }
    state = out;
    open = left;
    return Status.PRUNED;
  }

  /** The certain path behind "chain at {@code before} goes before chain at {@code after}" of key k. */
  Forced forced(final int k, final int before, final int after) {
    final int[] chains = p.openChains.get(k);
    return new Forced(p.literal(k, before, after), p.chainFirst.get(chains[before]),
        blocking(chains[after], chains[before]), chains[after], chains[before]);
  }

  /** What reachability pruning used, for statistics. */
  String describe() {
    return reach == null ? "none" : reach.describe();
  }

  /** A node that first(d) reaches among last(c) and the readers of c's last version, or -1. */
  private int blocking(final int c, final int d) {
    final int from = p.chainFirst.get(d);
    final int last = p.chainLast.get(c);
    if (last >= 0 && reach.reaches(from, last)) {
      return last;
    }
    for (final int r : p.chainReaders.get(c)) {
      if (r != from && reach.reaches(from, r)) {
        return r;
      }
    }
    return -1;
  }

  /** A path of certain edges (without RW for SI) from {@code from} to {@code to}, as edge ids, or null. */
  static int[] path(final VersionOrderProblem p, final boolean si, final int from, final int to) {
    final EdgeList g = p.known;
    final int n = p.nodes;
    final int[] start = new int[n + 1];
    for (int e = 0; e < g.size; e++) {
      if (g.literal[e] == 0 && (!si || !g.isRw(e))) {
        start[g.from[e] + 1]++;
      }
    }
    for (int v = 0; v < n; v++) {
      start[v + 1] += start[v];
    }
    final int[] out = new int[start[n]];
    final int[] fill = Arrays.copyOf(start, n);
    for (int e = 0; e < g.size; e++) {
      if (g.literal[e] == 0 && (!si || !g.isRw(e))) {
        out[fill[g.from[e]]++] = e;
      }
    }
    final int[] via = new int[n];
    Arrays.fill(via, -2);
    via[from] = -1;
    final IntList queue = new IntList(64);
    queue.add(from);
    for (int q = 0; q < queue.size() && via[to] == -2; q++) {
      final int v = queue.get(q);
      for (int j = start[v]; j < start[v + 1]; j++) {
        final int w = g.to[out[j]];
        if (via[w] == -2) {
          via[w] = out[j];
          queue.add(w);
        }
      }
    }
    if (via[to] == -2) {
      return null;
    }
    final IntList rev = new IntList(8);
    for (int v = to; v != from; v = g.from[via[v]]) {
      rev.add(via[v]);
    }
    final int[] path = new int[rev.size()];
    for (int j = 0; j < path.length; j++) {
      path[j] = rev.get(rev.size() - 1 - j);
    }
    return path;
  }
}
