package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;
import java.util.Arrays;

/**
 * Lists of ints per int key, as linked entries in primitive arrays; a list is walked with {@link
 * #first} and {@link #next} and holds its entries in the order they were added.
 */
final class IntMultimap {
  private static final int NONE = -1;

  private int[] head;
  private int[] tail;
  private final IntList next;
  private final IntList value;

  IntMultimap(final int expected) {
    final int n = Math.max(1 << 10, expected);
    head = new int[n];
    tail = new int[n];
    next = new IntList(n);
    value = new IntList(n);
    Arrays.fill(head, NONE);
    Arrays.fill(tail, NONE);
  }

  void add(final int key, final int v) {
    ensure(key);
    final int e = value.size();
    value.add(v);
    next.add(NONE);
    if (head[key] == NONE) {
      head[key] = e;
    } else {
      next.set(tail[key], e);
    }
    tail[key] = e;
  }

  /** First entry of the key's list, or -1. */
  int first(final int key) {
    return key < head.length ? head[key] : NONE;
  }

  /** The entry after e, or -1. */
  int next(final int e) {
    return next.get(e);
  }

  int value(final int e) {
    return value.get(e);
  }

  boolean contains(final int key, final int v) {
    for (int e = first(key); e != NONE; e = next(e)) {
      if (value(e) == v) {
        return true;
      }
    }
    return false;
  }

  private void ensure(final int key) {
    if (key >= head.length) {
      final int old = head.length;
      final int n = Math.max(key + 1, 2 * old);
      head = Arrays.copyOf(head, n);
      tail = Arrays.copyOf(tail, n);
      Arrays.fill(head, old, n, NONE);
      Arrays.fill(tail, old, n, NONE);
    }
  }
}
