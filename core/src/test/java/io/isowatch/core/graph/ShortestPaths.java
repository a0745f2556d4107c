package io.isowatch.core.graph;

import java.util.Arrays;

/**
 * Shortest paths with 0/1 edge weights (a deque-based BFS), restricted to one strongly connected
 * component. Weight-0 edges let encodings such as the real-time chain of time points cost nothing,
 * so a path's length counts only the dependency steps a person reads. Reusable across searches:
 * its arrays are reset lazily via a visit stamp.
 */
public final class ShortestPaths {
  private final Digraph g;
  private final StronglyConnected scc;
  private final int[] dist;
  private final int[] parentEdge;
  private final int[] stamp;
  private final int[] deque;
  private int currentStamp;

  public ShortestPaths(final Digraph g, final StronglyConnected scc) {
    this.g = g;
    this.scc = scc;
    final int n = g.nodes();
    dist = new int[n];
    parentEdge = new int[n];
    stamp = new int[n];
    deque = new int[2 * n + 2];
  }

  /**
   * The edge indices of a shortest path from {@code source} to {@code target} inside their common
   * component, or null when there is none.
   */
  public int[] path(final int source, final int target) {
    if (scc.component(source) != scc.component(target)) {
      return null;
    }
    currentStamp++;
    final int comp = scc.component(source);
    final int mid = deque.length / 2;
    int head = mid;
    int tail = mid;
    deque[tail++] = source;
    visit(source, 0, -1);
    while (head < tail) {
      final int v = deque[head++];
      if (v == target) {
        break;
      }
      for (int e = g.firstEdge(v); e < g.endEdge(v); e++) {
        final int w = g.target(e);
        if (scc.component(w) != comp) {
          continue;
        }
        final int nd = dist[v] + g.weight(e);
        if (stamp[w] != currentStamp || nd < dist[w]) {
          visit(w, nd, e);
          if (g.weight(e) == 0) {
            deque[--head] = w;
          } else {
            deque[tail++] = w;
          }
          if (head == 0 || tail == deque.length) {
            // A node can be pushed more than once in 0-1 BFS; recentre rather than overflow.
            final int len = tail - head;
            final int[] copy = Arrays.copyOfRange(deque, head, tail);
            head = (deque.length - len) / 2;
            System.arraycopy(copy, 0, deque, head, len);
            tail = head + len;
          }
        }
      }
    }
    if (stamp[target] != currentStamp) {
      return null;
    }
    final IntList edges = new IntList();
    int v = target;
    while (v != source) {
      final int e = parentEdge[v];
      edges.add(e);
      v = sourceOf(e);
    }
    final int[] result = edges.toArray();
    for (int i = 0, j = result.length - 1; i < j; i++, j--) {
      final int t = result[i];
      result[i] = result[j];
      result[j] = t;
    }
    return result;
  }

  private void visit(final int node, final int d, final int viaEdge) {
    stamp[node] = currentStamp;
    dist[node] = d;
    parentEdge[node] = viaEdge;
  }

  private int sourceOf(final int edge) {
    // Binary search over the CSR offsets: the source of an edge is not stored separately.
    int lo = 0;
    int hi = g.nodes() - 1;
    while (lo < hi) {
      final int midNode = (lo + hi + 1) >>> 1;
      if (g.firstEdge(midNode) <= edge) {
        lo = midNode;
      } else {
        hi = midNode - 1;
      }
    }
    // Skip nodes with no out-edges that share the same offset.
    while (g.endEdge(lo) <= edge) {
      lo++;
    }
    return lo;
  }
}
