package io.isowatch.core.check;

import io.isowatch.core.check.WeakGraph.Arc;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Cycles and topological orders of a set of arcs over nodes 0..n (node 0 the initial transaction). */
final class ArcCycles {
  private ArcCycles() {}

  /**
   * A cycle of {@code arcs}, as arcs in order, or null when they are acyclic. An arc into the
   * initial transaction is a cycle by itself: the initial transaction precedes every other.
   */
  static List<Arc> cycle(final List<Arc> arcs, final int n) {
    for (final Arc a : arcs) {
      if (a.to() == WeakGraph.INIT) {
        return List.of(a);
      }
    }
    final List<List<Arc>> out = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      out.add(new ArrayList<>());
    }
    for (final Arc a : arcs) {
      out.get(a.from()).add(a);
    }
    final int[] color = new int[n + 1];
    final Arc[] via = new Arc[n + 1];
    for (int s = 1; s <= n; s++) {
      if (color[s] != 0) {
        continue;
      }
      // Iterative DFS: 1 = on the stack, 2 = done.
      final ArrayDeque<int[]> stack = new ArrayDeque<>();
      stack.push(new int[] {s, 0});
      color[s] = 1;
      while (!stack.isEmpty()) {
        final int[] top = stack.peek();
        final List<Arc> edges = out.get(top[0]);
        if (top[1] == edges.size()) {
          color[top[0]] = 2;
          stack.pop();
          continue;
        }
        final Arc a = edges.get(top[1]++);
        if (color[a.to()] == 1) {
          final List<Arc> cyc = new ArrayList<>();
          cyc.add(a);
          for (int v = a.from(); v != a.to(); v = via[v].from()) {
            cyc.add(0, via[v]);
          }
          return cyc;
        }
        if (color[a.to()] == 0) {
          color[a.to()] = 1;
          via[a.to()] = a;
          stack.push(new int[] {a.to(), 0});
        }
      }
    }
    return null;
  }

  /** Nodes 1..n in an order that follows every arc (those on a cycle are left out). */
  static int[] topological(final List<Arc> arcs, final int n) {
    final int[] indeg = new int[n + 1];
    final List<List<Integer>> succ = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      succ.add(new ArrayList<>());
    }
    for (final Arc a : arcs) {
      succ.get(a.from()).add(a.to());
      indeg[a.to()]++;
    }
    final ArrayDeque<Integer> ready = new ArrayDeque<>();
    for (int i = 1; i <= n; i++) {
      if (indeg[i] == 0) {
        ready.add(i);
      }
    }
    final int[] order = new int[n];
    int k = 0;
    while (!ready.isEmpty()) {
      final int v = ready.poll();
      order[k++] = v;
      for (final int w : succ.get(v)) {
        if (--indeg[w] == 0) {
          ready.add(w);
        }
      }
    }
    return Arrays.copyOf(order, k);
  }
}
