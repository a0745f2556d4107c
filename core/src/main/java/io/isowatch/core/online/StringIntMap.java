package io.isowatch.core.online;

/**
 * An open-addressing map from strings to non-negative ints (transaction ids to slots). Each slot
 * keeps the string's hash next to its id, so that a probe reads the string only on a hash match.
 */
public final class StringIntMap {
  private String[] keys;
  private long[] hashAndId;
  private int size;
  private int mask;

  public StringIntMap(final int expected) {
    int cap = 16;
    while (cap < 2 * expected) {
      cap <<= 1;
    }
    keys = new String[cap];
    hashAndId = new long[cap];
    mask = cap - 1;
  }

  /** The id stored for the string, or -1. */
  public int get(final String key) {
    final int h = key.hashCode();
    int slot = spread(h) & mask;
    while (true) {
      final long word = hashAndId[slot];
      if (word == 0) {
        return -1;
      }
      if ((int) (word >>> 32) == h && keys[slot].equals(key)) {
        return (int) word - 1;
      }
      slot = (slot + 1) & mask;
    }
  }

  /** Stores a new mapping; the key must be absent. */
  public void putNew(final String key, final int id) {
    if (2 * (size + 1) > keys.length) {
      rehash();
    }
    final int h = key.hashCode();
    int slot = spread(h) & mask;
    while (hashAndId[slot] != 0) {
      slot = (slot + 1) & mask;
    }
    keys[slot] = key;
    hashAndId[slot] = ((long) h << 32) | ((id + 1L) & 0xFFFFFFFFL);
    size++;
  }

  /** Stores the mapping unless the key is present; returns whether it was absent. */
  public boolean putIfAbsent(final String key, final int id) {
    if (get(key) >= 0) {
      return false;
    }
    putNew(key, id);
    return true;
  }

  private void rehash() {
    final String[] oldKeys = keys;
    final long[] oldWords = hashAndId;
    keys = new String[2 * oldKeys.length];
    hashAndId = new long[keys.length];
    mask = keys.length - 1;
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldWords[i] != 0) {
        putNew(oldKeys[i], (int) oldWords[i] - 1);
      }
    }
  }

  private static int spread(final int h) {
    final int x = h * 0x9E3779B9;
    return x ^ (x >>> 16);
  }
}
