package io.isowatch.core.online;

import io.isowatch.core.check.CycleStep;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.RealTime;
import io.isowatch.core.graph.IntList;
import java.util.ArrayList;
import java.util.List;

/**
 * Inserts one processing step's new edges into every level graph (design step 8) and reports the
 * cycles they would close (step 9). The edges are grouped by ordered pair; groups go in a fixed
 * order, by their lowest edge kind (SO, RT, WR, WW, RW), then by the π positions of their
 * endpoints, so the result depends on the history only. A group that closes a cycle is refused
 * in that level's graph; it is reported once, in the weakest level where it closes one (searched
 * SI, then SER, then SSER), with every level the cycle violates, and refused
 * silently in the stronger levels, whose cycles through it that report already covers.
 */
final class CycleDetector {
  private final OnlineState s;
  private final Publisher out;
  private int[] order = new int[64];
  private int[] runStart = new int[64];
  private int[] runOrder = new int[64];
  /** Up to this many edges (or groups), a step's sorts are insertion sorts written out. */
  private static final int SMALL = 32;
  private final IntList groups = new IntList(8);
  private StepEdges step;
  /** Entries by pair, then kind and version. */
  private final IndexSort.IntComparator byPair = (a, b) -> {
    int c = Integer.compare(step.from(a), step.from(b));
    if (c == 0) {
      c = Integer.compare(step.to(a), step.to(b));
    }
    if (c == 0) {
      c = Integer.compare(step.kind(a), step.kind(b));
    }
    return c != 0 ? c : Integer.compare(step.version(a), step.version(b));
  };
  /** Groups (runs of one pair) by lowest kind, then the endpoints' π positions. */
  private final IndexSort.IntComparator byKindAndPosition = (a, b) -> {
    final int ea = order[runStart[a]];
    final int eb = order[runStart[b]];
    int c = Integer.compare(step.kind(ea), step.kind(eb));
    if (c == 0) {
      c = Integer.compare(position(step.from(ea)), position(step.from(eb)));
    }
    return c != 0 ? c : Integer.compare(position(step.to(ea)), position(step.to(eb)));
  };

  CycleDetector(final OnlineState s, final Publisher out) {
    this.s = s;
    this.out = out;
  }

  void commit(final StepEdges edges) {
    this.step = edges;
    final int n = step.size();
    if (n == 0) {
      return;
    }
    if (order.length < n + 1) {
      order = new int[2 * n + 1];
      runStart = new int[2 * n + 1];
      runOrder = new int[2 * n + 1];
    }
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    if (n <= SMALL) {
      sortByPairSmall(n);
    } else {
      IndexSort.sort(order, n, byPair);
    }
    if (s.graph.count() == 0) {
      countOnly(n);
      return;
    }
    int runs = 0;
    for (int i = 0; i < n; i++) {
      if (i == 0 || step.from(order[i]) != step.from(order[i - 1]) || step.to(order[i]) != step.to(order[i - 1])) {
        runStart[runs++] = i;
      }
    }
    runStart[runs] = n;
    for (int r = 0; r < runs; r++) {
      runOrder[r] = r;
    }
    if (runs <= SMALL) {
      sortRunsSmall(runs);
    } else {
      IndexSort.sort(runOrder, runs, byKindAndPosition);
    }
    for (int k = 0; k < runs; k++) {
      final int r = runOrder[k];
      final int first = order[runStart[r]];
      final int g = s.graph.edges.openGroup(step.from(first), step.to(first));
      int previous = -1;
      for (int i = runStart[r]; i < runStart[r + 1]; i++) {
        final int e = order[i];
        if (step.kind(e) == EdgeKind.RT.ordinal()) {
          s.graph.edges.markRealTime(g);
        } else if (previous < 0 || step.kind(e) != step.kind(previous) || step.version(e) != step.version(previous)) {
          s.graph.edges.addToGroup(g, DependencyEdges.KINDS[step.kind(e)], step.version(e));
        }
        previous = e;
      }
      insert(g);
    }
    step.clear();
  }

  /**
   * No level graph is requested (only weak levels, decided elsewhere): nothing inserts or refuses
   * a group, so the step's edges are only counted, the same ones {@link #commit} would store (the
   * statistics' edge count). Sorted by pair, an edge is a new one unless it is real time or repeats
   * the previous edge's pair, kind and version.
   */
  private void countOnly(final int n) {
    int edges = 0;
    for (int i = 0; i < n; i++) {
      final int e = order[i];
      if (step.kind(e) == EdgeKind.RT.ordinal()) {
        continue;
      }
      final boolean samePair = i > 0 && step.from(order[i - 1]) == step.from(e) && step.to(order[i - 1]) == step.to(e);
      if (!samePair || step.kind(e) != step.kind(order[i - 1]) || step.version(e) != step.version(order[i - 1])) {
        edges++;
      }
    }
    s.graph.edges.countUngrouped(edges);
    step.clear();
  }

  /**
   * {@link #byPair} as a stable insertion sort with the comparison written out: a step has a
   * handful of edges, and {@link IndexSort}'s comparator call is shared by every sort of the
   * engine (a megamorphic call the JIT does not inline). A stable sort's result is determined by
   * the comparator, so the order is the same.
   */
  private void sortByPairSmall(final int n) {
    for (int i = 1; i < n; i++) {
      final int v = order[i];
      final int vf = step.from(v);
      final int vt = step.to(v);
      final int vk = step.kind(v);
      final int vv = step.version(v);
      int j = i - 1;
      while (j >= 0) {
        final int a = order[j];
        int c = Integer.compare(step.from(a), vf);
        if (c == 0) {
          c = Integer.compare(step.to(a), vt);
        }
        if (c == 0) {
          c = Integer.compare(step.kind(a), vk);
        }
        if (c == 0) {
          c = Integer.compare(step.version(a), vv);
        }
        if (c <= 0) {
          break;
        }
        order[j + 1] = a;
        j--;
      }
      order[j + 1] = v;
    }
  }

