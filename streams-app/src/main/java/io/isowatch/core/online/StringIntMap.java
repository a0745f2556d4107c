package io.isowatch.core.online;

import java.util.Arrays;

/** An open-addressing map from strings to non-negative ints (transaction ids to slots). */
final class StringIntMap {
  private String[] keys;
  private int[] ids;
  private int size;
  private int mask;

  StringIntMap(final int expected) {
    int cap = 16;
    while (cap < expected + (expected >> 1)) {
      cap <<= 1;
    }
    keys = new String[cap];
    ids = new int[cap];
    mask = cap - 1;
  }

  /** The id stored for the string, or -1. */
  int get(final String key) {
    int slot = spread(key.hashCode()) & mask;
    while (true) {
      final String k = keys[slot];
      if (k == null) {
        return -1;
      }
      if (k.equals(key)) {
        return ids[slot];
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Stores a new mapping; the key must be absent. */
  void putNew(final String key, final int id) {
    if (2 * (size + 1) > keys.length) {
      rehash();
    }
    int slot = spread(key.hashCode()) & mask;
    while (keys[slot] != null) {
      slot = (slot + 1) & mask;
    }
    keys[slot] = key;
    ids[slot] = id;
    size++;
  }

  int size() {
    return size;
  }

  private void rehash() {
    final String[] oldKeys = keys;
    final int[] oldIds = ids;
    keys = new String[2 * oldKeys.length];
    ids = new int[keys.length];
    mask = keys.length - 1;
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != null) {
        putNew(oldKeys[i], oldIds[i]);
      }
    }
    Arrays.fill(oldKeys, null);
  }

  private static int spread(final int h) {
    return h ^ (h >>> 16) ^ (h * 0x9E3779B9);
  }
}
