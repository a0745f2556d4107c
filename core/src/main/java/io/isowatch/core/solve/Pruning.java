package io.isowatch.core.solve;

import io.isowatch.core.graph.IntList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * PolySI's pruning (§4.2): a choice "chain C before chain D" whose edges would close a cycle with
 * the certain edges alone is impossible, so the other order is forced. The certain graph's
 * reachability is computed once as bit sets (only below {@link #MAX_NODES} nodes: n² bits), then
 * every pair of chains of a key is tested: C before D adds WW last(C) → first(D) and RW r →
 * first(D) for every reader r of C's last version, so it is impossible when first(D) reaches
 * last(C) or such an r. For SI only paths without RW edges count (a cycle of SO/WR/WW edges and at
 * most that one RW is an SI cycle); for SER and SSER any path does.
 */
final class Pruning {
  /** Above this many nodes the bit sets (n²/8 bytes) are not built and nothing is pruned. */
  static final int MAX_NODES = 30_000;

  /** A forced choice: the literal that must hold, and the path that rules out its negation. */
  record Forced(int literal, int from, int to, int closingChain, int openedChain) {}

  private final VersionOrderProblem p;
  private final boolean si;
  private long[][] reach;

  Pruning(final VersionOrderProblem p, final boolean si) {
    this.p = p;
    this.si = si;
  }

  /** The forced choices, or an empty list when the graph is too large to prune. */
  List<Forced> forced(final long deadline) {
    final List<Forced> out = new ArrayList<>();
    if (p.nodes > MAX_NODES || !closure(deadline)) {
      return out;
    }
    for (int k = 0; k < p.openChains.size(); k++) {
      final int[] chains = p.openChains.get(k);
      for (int a = 0; a < chains.length; a++) {
        if (System.nanoTime() > deadline) {
          return out;
        }
        for (int b = a + 1; b < chains.length; b++) {
          final int lit = p.literal(k, a, b);
          // a before b impossible: b first.
          final int aBlocked = blocking(chains[a], chains[b]);
          if (aBlocked >= 0) {
            out.add(new Forced(-lit, p.chainFirst.get(chains[b]), aBlocked, chains[a], chains[b]));
          }
          final int bBlocked = blocking(chains[b], chains[a]);
          if (bBlocked >= 0) {
            out.add(new Forced(lit, p.chainFirst.get(chains[a]), bBlocked, chains[b], chains[a]));
          }
        }
      }
    }
    return out;
  }

  /** A node that first(d) reaches among last(c) and the readers of c's last version, or -1. */
  private int blocking(final int c, final int d) {
    final long[] from = reach[p.chainFirst.get(d)];
    final int last = p.chainLast.get(c);
    if (last >= 0 && reaches(from, last)) {
      return last;
    }
    for (final int r : p.chainReaders.get(c)) {
      if (r != p.chainFirst.get(d) && reaches(from, r)) {
        return r;
      }
    }
    return -1;
  }

  private static boolean reaches(final long[] set, final int v) {
    return (set[v >>> 6] & (1L << v)) != 0;
  }

  /** Reachability of the certain graph (without RW for SI), in reverse topological order. */
  private boolean closure(final long deadline) {
    final int n = p.nodes;
    final EdgeList g = p.known;
    final int[] start = new int[n + 1];
    for (int e = 0; e < g.size; e++) {
      if (counts(g, e)) {
        start[g.from[e] + 1]++;
      }
    }
    for (int v = 0; v < n; v++) {
      start[v + 1] += start[v];
    }
    final int[] succ = new int[start[n]];
    final int[] fill = Arrays.copyOf(start, n);
    final int[] indeg = new int[n];
    for (int e = 0; e < g.size; e++) {
      if (counts(g, e)) {
        succ[fill[g.from[e]]++] = g.to[e];
        indeg[g.to[e]]++;
      }
    }
    final int[] topo = new int[n];
    int placed = 0;
    final ArrayDeque<Integer> ready = new ArrayDeque<>();
    for (int v = 0; v < n; v++) {
      if (indeg[v] == 0) {
        ready.add(v);
      }
    }
    while (!ready.isEmpty()) {
      final int v = ready.poll();
      topo[placed++] = v;
      for (int j = start[v]; j < start[v + 1]; j++) {
        if (--indeg[succ[j]] == 0) {
          ready.add(succ[j]);
        }
      }
    }
    if (placed < n) {
      return false; // cyclic: the certain cycle is reported before pruning
    }
    final int words = (n + 63) >>> 6;
    reach = new long[n][];
    for (int i = n - 1; i >= 0; i--) {
      if ((i & 1023) == 0 && System.nanoTime() > deadline) {
        return false;
      }
      final int v = topo[i];
      final long[] set = new long[words];
      for (int j = start[v]; j < start[v + 1]; j++) {
        final int w = succ[j];
        set[w >>> 6] |= 1L << w;
        final long[] sw = reach[w];
        for (int x = 0; x < words; x++) {
          set[x] |= sw[x];
        }
      }
      reach[v] = set;
    }
    return true;
  }

  private boolean counts(final EdgeList g, final int e) {
    return !si || !g.isRw(e);
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
