package io.isowatch.core.online;

/**
 * An open-addressing map from a (key id, value) pair to a non-negative int, on one primitive
 * array: the engine looks up millions of written and read values, so each slot is two adjacent
 * longs (the value, then the key and the id packed) and a lookup touches one cache line.
 */
final class KeyValueTable {
  private long[] table;
  private int size;
  private int mask;

  KeyValueTable(final int expected) {
    int cap = 16;
    while (cap < 2 * expected) {
      cap <<= 1;
    }
    table = new long[2 * cap];
    mask = cap - 1;
  }

  /** The id stored for (key, value), or -1. */
  int get(final int key, final long value) {
    final long word = table[2 * probe(key, value) + 1];
    return word == 0 ? -1 : (int) word - 1;
  }

  /**
   * Stores id for (key, value) unless the pair is present; returns the id already stored, or -1
   * when it stored this one. One probe for the lookup and the insertion.
   */
  int putIfAbsent(final int key, final long value, final int id) {
    if (2 * (size + 1) > mask + 1) {
      rehash();
    }
    final int slot = probe(key, value);
    final long word = table[2 * slot + 1];
    if (word != 0) {
      return (int) word - 1;
    }
    store(slot, key, value, id);
    return -1;
  }

  /** Stores id (at most {@code Integer.MAX_VALUE - 1}) for (key, value), replacing any previous id. */
  void put(final int key, final long value, final int id) {
    if (2 * (size + 1) > mask + 1) {
      rehash();
    }
    store(probe(key, value), key, value, id);
  }

  int size() {
    return size;
  }

  /** What {@link #forEach} calls with each entry. */
  @FunctionalInterface
  interface EntryConsumer {
    void accept(int key, long value, int id);
  }

  /** Calls {@code each} with every entry, in table order (which depends on the insertion history). */
  void forEach(final EntryConsumer each) {
    for (int i = 0; i < table.length; i += 2) {
      final long word = table[i + 1];
      if (word != 0) {
        each.accept((int) (word >>> 32), table[i], (int) word - 1);
      }
    }
  }

  private void rehash() {
    final long[] old = table;
    table = new long[2 * old.length];
    mask = old.length - 1;
    size = 0;
    for (int i = 0; i < old.length; i += 2) {
      final long word = old[i + 1];
      if (word != 0) {
        put((int) (word >>> 32), old[i], (int) word - 1);
      }
    }
  }

  /** The slot holding (key, value), or the empty slot where it would go (linear probing). */
  private int probe(final int key, final long value) {
    int slot = hash(key, value) & mask;
    while (true) {
      final long word = table[2 * slot + 1];
      if (word == 0 || ((int) (word >>> 32) == key && table[2 * slot] == value)) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
  }

  private void store(final int slot, final int key, final long value, final int id) {
    if (table[2 * slot + 1] == 0) {
      size++;
    }
    table[2 * slot] = value;
    table[2 * slot + 1] = ((long) key << 32) | ((id + 1L) & 0xFFFFFFFFL);
  }

  private static int hash(final int key, final long value) {
    long h = value * 0x9E3779B97F4A7C15L + key * 0xC2B2AE3D27D4EB4FL;
    h ^= h >>> 29;
    return (int) h ^ (int) (h >>> 32);
  }
}
