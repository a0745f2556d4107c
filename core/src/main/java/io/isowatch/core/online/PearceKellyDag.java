package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;
import java.util.Arrays;

/**
 * A directed acyclic graph that keeps a topological order while edges are added (Pearce and
 * Kelly, "A dynamic topological sort algorithm for directed acyclic graphs", JEA 2006), on
 * primitive arrays. Each node has an order index {@code ord}; an edge u→v with ord(u) < ord(v)
 * is added in O(1). Otherwise only the affected region, the nodes whose ord lies between ord(v)
 * and ord(u), is searched: forward from v and backward from u, and those nodes' ords are
 * permuted among themselves. If v reaches u the edge would close a cycle: it is not added, and
 * the shortest path v ⇝ u (by edge weight, 0 or 1) is kept, found by a breadth-first search that
 * never leaves the affected region (every path from v to u lies in it).
 *
 * <p>Edges carry an int label and a weight. Nodes are dense ints, added on first use.
 */
final class PearceKellyDag {
  private static final int NONE = -1;

  private int[] ord = new int[0];
  private int[] outHead = new int[0];
  private int[] inHead = new int[0];
  private int[] mark = new int[0];
  private int[] dist = new int[0];
  private int[] parentEdge = new int[0];
  private int nextOrd;
  private int epoch;

  private final IntList from;
  private final IntList to;
  private final IntList label;
  private final IntList nextOut;
  private final IntList nextIn;
  private byte[] weight;

  // Scratch of the searches, reused.
  private int[] deque = new int[64];
  private final IntList forward = new IntList(64);
  private final IntList backward = new IntList(64);
  private long[] sortScratch = new long[64];
  private int[] ordPool = new int[64];

  private int[] lastCycle;
  private long visited;
  private int lastVisited;

  PearceKellyDag() {
    this(64, 1 << 10);
  }

  /** A graph expected to grow to about that many nodes and edges (sizes its arrays up front). */
  PearceKellyDag(final int expectedNodes, final int expectedEdges) {
    grow(Math.max(64, expectedNodes));
    final int edges = Math.max(1 << 10, expectedEdges);
    from = new IntList(edges);
    to = new IntList(edges);
    label = new IntList(edges);
    nextOut = new IntList(edges);
    nextIn = new IntList(edges);
    weight = new byte[edges];
  }

  /** Adds the node (with the largest ord so far) unless it exists. */
  void ensureNode(final int n) {
    if (n >= ord.length) {
      grow(n + 1);
    }
    if (ord[n] == NONE) {
      ord[n] = nextOrd++;
    }
  }

  int ord(final int n) {
    return ord[n];
  }

  /**
   * Adds u→v unless it would close a cycle. Returns the new edge's index, or -1 when v reaches u:
   * then {@link #lastCycle()} is the shortest path v ⇝ u and the graph is unchanged.
   */
  int insert(final int u, final int v, final int edgeLabel, final int edgeWeight) {
    if (u == v) {
      lastCycle = new int[0];
      return NONE;
    }
    final int lb = ord[v];
    final int ub = ord[u];
    if (lb > ub) {
      lastVisited = 0;
      return link(u, v, edgeLabel, edgeWeight);
    }
    if (searchForward(v, u, ub)) {
      lastCycle = pathTo(v, u);
      return NONE;
    }
    searchBackward(u, lb);
    reorder();
    return link(u, v, edgeLabel, edgeWeight);
  }

  /** The shortest path v ⇝ u if u→v would close a cycle, else null; the graph is unchanged. */
  int[] cycleThrough(final int u, final int v) {
    if (u == v) {
      return new int[0];
    }
    final int ub = ord[u];
    if (ord[v] > ub) {
      return null;
    }
    return searchForward(v, u, ub) ? pathTo(v, u) : null;
  }

  /** The path v ⇝ u found by the last refused {@link #insert}. */
  int[] lastCycle() {
    return lastCycle;
  }

  /** Removes the most recently added edge (undo); the order stays topological. */
  void removeLast(final int e) {
    if (e != from.size() - 1 || outHead[from.get(e)] != e || inHead[to.get(e)] != e) {
      throw new IllegalStateException("edge " + e + " is not the last one added");
    }
    outHead[from.get(e)] = nextOut.get(e);
    inHead[to.get(e)] = nextIn.get(e);
    from.removeLast();
    to.removeLast();
    label.removeLast();
    nextOut.removeLast();
    nextIn.removeLast();
  }

  int firstOut(final int n) {
    return n < outHead.length ? outHead[n] : NONE;
  }

  int nextOut(final int e) {
    return nextOut.get(e);
  }

  int source(final int e) {
    return from.get(e);
  }

  int target(final int e) {
    return to.get(e);
  }

  int label(final int e) {
    return label.get(e);
  }

  int weight(final int e) {
    return weight[e];
  }

  int edgeCount() {
    return from.size();
  }

  /** Nodes visited by all searches so far (forward and backward). */
  long visitedTotal() {
    return visited;
  }

  /** Nodes visited by the last {@link #insert}. */
  int lastVisited() {
    return lastVisited;
  }

