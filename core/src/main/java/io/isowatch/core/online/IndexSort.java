package io.isowatch.core.online;

/** A stable merge sort of int indices under a primitive comparator (no boxing). */
final class IndexSort {
  /** Compares two indices. */
  @FunctionalInterface
  interface IntComparator {
    int compare(int a, int b);
  }

  private static final int INSERTION = 16;

  private IndexSort() {}

  /** Sorts {@code idx[0..n)}; already sorted input costs one comparison per element. */
  static void sort(final int[] idx, final int n, final IntComparator cmp) {
    sort(idx, 0, n, cmp);
  }

  /** Sorts {@code idx[from..to)}. */
  static void sort(final int[] idx, final int from, final int to, final IntComparator cmp) {
    if (to - from < 2) {
      return;
    }
    boolean sorted = true;
    for (int i = from + 1; i < to && sorted; i++) {
      sorted = cmp.compare(idx[i - 1], idx[i]) <= 0;
    }
    if (sorted) {
      return;
    }
    if (to - from <= INSERTION) {
      mergeSort(idx, null, from, to, cmp);
      return;
    }
    final int[] part = java.util.Arrays.copyOfRange(idx, from, to);
    mergeSort(part, new int[part.length], 0, part.length, cmp);
    System.arraycopy(part, 0, idx, from, part.length);
  }

  private static void mergeSort(final int[] a, final int[] tmp, final int lo, final int hi, final IntComparator cmp) {
    if (hi - lo <= INSERTION) {
      for (int i = lo + 1; i < hi; i++) {
        final int v = a[i];
        int j = i - 1;
        while (j >= lo && cmp.compare(a[j], v) > 0) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = v;
      }
      return;
    }
    final int mid = (lo + hi) >>> 1;
    mergeSort(a, tmp, lo, mid, cmp);
    mergeSort(a, tmp, mid, hi, cmp);
    if (cmp.compare(a[mid - 1], a[mid]) <= 0) {
      return;
    }
    System.arraycopy(a, lo, tmp, lo, hi - lo);
    int i = lo;
    int j = mid;
    for (int k = lo; k < hi; k++) {
      if (j >= hi || (i < mid && cmp.compare(tmp[i], tmp[j]) <= 0)) {
        a[k] = tmp[i++];
      } else {
        a[k] = tmp[j++];
      }
    }
  }
}
