package io.isowatch.core.online;

import io.isowatch.core.check.Level;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * A state's dependency graph (docs/streaming-design.md, steps 6-8): the edges, grouped by pair of
 * transactions, and one incrementally ordered graph per requested level over them, weakest level
 * first (SI, SER, SSER), the order cycles are searched in.
 */
final class DependencyGraph {
  final DependencyEdges edges;
  private final List<LevelGraph> levels = new ArrayList<>(3);
  /** SSER's graph, or null when SSER is not requested. */
  private final SserGraph sser;

  DependencyGraph(final Set<Level> requested, final TxnIndex txns, final long rtSkewMicros,
      final int expectedTransactions) {
    this.edges = new DependencyEdges(expectedTransactions);
    // PC is decided with SI's graph (docs/levels.md).
    if (requested.contains(Level.SI) || requested.contains(Level.PC)) {
      levels.add(new SiGraph(edges, expectedTransactions));
    }
    if (requested.contains(Level.SER)) {
      levels.add(new SerGraph(edges, expectedTransactions));
    }
    if (requested.contains(Level.SSER)) {
      sser = new SserGraph(edges, txns, rtSkewMicros, expectedTransactions);
      levels.add(sser);
    } else {
      sser = null;
    }
  }

  /** The requested levels' graphs, weakest level first. */
  List<LevelGraph> levels() {
    return Collections.unmodifiableList(levels);
  }

  /** Adds a counted transaction as a node of every level's graph. */
  void addTransaction(final int slot) {
    for (final LevelGraph g : levels) {
      g.addTransaction(slot);
    }
  }

  /** SSER only: the real-time edges of a counted transaction with times, into {@code step}. */
  void addTimes(final int slot, final StepEdges step) {
    if (sser != null) {
      sser.addTimes(slot, step);
    }
  }

  /** Graph nodes visited by the Pearce–Kelly searches so far, all levels together. */
  long visitedNodes() {
    long n = 0;
    for (final LevelGraph g : levels) {
      n += g.dag.visitedTotal();
    }
    return n;
  }
}
