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

  /** Inserts v at index i, shifting the tail. */
  public void insert(final int i, final int v) {
    add(0);
    System.arraycopy(items, i, items, i + 1, size - 1 - i);
    items[i] = v;
  }

  /** Removes and returns the last element. */
  public int removeLast() {
    return items[--size];
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
