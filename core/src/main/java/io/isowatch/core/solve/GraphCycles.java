package io.isowatch.core.solve;

import io.isowatch.core.graph.IntList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Cycles of one candidate graph, for SER (any cycle of the edges) or SI (a cycle of (SO ∪ WR ∪ WW
 * ∪ RT) ; RW?, i.e. one in which no two RW edges are adjacent). Each cycle is returned as the list
 * of the underlying edges, in order, so that its literals can be blocked.
 *
 * <p>Strongly connected components first (Tarjan, iterative), then for each component a few
 * shortest cycles through edges that depend on a choice, found by breadth-first search inside the
 * component; a component whose edges are all certain yields one cycle and the search stops, since
 * that cycle holds in every version order.
 */
final class GraphCycles {
  /** A cycle: its underlying edges in order, and whether all of them are certain. */
  record Cycle(int[] edges, boolean certain) {}

  private final int nodes;
  // The composed graph: each arc stands for one underlying edge (e2 = -1) or two (a D edge then an RW edge).
  private int arcs;
  private int[] arcFrom;
  private int[] arcTo;
  private int[] arcE1;
  private int[] arcE2;
  private int[] start;
  private int[] order;

  private GraphCycles(final int nodes) {
    this.nodes = nodes;
  }

  /** Up to {@code max} cycles of the graph for the level (SI when {@code si}, else SER/SSER). */
  static List<Cycle> find(final EdgeList g, final int nodes, final boolean si, final int max, final boolean onlyChoices) {
    final GraphCycles c = new GraphCycles(nodes);
    c.arcs(g, si);
    return c.cycles(g, max, onlyChoices);
  }

  /**
   * Cycles blocked per strongly connected component and round: enough to steer the solver, few
   * enough to stay cheap (one breadth-first search each, within the component).
   */
  private static final int PER_COMPONENT = 64;

  private void arcs(final EdgeList g, final boolean si) {
    int count = 0;
    int[] rwStart = null;
    int[] rwList = null;
    if (si) {
      rwStart = new int[nodes + 1];
      for (int e = 0; e < g.size; e++) {
        if (g.isRw(e)) {
          rwStart[g.from[e] + 1]++;
        }
      }
      for (int v = 0; v < nodes; v++) {
        rwStart[v + 1] += rwStart[v];
      }
      rwList = new int[rwStart[nodes]];
      final int[] fill = Arrays.copyOf(rwStart, nodes);
      for (int e = 0; e < g.size; e++) {
        if (g.isRw(e)) {
          rwList[fill[g.from[e]]++] = e;
        }
      }
      for (int e = 0; e < g.size; e++) {
        if (!g.isRw(e)) {
          count += 1 + rwStart[g.to[e] + 1] - rwStart[g.to[e]];
        }
      }
    } else {
      count = g.size;
    }
    arcFrom = new int[count];
    arcTo = new int[count];
    arcE1 = new int[count];
    arcE2 = new int[count];
    for (int e = 0; e < g.size; e++) {
      if (!si) {
        put(g.from[e], g.to[e], e, -1);
      } else if (!g.isRw(e)) {
        put(g.from[e], g.to[e], e, -1);
        final int y = g.to[e];
        for (int j = rwStart[y]; j < rwStart[y + 1]; j++) {
          put(g.from[e], g.to[rwList[j]], e, rwList[j]);
        }
      }
    }
    start = new int[nodes + 1];
    for (int a = 0; a < arcs; a++) {
      start[arcFrom[a] + 1]++;
    }
    for (int v = 0; v < nodes; v++) {
      start[v + 1] += start[v];
    }
    order = new int[arcs];
    final int[] fill = Arrays.copyOf(start, nodes);
    for (int a = 0; a < arcs; a++) {
      order[fill[arcFrom[a]]++] = a;
    }
  }

  private void put(final int f, final int t, final int e1, final int e2) {
    arcFrom[arcs] = f;
    arcTo[arcs] = t;
    arcE1[arcs] = e1;
    arcE2[arcs] = e2;
    arcs++;
  }

  private boolean choice(final EdgeList g, final int a) {
    return g.literal[arcE1[a]] != 0 || arcE2[a] >= 0 && g.literal[arcE2[a]] != 0;
  }

