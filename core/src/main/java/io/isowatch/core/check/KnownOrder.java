package io.isowatch.core.check;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Queue;

/**
 * The precedences known so far between nodes 0..n (node 0 the initial transaction), each recorded
 * as a {@link MixedStep} with the order it was recorded in, and kept transitively closed as bit sets
 * both ways (n² bits each). {@link #add} refuses a step that would close a cycle and remembers it
 * ({@link #closing}); paths of recorded steps explain any known precedence.
 */
final class KnownOrder {
  private static final int INIT = WeakGraph.INIT;

  private final int nodes;
  private final int words;
  /** after[u]: the nodes known to commit after u; before[v]: those known to commit before v. */
  private final long[][] after;
  private final long[][] before;
  private final List<List<MixedStep>> out = new ArrayList<>();
  /** When each step was recorded: a step is explained by earlier ones only (no circular proof). */
  private final IdentityHashMap<MixedStep, Integer> recordedAt = new IdentityHashMap<>();
  private MixedStep closing;
  /** Steps recorded with the facts, before any derived one. */
  private int factCount;
  /** Steps recorded so far. */
  private int stepCount;

  KnownOrder(final int nodes) {
    this.nodes = nodes;
    this.words = (nodes + 63) >>> 6;
    this.after = new long[nodes][words];
    this.before = new long[nodes][words];
    for (int i = 0; i < nodes; i++) {
      out.add(new ArrayList<>(4));
    }
  }

  /** A copy, for one case of a case split. */
  KnownOrder(final KnownOrder o) {
    this.nodes = o.nodes;
    this.words = o.words;
    this.after = new long[nodes][];
    this.before = new long[nodes][];
    for (int i = 0; i < nodes; i++) {
      after[i] = o.after[i].clone();
      before[i] = o.before[i].clone();
      out.add(new ArrayList<>(o.out.get(i)));
    }
    this.recordedAt.putAll(o.recordedAt);
    this.stepCount = o.stepCount;
    this.factCount = o.factCount;
  }

  /** Steps recorded so far: a saturation pass that records none is the last. */
  int stepCount() {
    return stepCount;
  }

  /** The step {@link #add} refused last: it closes a cycle. */
  MixedStep closing() {
    return closing;
  }

  /** A copy of the nodes known to commit before {@code v}. */
  long[] beforeOf(final int v) {
    return before[v].clone();
  }

  /** Whether {@code u} is known to commit before {@code v}. */
  boolean known(final int u, final int v) {
    return u == INIT ? v != INIT : (after[u][v >>> 6] & (1L << v)) != 0;
  }

  /** The facts (acyclic), closed in one pass in reverse topological order. */
  void closeFacts(final List<MixedStep> facts) {
    final int[] indeg = new int[nodes];
    for (final MixedStep s : facts) {
      record(s);
      indeg[s.to()]++;
    }
    final ArrayDeque<Integer> ready = new ArrayDeque<>();
    final int[] order = new int[nodes];
    ready.add(INIT);
    final int k = drain(ready, indeg, order);
    for (int i = k - 1; i >= 0; i--) {
      final int u = order[i];
      for (final MixedStep s : out.get(u)) {
        final long[] a = after[u];
        final long[] b = after[s.to()];
        for (int w = 0; w < words; w++) {
          a[w] |= b[w];
        }
        a[s.to() >>> 6] |= 1L << s.to();
      }
    }
    factCount = stepCount;
    for (int u = 0; u < nodes; u++) {
      final long[] a = after[u];
      for (int w = 0; w < words; w++) {
        for (long bits = a[w]; bits != 0; bits &= bits - 1) {
          final int v = (w << 6) + Long.numberOfTrailingZeros(bits);
          before[v][u >>> 6] |= 1L << u;
        }
      }
    }
  }

  private void record(final MixedStep s) {
    out.get(s.from()).add(s);
    recordedAt.put(s, stepCount++);
  }

