package io.isowatch.core.check;

import java.util.Arrays;

/** A growable list of arcs (from, to) between nodes 0..n, and a topological sort over such lists. */
final class IntArcs {
  static final IntArcs EMPTY = new IntArcs();
  private static final int INIT = WeakIndex.INIT;
  int[] from = new int[16];
  int[] to = new int[16];
  int size;

  void add(final int f, final int t) {
    if (size == from.length) {
      from = Arrays.copyOf(from, size * 2);
      to = Arrays.copyOf(to, size * 2);
    }
    from[size] = f;
    to[size++] = t;
  }

  /**
   * A topological order of nodes 1..n under the first m arcs (from, to) and {@code more}, or null
   * when they have a cycle (an arc into the initial transaction is one).
   */
  static int[] order(final int n, final int[] from, final int[] to, final int m, final IntArcs more) {
    final int[] first = new int[n + 2];
    final int[] indeg = new int[n + 1];
    for (int i = 0; i < m; i++) {
      first[from[i] + 1]++;
      indeg[to[i]]++;
    }
    for (int i = 0; i < more.size; i++) {
      first[more.from[i] + 1]++;
      indeg[more.to[i]]++;
    }
    if (indeg[INIT] > 0) {
      return null;
    }
    for (int i = 0; i <= n; i++) {
      first[i + 1] += first[i];
    }
    final int[] fill = Arrays.copyOf(first, n + 1);
    final int[] succ = new int[m + more.size];
    for (int i = 0; i < m; i++) {
      succ[fill[from[i]]++] = to[i];
    }
    for (int i = 0; i < more.size; i++) {
      succ[fill[more.from[i]]++] = more.to[i];
    }
    final int[] out = new int[n];
    int k = 0;
    for (int i = 1; i <= n; i++) {
      if (indeg[i] == 0) {
        out[k++] = i;
      }
    }
    for (int head = 0; head < k; head++) {
      final int v = out[head];
      for (int j = first[v]; j < first[v + 1]; j++) {
        if (--indeg[succ[j]] == 0) {
          out[k++] = succ[j];
        }
      }
    }
    return k == n ? out : null;
  }

  static void prefixSums(final int[] a) {
    for (int i = 0; i + 1 < a.length; i++) {
      a[i + 1] += a[i];
    }
  }
}