  private List<Cycle> cycles(final EdgeList g, final int max, final boolean onlyChoices) {
    final int[] comp = components();
    final List<Cycle> out = new ArrayList<>();
    final int[] perComp = new int[nodes];
    final int[] dist = new int[nodes];
    final int[] via = new int[nodes];
    Arrays.fill(dist, -1);
    final IntList touched = new IntList(64);
    final IntList queue = new IntList(64);
    for (int a = 0; a < arcs && out.size() < max; a++) {
      final int f = arcFrom[a];
      final int t = arcTo[a];
      if (comp[f] != comp[t]) {
        continue;
      }
      // Once the certain edges are known to be acyclic, every cycle passes through a choice.
      if (onlyChoices && !choice(g, a) || perComp[comp[f]] >= PER_COMPONENT) {
        continue;
      }
      // Shortest path t ⇝ f inside the component.
      queue.clear();
      queue.add(t);
      dist[t] = 0;
      touched.add(t);
      boolean found = f == t;
      for (int qi = 0; qi < queue.size() && !found; qi++) {
        final int x = queue.get(qi);
        for (int j = start[x]; j < start[x + 1]; j++) {
          final int b = order[j];
          final int y = arcTo[b];
          if (comp[y] == comp[f] && dist[y] < 0) {
            dist[y] = dist[x] + 1;
            via[y] = b;
            touched.add(y);
            queue.add(y);
            if (y == f) {
              found = true;
              break;
            }
          }
        }
      }
      if (found) {
        final IntList path = new IntList(8);
        int y = f;
        while (y != t) {
          path.add(via[y]);
          y = arcFrom[via[y]];
        }
        final IntList edges = new IntList(8);
        boolean certain = true;
        for (final int arc : concat(a, path)) {
          edges.add(arcE1[arc]);
          certain &= g.literal[arcE1[arc]] == 0;
          if (arcE2[arc] >= 0) {
            edges.add(arcE2[arc]);
            certain &= g.literal[arcE2[arc]] == 0;
          }
        }
        out.add(new Cycle(edges.toArray(), certain));
        perComp[comp[f]]++;
        if (certain) {
          return out.subList(out.size() - 1, out.size());
        }
      }
      for (int j = 0; j < touched.size(); j++) {
        dist[touched.get(j)] = -1;
      }
      touched.clear();
    }
    return out;
  }

  private static int[] concat(final int first, final IntList reversedPath) {
    final int[] out = new int[reversedPath.size() + 1];
    out[0] = first;
    for (int j = 0; j < reversedPath.size(); j++) {
      out[j + 1] = reversedPath.get(reversedPath.size() - 1 - j);
    }
    return out;
  }

  /** Tarjan's strongly connected components, iteratively; singletons without a self-loop get unique ids too. */
  private int[] components() {
    final int[] index = new int[nodes];
    final int[] low = new int[nodes];
    final int[] comp = new int[nodes];
    final boolean[] onStack = new boolean[nodes];
    final int[] next = new int[nodes];
    Arrays.fill(index, -1);
    final IntList stack = new IntList(64);
    final IntList call = new IntList(64);
    int counter = 0;
    int comps = 0;
    for (int root = 0; root < nodes; root++) {
      if (index[root] >= 0) {
        continue;
      }
      call.add(root);
      index[root] = low[root] = counter++;
      next[root] = start[root];
      stack.add(root);
      onStack[root] = true;
      while (call.size() > 0) {
        final int v = call.get(call.size() - 1);
        if (next[v] < start[v + 1]) {
          final int w = arcTo[order[next[v]++]];
          if (index[w] < 0) {
            index[w] = low[w] = counter++;
            next[w] = start[w];
            stack.add(w);
            onStack[w] = true;
            call.add(w);
          } else if (onStack[w]) {
            low[v] = Math.min(low[v], index[w]);
          }
        } else {
          call.removeLast();
          if (call.size() > 0) {
            final int u = call.get(call.size() - 1);
            low[u] = Math.min(low[u], low[v]);
          }
          if (low[v] == index[v]) {
            int w;
            do {
              w = stack.removeLast();
              onStack[w] = false;
              comp[w] = comps;
            } while (w != v);
            comps++;
          }
        }
      }
    }
    return comp;
  }
}