  /** Adds a derived precedence and closes; false (with {@link #closing} set) when it closes a cycle. */
  boolean add(final MixedStep s) {
    final int u = s.from();
    final int v = s.to();
    if (u == v || v == INIT || known(v, u)) {
      closing = s;
      return false;
    }
    if (known(u, v)) {
      return true;
    }
    record(s);
    final long[] preds = before[u].clone();
    preds[u >>> 6] |= 1L << u;
    final long[] succs = after[v].clone();
    succs[v >>> 6] |= 1L << v;
    for (int w = 0; w < words; w++) {
      for (long bits = preds[w]; bits != 0; bits &= bits - 1) {
        final long[] a = after[(w << 6) + Long.numberOfTrailingZeros(bits)];
        for (int x = 0; x < words; x++) {
          a[x] |= succs[x];
        }
      }
      for (long bits = succs[w]; bits != 0; bits &= bits - 1) {
        final long[] b = before[(w << 6) + Long.numberOfTrailingZeros(bits)];
        for (int x = 0; x < words; x++) {
          b[x] |= preds[x];
        }
      }
    }
    return true;
  }

  /** The steps of a cycle that {@code last} closes: a path of recorded steps from its target to its source, then it. */
  List<MixedStep> cycleThrough(final MixedStep last) {
    final List<MixedStep> path = path(last.to(), last.from());
    path.add(last);
    return path;
  }

  /** A shortest path of recorded steps from {@code from} to {@code to} (empty when they are equal). */
  List<MixedStep> path(final int from, final int to) {
    return path(from, to, Integer.MAX_VALUE);
  }

  /** Why {@code from} precedes {@code to} by steps recorded before {@code step}, or null when they do not show it. */
  List<MixedStep> pathBefore(final int from, final int to, final MixedStep step) {
    final List<MixedStep> p = path(from, to, recordedAt.getOrDefault(step, Integer.MAX_VALUE));
    return p.isEmpty() && from != to ? null : p;
  }

  /** A path of facts (SO, WR) from {@code from} to {@code to}: why one precedes the other causally. */
  List<MixedStep> causalPath(final int from, final int to) {
    final List<MixedStep> p = path(from, to, factCount);
    return p.isEmpty() && from != to ? null : p;
  }

  private List<MixedStep> path(final int from, final int to, final int recordedBefore) {
    final MixedStep[] via = new MixedStep[nodes];
    final boolean[] seen = new boolean[nodes];
    final ArrayDeque<Integer> work = new ArrayDeque<>();
    work.add(from);
    seen[from] = true;
    while (!work.isEmpty() && !seen[to]) {
      final int v = work.poll();
      for (final MixedStep s : out.get(v)) {
        if (!seen[s.to()] && recordedAt.getOrDefault(s, 0) < recordedBefore) {
          seen[s.to()] = true;
          via[s.to()] = s;
          work.add(s.to());
        }
      }
    }
    final List<MixedStep> path = new ArrayList<>();
    if (!seen[to]) {
      return path;
    }
    for (int v = to; v != from; v = via[v].from()) {
      path.add(0, via[v]);
    }
    return path;
  }

  /**
   * A commit order that has every recorded precedence: nodes 1..n, the initial transaction left
   * out, by a topological order that takes the earliest transaction of the input first.
   */
  int[] order(final int n) {
    final int[] indeg = new int[nodes];
    for (int u = 0; u < nodes; u++) {
      for (final MixedStep s : out.get(u)) {
        indeg[s.to()]++;
      }
    }
    final PriorityQueue<Integer> ready = new PriorityQueue<>();
    final int[] order = new int[n];
    for (final MixedStep s : out.get(INIT)) {
      if (--indeg[s.to()] == 0) {
        ready.add(s.to());
      }
    }
    drain(ready, indeg, order);
    return order;
  }

  /**
   * Kahn's algorithm from the nodes {@code ready}: takes them in the queue's order (the caller's
   * choice of tie-break), writes each to {@code order} from index 0 on, and adds a successor once its
   * last predecessor is taken ({@code indeg} counts down). Returns how many nodes were written.
   */
  private int drain(final Queue<Integer> ready, final int[] indeg, final int[] order) {
    int next = 0;
    while (!ready.isEmpty()) {
      final int v = ready.poll();
      order[next++] = v;
      for (final MixedStep s : out.get(v)) {
        if (--indeg[s.to()] == 0) {
          ready.add(s.to());
        }
      }
    }
    return next;
  }
}
