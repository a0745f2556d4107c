package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;
import java.util.Arrays;

/**
 * CC's arcs for the incremental weak check ({@link IncrementalWeakCheck}), by vector clocks over
 * the sessions as {@code io.isowatch.core.check.AxiomArcs} computes them over a whole history:
 * per counted node, per session, the highest rank of that session's members that precede it in
 * (SO ∪ WR)+. A read of x from t1 by t owes t1 an arc from, per session, the last writer of x at
 * or below t's clock, unless the clocks show that writer precedes t1 already (the arc is implied).
 *
 * <p>In π order a node's predecessors are there before it, so its clock is computed once. An arc
 * that arrives later into a counted node (a read's writer released after the reader, a session
 * member processed late) makes clocks grow forward from it: each node whose clock grows has its
 * reads' arcs computed again, and passes the growth on (monotone, so it stops). Every clock is
 * read off arcs of CC's graph, so an arc it leaves out is implied by arcs that are in it.
 */
final class CausalClocks {
  private static final long NONE = Long.MIN_VALUE;

  private final IncrementalWeakCheck g;
  private long[][] clock = new long[1024][];
  /** The counted readers of each node's writes. */
  private IntList[] readers = new IntList[1024];
  /** Each counted node's successor in its session, or -1. */
  private int[] sessionNext = new int[1024];
  private final IntList work = new IntList(16);

  CausalClocks(final IncrementalWeakCheck g) {
    this.g = g;
    Arrays.fill(sessionNext, -1);
  }

  void grow(final int n) {
    final int old = sessionNext.length;
    clock = Arrays.copyOf(clock, n);
    readers = Arrays.copyOf(readers, n);
    sessionNext = Arrays.copyOf(sessionNext, n);
    Arrays.fill(sessionNext, old, n, -1);
  }

  /** Counted node {@code t}, between {@code pred} and {@code succ} of its session (either -1). */
  void counted(final int t, final int pred, final int succ) {
    if (!g.ccOpen()) {
      return;
    }
    if (pred >= 0) {
      sessionNext[pred] = t;
    }
    sessionNext[t] = succ;
    final long[] c = new long[g.sessionCount()];
    Arrays.fill(c, NONE);
    clock[t] = c;
    if (pred >= 0) {
      merge(t, pred);
    }
    for (int k = 0; k < g.reads(t); k++) {
      final int w = g.readWriter(t, k);
      if (w >= 0) {
        merge(t, w);
      }
    }
    arcs(t);
    if (succ >= 0 && merge(succ, t)) {
      arcs(succ);
      propagate(succ);
    }
  }

  /** Read {@code k} of counted node {@code t} was resolved to {@code writer} (a node or INIT). */
  void read(final int t, final int k, final int writer) {
    if (!g.ccOpen()) {
      return;
    }
    if (writer >= 0) {
      if (readers[writer] == null) {
        readers[writer] = new IntList(2);
      }
      readers[writer].add(t);
    }
    if (clock[t] == null) {
      return; // t is being counted: counted() computes its clock and arcs.
    }
    if (writer >= 0 && merge(t, writer)) {
      arcs(t);
      propagate(t);
    } else {
      readArcs(t, k);
    }
  }

  /**
   * Node {@code p} was counted before a member of its session that was counted already: a reader
   * whose clock already covered p's rank (a later member of p's session or what follows it) may
   * owe an arc from p. Rare; a scan of the counted nodes.
   */
  void lateWriter(final int p) {
    if (!g.ccOpen() || g.writtenKeys(p).length == 0) {
      return;
    }
    final int s = g.session(p);
    for (int u = 0; u < g.nodeCount() && g.ccOpen(); u++) {
      final long[] c = clock[u];
      if (c == null || s >= c.length || c[s] < g.rank(p)) {
        continue;
      }
      for (int k = 0; k < g.reads(u); k++) {
        if (g.writes(p, g.readKey(u, k))) {
          readArcs(u, k);
        }
      }
    }
  }

  /** Passes the growth of {@code start}'s clock to what follows it, as far as clocks grow. */
  private void propagate(final int start) {
    work.clear();
    work.add(start);
    while (work.size() > 0 && g.ccOpen()) {
      final int u = work.removeLast();
      final int next = sessionNext[u];
      if (next >= 0 && clock[next] != null && merge(next, u)) {
        arcs(next);
        work.add(next);
      }
      final IntList rs = readers[u];
      for (int i = 0; rs != null && i < rs.size(); i++) {
        final int v = rs.get(i);
        if (clock[v] != null && merge(v, u)) {
          arcs(v);
          work.add(v);
        }
      }
    }
  }

  /** Raises {@code t}'s clock by {@code p} and p's own; whether it grew. */
  private boolean merge(final int t, final int p) {
    final long[] pc = clock[p];
    final int ps = g.session(p);
    long[] c = clock[t];
    final int width = Math.max(pc.length, ps + 1);
    if (c.length < width) {
      final int old = c.length;
      c = Arrays.copyOf(c, width);
      Arrays.fill(c, old, width, NONE);
      clock[t] = c;
    }
    boolean grew = false;
    for (int s = 0; s < pc.length; s++) {
      if (pc[s] > c[s]) {
        c[s] = pc[s];
        grew = true;
      }
    }
    if (g.rank(p) > c[ps]) {
      c[ps] = g.rank(p);
      grew = true;
    }
    return grew;
  }

  private void arcs(final int t) {
    for (int k = 0; k < g.reads(t) && g.ccOpen(); k++) {
      readArcs(t, k);
    }
  }

  /** CC's arcs for read {@code k} of {@code t}: per session, the last writer of its key in t's causal past. */
  private void readArcs(final int t, final int k) {
    final int t1 = g.readWriter(t, k);
    if (t1 < IncrementalWeakCheck.INIT) {
      return; // not resolved yet
    }
    final int key = g.readKey(t, k);
    final long[] c = clock[t];
    for (int s = 0; s < c.length && g.ccOpen(); s++) {
      if (c[s] == NONE) {
        continue;
      }
      final RankedNodes writers = g.sessionWriters(s, key);
      final int w = writers == null ? RankedNodes.NONE : writers.lastAtMost(c[s]);
      if (w != RankedNodes.NONE && w != t1 && !precedes(w, t1)) {
        g.ccArc(w, t1);
      }
    }
  }

  /** Whether the clocks show {@code w} before {@code t1} in (SO ∪ WR)+ (never before INIT). */
  private boolean precedes(final int w, final int t1) {
    if (t1 < 0 || clock[t1] == null) {
      return false;
    }
    final int s = g.session(w);
    return s < clock[t1].length && clock[t1][s] >= g.rank(w);
  }
}
