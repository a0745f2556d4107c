package io.isowatch.core.online;

import java.util.Arrays;

/** A growable list of primitive longs. */
final class LongList {
  private long[] items;
  private int size;

  LongList(final int capacity) {
    items = new long[Math.max(4, capacity)];
  }

  void add(final long v) {
    if (size == items.length) {
      items = Arrays.copyOf(items, items.length + (items.length >> 1) + 1);
    }
    items[size++] = v;
  }

  /** Inserts v at index i, shifting the tail. */
  void insert(final int i, final long v) {
    add(0);
    System.arraycopy(items, i, items, i + 1, size - 1 - i);
    items[i] = v;
  }

  long get(final int i) {
    return items[i];
  }

  void set(final int i, final long v) {
    items[i] = v;
  }

  int size() {
    return size;
  }
}
