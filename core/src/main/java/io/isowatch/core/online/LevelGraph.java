package io.isowatch.core.online;

import io.isowatch.core.check.Level;
import io.isowatch.core.graph.IntList;

/**
 * Store {@code graph} for one level: the level's dependency graph, kept acyclic with a
 * Pearce–Kelly topological order. Groups of dependency edges are inserted as units; a group that
 * would close a cycle is refused (never inserted) and the shortest cycle through it in the
 * current graph is returned, as the closing graph edge followed by the path back.
 *
 * <p>Subclasses map transactions (and, for SSER, time points) to graph nodes and a group to its
 * graph edges (MTC Definitions 4-6): SER as is, SI as a two-state graph, SSER with the time chain.
 */
abstract class LevelGraph {
  /** Label of graph edges that only encode real time. */
  static final int ENCODING = -1;

  final Level level;
  final PearceKellyDag dag;
  private boolean cyclic;

  // Scratch for a group's graph edges.
  private final int[] from = new int[3];
  private final int[] to = new int[3];
  private final int[] weight = new int[3];
  private final int[] inserted = new int[3];

  LevelGraph(final Level level, final int expectedNodes, final int expectedEdges) {
    this.level = level;
    this.dag = new PearceKellyDag(expectedNodes, expectedEdges);
  }

  /** A cycle: the refused edge {@code closingFrom → closingTo} of {@code group}, then {@code path}. */
  record Cycle(int group, int closingFrom, int closingTo, int closingWeight, int[] path) {}

  /** Makes the transaction's nodes (called when it becomes counted). */
  abstract void addTransaction(int slot);

  /** Writes the group's graph edges into the arrays; returns how many (0: not in this level). */
  abstract int graphEdges(int group, int[] a, int[] b, int[] w);

  /** The transaction a node stands for, or -1 for a time point. */
  abstract int transactionOf(int node);

  /** Adds the groups of dependency edges from transaction u to v in this graph to {@code out}. */
  abstract void collectGroups(int u, int v, IntList out);

  /** Whether some group was refused: the level's dependency graph has a cycle. */
  boolean cyclic() {
    return cyclic;
  }

  /** Inserts the group, or refuses it and returns the shortest cycle it would close. */
  Cycle insert(final int group) {
    final int n = graphEdges(group, from, to, weight);
    int done = 0;
    int best = -1;
    int[] bestPath = null;
    int bestLength = Integer.MAX_VALUE;
    for (int i = 0; i < n; i++) {
      if (bestPath == null) {
        final int e = dag.insert(from[i], to[i], group, weight[i]);
        if (e >= 0) {
          inserted[done++] = e;
          continue;
        }
        bestPath = dag.lastCycle();
        best = i;
        bestLength = weight[i] + length(bestPath);
        // A group is inserted whole or not at all: a refused group never joins a later cycle.
        for (int j = done - 1; j >= 0; j--) {
          dag.removeLast(inserted[j]);
        }
      } else {
        final int[] path = dag.cycleThrough(from[i], to[i]);
        if (path != null && weight[i] + length(path) < bestLength) {
          bestPath = path;
          best = i;
          bestLength = weight[i] + length(path);
        }
      }
    }
    if (bestPath == null) {
      return null;
    }
    cyclic = true;
    return new Cycle(group, from[best], to[best], weight[best], bestPath);
  }

  private int length(final int[] path) {
    int sum = 0;
    for (final int e : path) {
      sum += dag.weight(e);
    }
    return sum;
  }

  /** Scans u's out-edges for targets {@code v} with a group label, adding each group once. */
  final void collectFrom(final int u, final int v, final IntList out) {
    for (int e = dag.firstOut(u); e >= 0; e = dag.nextOut(e)) {
      final int g = dag.label(e);
      if (dag.target(e) == v && g >= 0 && !contains(out, g)) {
        out.add(g);
      }
    }
  }

  private static boolean contains(final IntList list, final int v) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == v) {
        return true;
      }
    }
    return false;
  }
}
