package io.isowatch.core.online;

import java.util.Arrays;

/**
 * An open-addressing map from a (key id, value) pair to a non-negative int, on primitive arrays:
 * the engine looks up millions of written and read values, and boxing them would dominate.
 */
final class KeyValueTable {
  private static final int EMPTY = -1;

  private long[] values;
  private int[] keys;
  private int[] ids;
  private int size;
  private int mask;

  KeyValueTable(final int expected) {
    int cap = 16;
    while (cap < expected + (expected >> 1)) {
      cap <<= 1;
    }
    allocate(cap);
  }

  private void allocate(final int cap) {
    values = new long[cap];
    keys = new int[cap];
    ids = new int[cap];
    Arrays.fill(ids, EMPTY);
    mask = cap - 1;
  }

  /** The id stored for (key, value), or -1. */
  int get(final int key, final long value) {
    int slot = hash(key, value) & mask;
    while (true) {
      final int id = ids[slot];
      if (id == EMPTY) {
        return -1;
      }
      if (keys[slot] == key && values[slot] == value) {
        return id;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Stores id for (key, value), replacing any previous id. */
  void put(final int key, final long value, final int id) {
    if (2 * (size + 1) > ids.length) {
      rehash();
    }
    int slot = hash(key, value) & mask;
    while (ids[slot] != EMPTY) {
      if (keys[slot] == key && values[slot] == value) {
        ids[slot] = id;
        return;
      }
      slot = (slot + 1) & mask;
    }
    keys[slot] = key;
    values[slot] = value;
    ids[slot] = id;
    size++;
  }

  int size() {
    return size;
  }

  private void rehash() {
    final long[] oldValues = values;
    final int[] oldKeys = keys;
    final int[] oldIds = ids;
    allocate(2 * oldIds.length);
    size = 0;
    for (int i = 0; i < oldIds.length; i++) {
      if (oldIds[i] != EMPTY) {
        put(oldKeys[i], oldValues[i], oldIds[i]);
      }
    }
  }

  private static int hash(final int key, final long value) {
    long h = value * 0x9E3779B97F4A7C15L + key * 0xC2B2AE3D27D4EB4FL;
    h ^= h >>> 29;
    return (int) h ^ (int) (h >>> 32);
  }
}
