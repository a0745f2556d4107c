package io.isowatch.core.check;

import io.isowatch.core.graph.Digraph;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.graph.ShortestPaths;
import io.isowatch.core.graph.StronglyConnected;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds independent counterexample cycles: for each dependency edge that lies in a cyclic
 * component and is not yet part of a reported cycle, the shortest cycle through it. Each reported
 * cycle therefore contains an edge no earlier one does. Levels are searched weakest first (SI,
 * then SER, then SSER), so a cycle is found in the graph of the weakest level it violates and
 * carries every level it violates.
 */
final class CycleSearch {
  private final DependencyGraph dg;
  private final EdgeTable edges;
  private final int n;
  private final boolean[] covered;
  private final Set<String> seen = new HashSet<>();
  private final Set<Long> divergencePairs = new HashSet<>();
  private final List<List<CycleStep>> found = new ArrayList<>();
  private final int max;
  private boolean truncated;

  CycleSearch(final DependencyGraph dg, final int max) {
    this.dg = dg;
    this.edges = dg.edges;
    this.n = dg.h.size();
    this.covered = new boolean[edges.size()];
    this.max = max;
    for (final int[] d : dg.divergences) {
      divergencePairs.add(pair(d[1], d[2]));
    }
    // Anti-dependencies between two lost-update siblings are what the LostUpdate report explains;
    // searching from them again would only restate it.
    for (int e = 0; e < edges.size(); e++) {
      if (edges.kind(e) == EdgeKind.RW && divergencePairs.contains(pair(edges.from(e), edges.to(e)))) {
        covered[e] = true;
      }
    }
  }

  List<List<CycleStep>> cycles() {
    return found;
  }

  boolean truncated() {
    return truncated;
  }

  /** Searches one level's graph; returns true when that graph has a cycle. */
  boolean search(final Level level, final Digraph g, final long skewMicros) {
    final StronglyConnected scc = StronglyConnected.of(g);
    if (!scc.hasCycle()) {
      return false;
    }
    final ShortestPaths paths = new ShortestPaths(g, scc);
    // Bound wasted searches (those that rediscover a known cycle) in very large components.
    int budget = 4 * max + 64;
    for (int e = 0; e < edges.size(); e++) {
      if (covered[e]) {
        continue;
      }
      final int[] cycle = shortestCycleThrough(level, g, scc, paths, e);
      if (cycle == null) {
        continue;
      }
      if (found.size() >= max || budget-- <= 0) {
        truncated = true;
        break;
      }
      record(toSteps(level, g, cycle, skewMicros));
    }
    return true;
  }

  /** Graph edges of a shortest cycle containing table edge e in this level's graph, or null. */
  private int[] shortestCycleThrough(
      final Level level, final Digraph g, final StronglyConnected scc, final ShortestPaths paths, final int e) {
    final int u = edges.from(e);
    final int v = edges.to(e);
    if (level == Level.SI) {
      if (edges.kind(e) == EdgeKind.RW) {
        return closeCycle(g, scc, paths, n + u, v, e);
      }
      final int[] direct = closeCycle(g, scc, paths, u, v, e);
      final int[] viaMid = closeCycle(g, scc, paths, u, n + v, e);
      if (direct == null) {
        return viaMid;
      }
      return viaMid == null || direct.length <= viaMid.length ? direct : viaMid;
    }
    return closeCycle(g, scc, paths, u, v, e);
  }

  private static int[] closeCycle(
      final Digraph g, final StronglyConnected scc, final ShortestPaths paths, final int from, final int to,
      final int label) {
    if (!scc.onCycle(from) || scc.component(from) != scc.component(to)) {
      return null;
    }
    int graphEdge = -1;
    for (int x = g.firstEdge(from); x < g.endEdge(from); x++) {
      if (g.target(x) == to && g.label(x) == label) {
        graphEdge = x;
        break;
      }
    }
    if (graphEdge < 0) {
      return null;
    }
    final int[] back = paths.path(to, from);
    if (back == null) {
      return null;
    }
    final int[] cycle = new int[back.length + 1];
    cycle[0] = graphEdge;
    System.arraycopy(back, 0, cycle, 1, back.length);
    return cycle;
  }