  private int link(final int u, final int v, final int edgeLabel, final int edgeWeight) {
    final int e = from.size();
    from.add(u);
    to.add(v);
    label.add(edgeLabel);
    nextOut.add(outHead[u]);
    nextIn.add(inHead[v]);
    if (e == weight.length) {
      weight = Arrays.copyOf(weight, 2 * e);
    }
    weight[e] = (byte) edgeWeight;
    outHead[u] = e;
    inHead[v] = e;
    return e;
  }

  /**
   * 0-1 breadth-first search from {@code start} over nodes with ord below {@code ub}; collects
   * them in {@link #forward}. Returns true when {@code target} (whose ord is ub) is reached; then
   * parents give a shortest path to it.
   */
  private boolean searchForward(final int start, final int target, final int ub) {
    epoch++;
    forward.clear();
    int head = deque.length / 2;
    int tail = head;
    deque[tail++] = start;
    mark[start] = epoch;
    dist[start] = 0;
    parentEdge[start] = NONE;
    forward.add(start);
    boolean found = false;
    while (head < tail) {
      final int x = deque[head++];
      if (x == target) {
        found = true;
        break;
      }
      for (int e = outHead[x]; e != NONE; e = nextOut.get(e)) {
        final int y = to.get(e);
        if (y != target && ord[y] >= ub) {
          continue;
        }
        final int d = dist[x] + weight[e];
        if (mark[y] != epoch || d < dist[y]) {
          if (mark[y] != epoch) {
            mark[y] = epoch;
            if (y != target) {
              forward.add(y);
            }
          }
          dist[y] = d;
          parentEdge[y] = e;
          if (head == 0 || tail == deque.length) {
            final int len = tail - head;
            final int[] bigger = new int[Math.max(deque.length, 4 * (len + 2))];
            final int newHead = (bigger.length - len) / 2;
            System.arraycopy(deque, head, bigger, newHead, len);
            deque = bigger;
            head = newHead;
            tail = newHead + len;
          }
          if (weight[e] == 0) {
            deque[--head] = y;
          } else {
            deque[tail++] = y;
          }
        }
      }
    }
    lastVisited = forward.size();
    visited += forward.size();
    return found;
  }

  /** Backward search from {@code start} over nodes with ord above {@code lb}; into {@link #backward}. */
  private void searchBackward(final int start, final int lb) {
    epoch++;
    backward.clear();
    backward.add(start);
    mark[start] = epoch;
    for (int i = 0; i < backward.size(); i++) {
      final int x = backward.get(i);
      for (int e = inHead[x]; e != NONE; e = nextIn.get(e)) {
        final int y = from.get(e);
        if (mark[y] != epoch && ord[y] > lb) {
          mark[y] = epoch;
          backward.add(y);
        }
      }
    }
    lastVisited += backward.size();
    visited += backward.size();
  }

  /** Gives the backward set the smallest of the affected ords, in their old order, then the forward set. */
  private void reorder() {
    final int nb = backward.size();
    final int nf = forward.size();
    final int total = nb + nf;
    if (sortScratch.length < total) {
      sortScratch = new long[2 * total];
      ordPool = new int[2 * total];
    }
    sortByOrd(backward, nb, 0);
    sortByOrd(forward, nf, nb);
    // Both halves hold (ord << 32 | node), each sorted; the pool is their ords merged.
    int i = 0;
    int j = nb;
    for (int k = 0; k < total; k++) {
      if (j >= total || (i < nb && sortScratch[i] < sortScratch[j])) {
        ordPool[k] = (int) (sortScratch[i++] >>> 32);
      } else {
        ordPool[k] = (int) (sortScratch[j++] >>> 32);
      }
    }
    for (int k = 0; k < total; k++) {
      ord[(int) sortScratch[k]] = ordPool[k];
    }
  }

  private void sortByOrd(final IntList nodes, final int n, final int offset) {
    for (int i = 0; i < n; i++) {
      final int node = nodes.get(i);
      sortScratch[offset + i] = ((long) ord[node] << 32) | node;
    }
    Arrays.sort(sortScratch, offset, offset + n);
  }

  private int[] pathTo(final int start, final int target) {
    final IntList edges = new IntList(8);
    for (int x = target; x != start; x = from.get(parentEdge[x])) {
      edges.add(parentEdge[x]);
    }
    final int[] path = new int[edges.size()];
    for (int i = 0; i < path.length; i++) {
      path[i] = edges.get(path.length - 1 - i);
    }
    return path;
  }

  private void grow(final int min) {
    final int old = ord.length;
    final int n = Math.max(min, Math.max(64, 2 * old));
    ord = Arrays.copyOf(ord, n);
    outHead = Arrays.copyOf(outHead, n);
    inHead = Arrays.copyOf(inHead, n);
    mark = Arrays.copyOf(mark, n);
    dist = Arrays.copyOf(dist, n);
    parentEdge = Arrays.copyOf(parentEdge, n);
    Arrays.fill(ord, old, n, NONE);
    Arrays.fill(outHead, old, n, NONE);
    Arrays.fill(inHead, old, n, NONE);
  }
}
