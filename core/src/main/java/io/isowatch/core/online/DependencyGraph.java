package io.isowatch.core.online;

import io.isowatch.core.check.Level;
import io.isowatch.core.graph.IntList;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * A state's dependency graph (docs/streaming-design.md, steps 6-8): the edges, grouped by pair of
 * transactions, and one incrementally ordered graph per requested level over them, weakest level
 * first (SI, SER, SSER), the order cycles are searched in.
 *
 * <p>Only the strongest requested level's graph is built while it stays acyclic; the weaker
 * ones are deferred. A cycle of SI's graph is a cycle of SER's dependencies, and SER's graph is
 * SSER's without real time, so while the strongest graph has refused no group every weaker graph
 * would have accepted every group too, and none of them has a cycle to report. The deferred
 * graphs' inputs (nodes and groups, in order) are logged; the first group the strongest graph
 * refuses builds them by replaying the log, which leaves each exactly as if it had been built all
 * along, and from then on every graph is built as it comes. A valid history, the usual case of
 * {@code isowatch check --levels SSER,SER,SI}, thus orders one graph instead of three.
 */
final class DependencyGraph {
  /**
   * {@code -Disowatch.graph.defer-weaker=false} builds every level's graph from the start (the
   * results are the same; tests compare the two).
   */
  static final String DEFER_PROPERTY = "isowatch.graph.defer-weaker";

  final DependencyEdges edges;
  /** The requested levels' graphs, weakest first; null while deferred. */
  private final LevelGraph[] graphs;
  private final List<Supplier<LevelGraph>> makers = new ArrayList<>(3);
  /** The last {@link #insert}'s refusal per graph (null: accepted or not in that level). */
  private final LevelGraph.Cycle[] refused;
  /** SSER's graph, or null when SSER is not requested. */
  private final SserGraph sser;
  /** While some graphs are deferred: their inputs, a node as {@code -slot - 1}, a group as itself; else null. */
  private IntList deferred;

  DependencyGraph(final Set<Level> requested, final TxnIndex txns, final long rtSkewMicros,
      final int expectedTransactions) {
    // With no level graph (weak levels only) edges are only counted: no room is reserved for them.
    final boolean anyGraph = requested.contains(Level.SI) || requested.contains(Level.PC)
        || requested.contains(Level.SER) || requested.contains(Level.SSER);
    this.edges = new DependencyEdges(anyGraph ? expectedTransactions : 0);
    // PC is decided with SI's graph (docs/levels.md).
    if (requested.contains(Level.SI) || requested.contains(Level.PC)) {
      makers.add(() -> new SiGraph(edges, expectedTransactions));
    }
    if (requested.contains(Level.SER)) {
      makers.add(() -> new SerGraph(edges, expectedTransactions));
    }
    final SserGraph sserGraph = requested.contains(Level.SSER)
        ? new SserGraph(edges, txns, rtSkewMicros, expectedTransactions) : null;
    if (sserGraph != null) {
      makers.add(() -> sserGraph);
    }
    this.sser = sserGraph;
    final int n = makers.size();
    this.graphs = new LevelGraph[n];
    this.refused = new LevelGraph.Cycle[n];
    if (n > 0) {
      graphs[n - 1] = makers.get(n - 1).get();
    }
    final boolean defer = !"false".equals(System.getProperty(DEFER_PROPERTY));
    this.deferred = defer && n > 1 ? new IntList(1 << 10) : null;
    if (deferred == null) {
      build();
    }
  }

  /** How many levels' graphs there are (built or deferred), weakest first. */
  int count() {
    return graphs.length;
  }

  /** How many of the levels' graphs are built (the others are deferred). */
  int built() {
    int b = 0;
    for (final LevelGraph g : graphs) {
      if (g != null) {
        b++;
      }
    }
    return b;
  }

  /** The i-th level's graph; built whenever {@link #refused(int)} is not null. */
  LevelGraph graph(final int i) {
    return graphs[i];
  }

  /** The cycle the i-th level's graph refused the last inserted group for, or null. */
  LevelGraph.Cycle refused(final int i) {
    return refused[i];
  }

  /** Whether the level's graph refused some group (a deferred graph has refused none). */
  boolean cyclic(final Level level) {
    for (final LevelGraph g : graphs) {
      if (g != null && g.level == level) {
        return g.cyclic();
      }
    }
    return false;
  }

  /** Adds a counted transaction as a node of every level's graph. */
  void addTransaction(final int slot) {
    if (deferred != null) {
      deferred.add(-slot - 1);
      graphs[graphs.length - 1].addTransaction(slot);
      return;
    }
    for (final LevelGraph g : graphs) {
      g.addTransaction(slot);
    }
  }

  /**
   * Inserts the group in every level's graph, weakest first, each refusing it where it closes a
   * cycle ({@link #refused(int)}).
   */
  void insert(final int group) {
    final int last = graphs.length - 1;
    if (deferred != null) {
      final LevelGraph.Cycle strongest = graphs[last].insert(group);
      if (strongest == null) {
        deferred.add(group);
        for (int i = 0; i <= last; i++) {
          refused[i] = null;
        }
        return;
      }
      build();
      for (int i = 0; i < last; i++) {
        refused[i] = graphs[i].insert(group);
      }
      refused[last] = strongest;
      return;
    }
    for (int i = 0; i <= last; i++) {
      refused[i] = graphs[i].insert(group);
    }
  }

  /** Builds the deferred graphs from the log; from then on every graph is built as inputs come. */
  private void build() {
    for (int i = 0; i < graphs.length; i++) {
      if (graphs[i] == null) {
        graphs[i] = makers.get(i).get();
        replay(graphs[i]);
      }
    }
    deferred = null;
  }

  private void replay(final LevelGraph g) {
    if (deferred == null) {
      return;
    }
    for (int j = 0; j < deferred.size(); j++) {
      final int x = deferred.get(j);
      if (x < 0) {
        g.addTransaction(-x - 1);
      } else if (g.insert(x) != null) {
        throw new IllegalStateException(g.level + "'s graph refused group " + x + ", which "
            + graphs[graphs.length - 1].level + "'s acyclic graph holds");
      }
    }
  }

  /** SSER only: the real-time edges of a counted transaction with times, into {@code step}. */
  void addTimes(final int slot, final StepEdges step) {
    if (sser != null) {
      sser.addTimes(slot, step);
    }
  }

  /** Graph nodes visited by the Pearce–Kelly searches so far, all built levels together. */
  long visitedNodes() {
    long n = 0;
    for (final LevelGraph g : graphs) {
      if (g != null) {
        n += g.dag.visitedTotal();
      }
    }
    return n;
  }
}
