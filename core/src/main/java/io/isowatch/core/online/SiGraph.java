package io.isowatch.core.online;

import io.isowatch.core.check.Level;
import io.isowatch.core.graph.IntList;

/**
 * SI's graph for (SO ∪ WR ∪ WW) ; RW? without composing edges: two nodes per transaction, 2t and
 * 2t+1 ("just reached t by a dependency"). A dependency u→v gives 2u→2v and 2u→2v+1; an
 * anti-dependency v→w gives 2v+1→2w. A cycle through transaction nodes is exactly a cycle of
 * the composed relation.
 */
final class SiGraph extends LevelGraph {
  private final DependencyEdges edges;

  SiGraph(final DependencyEdges edges, final int expectedTransactions) {
    super(Level.SI, 2 * expectedTransactions + 2, 8 * expectedTransactions);
    this.edges = edges;
    addTransaction(TxnIndex.INIT);
  }

  @Override
  void addTransaction(final int slot) {
    dag.ensureNode(2 * slot);
    dag.ensureNode(2 * slot + 1);
  }

  @Override
  int graphEdges(final int group, final int[] a, final int[] b, final int[] w) {
    if (!edges.betweenTransactions(group)) {
      return 0;
    }
    final int u = edges.from(group);
    final int v = edges.to(group);
    final int mask = edges.mask(group);
    int n = 0;
    if ((mask & ~DependencyEdges.RW_MASK) != 0) {
      a[n] = 2 * u;
      b[n] = 2 * v;
      w[n++] = 1;
      a[n] = 2 * u;
      b[n] = 2 * v + 1;
      w[n++] = 1;
    }
    if ((mask & DependencyEdges.RW_MASK) != 0) {
      a[n] = 2 * u + 1;
      b[n] = 2 * v;
      w[n++] = 1;
    }
    return n;
  }

  @Override
  int transactionOf(final int node) {
    return node >> 1;
  }

  @Override
  void collectGroups(final int u, final int v, final IntList out) {
    collectFrom(2 * u, 2 * v, out);
    collectFrom(2 * u, 2 * v + 1, out);
    collectFrom(2 * u + 1, 2 * v, out);
  }
}