  /** Turns graph edges into transaction-level steps, collapsing real-time chains into RT steps. */
  private List<CycleStep> toSteps(final Level level, final Digraph g, final int[] cycle, final long skewMicros) {
    final List<CycleStep> steps = new ArrayList<>(cycle.length);
    // The first edge is always a table edge; only the SSER graph has unlabeled (chain) edges.
    int current = edges.from(g.label(cycle[0]));
    int rtStart = -1;
    for (final int ge : cycle) {
      final int label = g.label(ge);
      final int target = g.target(ge);
      if (label >= 0) {
        steps.add(step(level, g, edges.from(label), edges.to(label), skewMicros));
        current = edges.to(label);
      } else if (target >= n) {
        if (rtStart < 0) {
          rtStart = current;
        }
      } else {
        steps.add(step(level, g, rtStart, target, skewMicros));
        current = target;
        rtStart = -1;
      }
    }
    return steps;
  }

  /**
   * Every dependency from u to v, read off this level's graph (so no second copy of the edges is
   * needed), with session order and real time where they hold transitively.
   */
  private CycleStep step(final Level level, final Digraph g, final int u, final int v, final long skewMicros) {
    final IntList ids = new IntList(4);
    if (level == Level.SI) {
      collect(g, u, v, ids);
      collect(g, u, n + v, ids);
      collect(g, n + u, v, ids);
    } else {
      collect(g, u, v, ids);
    }
    int mask = 0;
    for (int i = 0; i < ids.size(); i++) {
      mask |= 1 << edges.kind(ids.get(i)).ordinal();
    }
    // Session order is a total order per session (MTC Definition 2), so it holds between any
    // two transactions of one session, not only neighbours; canonical indices keep session order.
    if (u != IndexedHistory.INIT && dg.h.sessionOf[u] == dg.h.sessionOf[v] && u < v) {
      mask |= CycleStep.SO;
    }
    if (u != IndexedHistory.INIT && RealTime.precedes(dg.h.txns[u], dg.h.txns[v], skewMicros)) {
      mask |= CycleStep.RT;
    }
    return new CycleStep(u, v, mask, ids.toArray());
  }

  /** Adds the table edges from graph node {@code from} to node {@code to}, once each. */
  private static void collect(final Digraph g, final int from, final int to, final IntList ids) {
    for (int x = g.firstEdge(from); x < g.endEdge(from); x++) {
      final int label = g.label(x);
      if (g.target(x) == to && label >= 0 && !contains(ids, label)) {
        ids.add(label);
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

  private void record(final List<CycleStep> steps) {
    if (isDivergencePair(steps)) {
      coverAll(steps);
      return;
    }
    final String signature = signature(steps);
    if (seen.add(signature)) {
      found.add(steps);
    }
    coverAll(steps);
  }

  private void coverAll(final List<CycleStep> steps) {
    for (final CycleStep s : steps) {
      for (final int id : s.edgeIds()) {
        covered[id] = true;
      }
    }
  }

  /** Two transactions that overwrote the same version: already reported as a LostUpdate. */
  private boolean isDivergencePair(final List<CycleStep> steps) {
    return steps.size() == 2 && steps.get(0).rwOnly() && steps.get(1).rwOnly()
        && divergencePairs.contains(pair(steps.get(0).from(), steps.get(0).to()));
  }

  private static long pair(final int a, final int b) {
    return ((long) Math.min(a, b) << 32) | Math.max(a, b);
  }

  /** The cycle's transactions, rotated to start at the smallest, so rotations compare equal. */
  private static String signature(final List<CycleStep> steps) {
    final int[] nodes = steps.stream().mapToInt(CycleStep::from).toArray();
    int start = 0;
    for (int i = 1; i < nodes.length; i++) {
      if (nodes[i] < nodes[start]) {
        start = i;
      }
    }
    final int[] rotated = new int[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      rotated[i] = nodes[(start + i) % nodes.length];
    }
    return Arrays.toString(rotated);
  }
}
