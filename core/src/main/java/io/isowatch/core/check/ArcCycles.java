package io.isowatch.core.check;

import io.isowatch.core.check.WeakGraph.Arc;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
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
    // Out-arcs as arrays indexed by node (counting sort, arcs kept in list order): no list per node.
    final int[] first = new int[n + 2];
    for (final Arc a : arcs) {
      first[a.from() + 1]++;
    }
    for (int i = 0; i <= n; i++) {
      first[i + 1] += first[i];
    }
    final int[] fill = Arrays.copyOf(first, n + 1);
    final Arc[] out = new Arc[arcs.size()];
    for (final Arc a : arcs) {
      out[fill[a.from()]++] = a;
    }
    final byte[] color = new byte[n + 1];
    final Arc[] via = new Arc[n + 1];
    // Iterative DFS: 1 = on the stack, 2 = done; next[v] is v's next out-arc to try.
    final int[] stack = new int[n + 1];
    final int[] next = new int[n + 1];
    for (int s = 1; s <= n; s++) {
      if (color[s] != 0) {
        continue;
      }
      int depth = 0;
      stack[depth++] = s;
      next[s] = first[s];
      color[s] = 1;
      while (depth > 0) {
        final int top = stack[depth - 1];
        if (next[top] == first[top + 1]) {
          color[top] = 2;
          depth--;
          continue;
        }
        final Arc a = out[next[top]++];
        if (color[a.to()] == 1) {
          final List<Arc> cyc = new ArrayList<>();
          cyc.add(a);
          for (int v = a.from(); v != a.to(); v = via[v].from()) {
            cyc.add(via[v]);
          }
          Collections.reverse(cyc.subList(1, cyc.size()));
          cyc.add(cyc.remove(0));
          return cyc;
        }
        if (color[a.to()] == 0) {
          color[a.to()] = 1;
          via[a.to()] = a;
          next[a.to()] = first[a.to()];
          stack[depth++] = a.to();
        }
      }
    }
    return null;
  }

  /** Nodes 1..n in an order that follows every arc (those on a cycle are left out). */
  static int[] topological(final List<Arc> arcs, final int n) {
    final int[] indeg = new int[n + 1];
    final int[] first = new int[n + 2];
    for (final Arc a : arcs) {
      first[a.from() + 1]++;
      indeg[a.to()]++;
    }
    for (int i = 0; i <= n; i++) {
      first[i + 1] += first[i];
    }
    final int[] fill = Arrays.copyOf(first, n + 1);
    final int[] succ = new int[arcs.size()];
    for (final Arc a : arcs) {
      succ[fill[a.from()]++] = a.to();
    }
    // A FIFO queue in an array: each node enters it once.
    final int[] order = new int[n];
    int k = 0;
    for (int i = 1; i <= n; i++) {
      if (indeg[i] == 0) {
        order[k++] = i;
      }
    }
    for (int head = 0; head < k; head++) {
      final int v = order[head];
      for (int j = first[v]; j < first[v + 1]; j++) {
        if (--indeg[succ[j]] == 0) {
          order[k++] = succ[j];
        }
      }
    }
    return Arrays.copyOf(order, k);
  }
}
