package io.isowatch.core.graph;

/**
 * Strongly connected components by Tarjan's algorithm, iterative so that paths of millions of
 * transactions cannot overflow the stack. A node lies on a cycle iff its component has more than
 * one node or it has a self-loop.
 */
public final class StronglyConnected {
  private final int[] component;
  private final int[] componentSize;
  private final boolean[] selfLoop;

  private StronglyConnected(final int[] component, final int[] componentSize, final boolean[] selfLoop) {
    this.component = component;
    this.componentSize = componentSize;
    this.selfLoop = selfLoop;
  }

  public int component(final int node) {
    return component[node];
  }

  /** True when {@code node} lies on some cycle. */
  public boolean onCycle(final int node) {
    return componentSize[component[node]] > 1 || selfLoop[node];
  }

  /** True when the graph has at least one cycle. */
  public boolean hasCycle() {
    for (int node = 0; node < component.length; node++) {
      if (onCycle(node)) {
        return true;
      }
    }
    return false;
  }

  public static StronglyConnected of(final Digraph g) {
    final int n = g.nodes();
    final int[] index = new int[n];
    final int[] low = new int[n];
    final int[] comp = new int[n];
    final boolean[] onStack = new boolean[n];
    final boolean[] selfLoop = new boolean[n];
    java.util.Arrays.fill(index, -1);
    final int[] stack = new int[n];
    int sp = 0;
    final int[] callNode = new int[n];
    final int[] callEdge = new int[n];
    final IntList sizes = new IntList();
    int nextIndex = 0;
    for (int root = 0; root < n; root++) {
      if (index[root] != -1) {
        continue;
      }
      int depth = 0;
      callNode[0] = root;
      callEdge[0] = g.firstEdge(root);
      index[root] = low[root] = nextIndex++;
      stack[sp++] = root;
      onStack[root] = true;
      while (depth >= 0) {
        final int v = callNode[depth];
        if (callEdge[depth] < g.endEdge(v)) {
          final int w = g.target(callEdge[depth]++);
          if (w == v) {
            selfLoop[v] = true;
          }
          if (index[w] == -1) {
            index[w] = low[w] = nextIndex++;
            stack[sp++] = w;
            onStack[w] = true;
            depth++;
            callNode[depth] = w;
            callEdge[depth] = g.firstEdge(w);
          } else if (onStack[w] && index[w] < low[v]) {
            low[v] = index[w];
          }
          continue;
        }
        if (low[v] == index[v]) {
          final int id = sizes.size();
          int size = 0;
          int w;
          do {
            w = stack[--sp];
            onStack[w] = false;
            comp[w] = id;
            size++;
          } while (w != v);
          sizes.add(size);
        }
        depth--;
        if (depth >= 0) {
          final int parent = callNode[depth];
          if (low[v] < low[parent]) {
            low[parent] = low[v];
          }
        }
      }
    }
    return new StronglyConnected(comp, sizes.toArray(), selfLoop);
  }
}
