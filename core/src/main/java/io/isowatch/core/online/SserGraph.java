package io.isowatch.core.online;

import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.RealTime;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Transaction;

/**
 * SSER's graph: SER's edges plus real time through the chain of {@link TimePoints}. Transaction t
 * is node 2t, time point p node 2p+1. A counted transaction with a usable end gets a point at its
 * end and an edge t → point (weight 1); one with a usable start an edge from the latest point
 * before its start minus the skew (weight 0); chain edges weigh 0, so a real-time step counts
 * once in a cycle's length, however many points it passes.
 */
final class SserGraph extends LevelGraph {
  private final DependencyEdges edges;
  private final TxnIndex txns;
  private final TimePoints points;
  private final long skew;

  SserGraph(final DependencyEdges edges, final TxnIndex txns, final long skewMicros, final int expectedTransactions) {
    super(Level.SSER, 2 * expectedTransactions + 2, 7 * expectedTransactions);
    this.edges = edges;
    this.txns = txns;
    this.skew = skewMicros;
    this.points = new TimePoints(expectedTransactions);
    dag.ensureNode(2 * TxnIndex.INIT);
    dag.ensureNode(pointNode(TimePoints.HEAD));
  }

  @Override
  void addTransaction(final int slot) {
    dag.ensureNode(2 * slot);
  }

  /**
   * Places a newly counted transaction in real time: makes its end point (chain edges at once:
   * they never close a cycle) and adds to {@code step} the encoding edges that may: t → its
   * point, the latest point before its start → t, and those its point takes over.
   */
  void addTimes(final int slot, final StepEdges step) {
    final Transaction t = txns.txn(slot);
    final long start = t.start();
    final long end = t.end();
    if (RealTime.endUsable(start, end)) {
      final int i = points.insert(end);
      final int p = points.pointAt(i);
      dag.ensureNode(pointNode(p));
      final int prev = points.before(i);
      final int next = points.after(i);
      chain(prev, p);
      if (next >= 0) {
        chain(p, next);
        takeOver(prev, p, end, step);
      }
      step.add(slot, StepEdges.point(p), EdgeKind.RT, -1);
    }
    if (RealTime.startUsable(start, end)) {
      final int p = points.latestBefore(start - skew);
      step.add(StepEdges.point(p), slot, EdgeKind.RT, -1);
      points.attach(p, slot);
    }
  }

  /** A point joining in the middle precedes the transactions attached to its predecessor that start after it. */
  private void takeOver(final int prev, final int p, final long time, final StepEdges step) {
    for (int e = points.firstAttached(prev); e >= 0; e = points.nextAttached(e)) {
      final int x = points.attachedSlot(e);
      if (txns.txn(x).start() - skew > time) {
        step.add(StepEdges.point(p), x, EdgeKind.RT, -1);
        points.attach(p, x);
      }
    }
  }

  private void chain(final int p, final int q) {
    if (dag.insert(pointNode(p), pointNode(q), ENCODING, 0) < 0) {
      throw new IllegalStateException("the time chain closed a cycle between points " + p + " and " + q);
    }
  }

  private static int pointNode(final int p) {
    return 2 * p + 1;
  }

  @Override
  int graphEdges(final int group, final int[] a, final int[] b, final int[] w) {
    final int u = edges.from(group);
    final int v = edges.to(group);
    if (u >= 0 && v >= 0) {
      a[0] = 2 * u;
      b[0] = 2 * v;
      w[0] = 1;
    } else if (u >= 0) {
      a[0] = 2 * u;
      b[0] = pointNode(-v - 1);
      w[0] = 1;
    } else {
      a[0] = pointNode(-u - 1);
      b[0] = 2 * v;
      w[0] = 0;
    }
    return 1;
  }

  @Override
  int transactionOf(final int node) {
    return (node & 1) == 0 ? node >> 1 : -1;
  }

  @Override
  void collectGroups(final int u, final int v, final IntList out) {
    collectFrom(2 * u, 2 * v, out);
  }
}
