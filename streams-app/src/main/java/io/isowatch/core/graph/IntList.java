package io.isowatch.core.graph;

import java.util.Arrays;

/** A growable list of primitive ints: graphs with millions of edges cannot afford boxing. */
public final class IntList {
  private int[] items;
  private int size;

  public IntList() {
    this(16);
  }

  public IntList(final int capacity) {
    items = new int[Math.max(4, capacity)];
  }

  public void add(final int v) {
    if (size == items.length) {
      items = Arrays.copyOf(items, items.length + (items.length >> 1) + 1);
    }
    items[size++] = v;
  }

  public int get(final int i) {
    return items[i];
  }

  public void set(final int i, final int v) {
    items[i] = v;
  }

  public int size() {
    return size;
  }

  public void clear() {
    size = 0;
  }

  public int[] toArray() {
    return Arrays.copyOf(items, size);
  }
}