  /** {@link #byKindAndPosition} as a stable insertion sort (see {@link #sortByPairSmall}). */
  private void sortRunsSmall(final int runs) {
    for (int i = 1; i < runs; i++) {
      final int v = runOrder[i];
      final int ev = order[runStart[v]];
      final int vk = step.kind(ev);
      final int vf = position(step.from(ev));
      final int vt = position(step.to(ev));
      int j = i - 1;
      while (j >= 0) {
        final int ea = order[runStart[runOrder[j]]];
        int c = Integer.compare(step.kind(ea), vk);
        if (c == 0) {
          c = Integer.compare(position(step.from(ea)), vf);
        }
        if (c == 0) {
          c = Integer.compare(position(step.to(ea)), vt);
        }
        if (c <= 0) {
          break;
        }
        runOrder[j + 1] = runOrder[j];
        j--;
      }
      runOrder[j + 1] = v;
    }
  }

  /** π position of a slot (the initial transaction first), or creation index of a time point. */
  private int position(final int endpoint) {
    return endpoint >= 0 ? s.txns.piPos(endpoint) : -endpoint - 1;
  }

  private void insert(final int g) {
    // Anti-dependencies between two lost-update siblings are what the LostUpdate report explains:
    // refused like any edge where they close a cycle, but that cycle is not reported again.
    boolean reported = siblingAntiDependencies(g);
    s.graph.insert(g);
    for (int i = 0; i < s.graph.count(); i++) {
      final LevelGraph.Cycle c = s.graph.refused(i);
      if (c != null && !reported) {
        reported = true;
        out.cycle(steps(s.graph.graph(i), c));
      }
    }
  }

  /** Turns the graph cycle into transaction steps, collapsing runs through time points into RT steps. */
  List<CycleStep> steps(final LevelGraph graph, final LevelGraph.Cycle c) {
    final int m = c.path().length + 1;
    final int[] src = new int[m];
    final int[] dst = new int[m];
    src[0] = c.closingFrom();
    dst[0] = c.closingTo();
    for (int i = 0; i < c.path().length; i++) {
      src[i + 1] = graph.dag.source(c.path()[i]);
      dst[i + 1] = graph.dag.target(c.path()[i]);
    }
    int start = 0;
    while (graph.transactionOf(src[start]) < 0) {
      start++;
    }
    final List<CycleStep> steps = new ArrayList<>(m);
    int rtStart = -1;
    for (int k = 0; k < m; k++) {
      final int i = (start + k) % m;
      final int u = graph.transactionOf(src[i]);
      final int v = graph.transactionOf(dst[i]);
      if (u >= 0 && v >= 0) {
        steps.add(step(graph, u, v, i == 0 ? c.group() : -1));
      } else if (u >= 0) {
        rtStart = u;
      } else if (v >= 0) {
        steps.add(step(graph, rtStart, v, -1));
        rtStart = -1;
      }
    }
    return steps;
  }

  /**
   * Every dependency from u to v in this level's graph (plus the refused group, for the closing
   * step), with session order and real time where they hold, directly or not.
   */
  private CycleStep step(final LevelGraph graph, final int u, final int v, final int refused) {
    groups.clear();
    graph.collectGroups(u, v, groups);
    if (refused >= 0 && !contains(groups, refused)) {
      groups.add(refused);
    }
    int mask = 0;
    final IntList ids = new IntList(4);
    for (int i = 0; i < groups.size(); i++) {
      final int g = groups.get(i);
      mask |= s.graph.edges.mask(g) & ~DependencyEdges.RT_MASK;
      for (int e = s.graph.edges.first(g); e < s.graph.edges.first(g) + s.graph.edges.count(g); e++) {
        ids.add(e);
      }
    }
    if (u != TxnIndex.INIT && s.txns.session(u) == s.txns.session(v) && s.txns.rank(u) < s.txns.rank(v)) {
      mask |= CycleStep.SO;
    }
    if (u != TxnIndex.INIT && RealTime.precedes(s.txns.txn(u), s.txns.txn(v), s.options.rtSkewMicros())) {
      mask |= CycleStep.RT;
    }
    return new CycleStep(u, v, mask, ids.toArray());
  }

  /** The group holds only RW edges between two transactions that both overwrote the version. */
  private boolean siblingAntiDependencies(final int g) {
    final int n = s.graph.edges.count(g);
    // No lost update yet (every valid history): no version has two successors, so no group is
    // one of siblings; this spares a look-up of each edge's version, a cache miss, per group.
    if (n == 0 || !s.chains.anySiblingSuccessors() || !s.graph.edges.betweenTransactions(g)) {
      return false;
    }
    for (int e = s.graph.edges.first(g); e < s.graph.edges.first(g) + n; e++) {
      final int version = s.graph.edges.version(e);
      // A reader of the initial version also has an RW to every blind writer: not a sibling.
      if (s.graph.edges.kind(e) != EdgeKind.RW || !s.chains.hasSiblingSuccessors(version)
          || !s.chains.isSuccessor(version, s.graph.edges.from(g))
          || !s.chains.isSuccessor(version, s.graph.edges.to(g))) {
        return false;
      }
    }
    return true;
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
