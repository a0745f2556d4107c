package io.isowatch.core.listappend;

/**
 * A fixed-size map from long to non-negative int by open addressing over two arrays: the positions
 * of a key's elements in its order ({@link ListOrders.KeyOrder#position}), looked up for every
 * append and read of a list-append history. A {@code HashMap<Long, Integer>} there cost a boxed
 * key per element and a pointer chase per lookup: the largest single cost of a list-append check
 * in the profile of issue 14 item 5 (docs/benchmarks.md, lafast5).
 */
final class LongIntMap {
  private static final int ABSENT = -1;
  private static final long PHI = 0x9E3779B97F4A7C15L;

  private final long[] keys;
  private final int[] values;
  private final int shift;

  /** A map able to hold {@code capacity} entries (at most half full, so probes stay short). */
  LongIntMap(final int capacity) {
    int size = 2;
    while (size < 2L * Math.max(1, capacity)) {
      size <<= 1;
    }
    keys = new long[size];
    values = new int[size];
    java.util.Arrays.fill(values, ABSENT);
    shift = 64 - Integer.numberOfTrailingZeros(size);
  }

  /**
   * Maps {@code key} to {@code value} (not negative) unless it is mapped already (the first value
   * wins); true when it was not.
   */
  boolean putIfAbsent(final long key, final int value) {
    if (value < 0) {
      throw new IllegalArgumentException("negative value " + value);
    }
    final int mask = keys.length - 1;
    int slot = slot(key);
    while (values[slot] != ABSENT) {
      if (keys[slot] == key) {
        return false;
      }
      slot = (slot + 1) & mask;
    }
    keys[slot] = key;
    values[slot] = value;
    return true;
  }

  /** The value of {@code key}, or -1 when it has none. */
  int get(final long key) {
    final int mask = keys.length - 1;
    int slot = slot(key);
    int v;
    while ((v = values[slot]) != ABSENT) {
      if (keys[slot] == key) {
        return v;
      }
      slot = (slot + 1) & mask;
    }
    return ABSENT;
  }

  private int slot(final long key) {
    return (int) ((key * PHI) >>> shift);
  }
}
