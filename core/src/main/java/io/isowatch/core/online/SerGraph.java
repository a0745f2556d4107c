package io.isowatch.core.online;

import io.isowatch.core.check.Level;
import io.isowatch.core.graph.IntList;

/** SER's graph: SO ∪ WR ∪ WW ∪ RW, one node per transaction, one edge per group. */
final class SerGraph extends LevelGraph {
  private final DependencyEdges edges;

  SerGraph(final DependencyEdges edges, final int expectedTransactions) {
    super(Level.SER, expectedTransactions + 1, 4 * expectedTransactions);
    this.edges = edges;
    dag.ensureNode(TxnIndex.INIT);
  }

  @Override
  void addTransaction(final int slot) {
    dag.ensureNode(slot);
  }

  @Override
  int graphEdges(final int group, final int[] a, final int[] b, final int[] w) {
    if (!edges.betweenTransactions(group)) {
      return 0;
    }
    a[0] = edges.from(group);
    b[0] = edges.to(group);
    w[0] = 1;
    return 1;
  }

  @Override
  int transactionOf(final int node) {
    return node;
  }

  @Override
  void collectGroups(final int u, final int v, final IntList out) {
    collectFrom(u, v, out);
  }
}
