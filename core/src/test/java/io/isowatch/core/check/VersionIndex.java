package io.isowatch.core.check;

/**
 * Every written (key, value) pair of the history, in an open-addressing table: which transaction
 * wrote it, whether that write was the transaction's last write of the key, and whether more than
 * one write operation produced it (which breaks the unique-value premise). A slot number doubles
 * as the id of the version a write installs.
 *
 * <p>Each slot is two adjacent longs, the value and a packed word (key, writer, flags), so that a
 * lookup touches one cache line: resolving millions of reads is dominated by these lookups.
 */
final class VersionIndex {
  private static final long WRITER_MASK = (1L << 31) - 1;
  private static final long FINAL_BIT = 1L << 31;
  private static final long MULTI_BIT = 1L << 62;
  private static final int KEY_SHIFT = 32;
  private static final long KEY_MASK = (1L << 30) - 1;

  private final long[] table;
  private final int mask;

  VersionIndex(final int expectedWrites) {
    int cap = 16;
    while (cap < expectedWrites + (expectedWrites >> 1)) {
      cap <<= 1;
    }
    table = new long[2 * cap];
    mask = cap - 1;
  }

  /** Number of slots: version ids of written values are below this; initial versions follow. */
  int capacity() {
    return mask + 1;
  }

  /** Records one write op; returns true when the value had already been written to the key. */
  boolean recordIsRepeat(final int key, final long value, final int txn, final boolean isFinal) {
    final int slot = slotOf(key, value);
    final int i = 2 * slot;
    if (table[i + 1] == 0) {
      table[i] = value;
      table[i + 1] = ((long) (key + 1) << KEY_SHIFT) | (isFinal ? FINAL_BIT : 0) | txn;
      return false;
    }
    table[i + 1] |= MULTI_BIT;
    return true;
  }

  /** The slot of (key, value), or -1 if nobody wrote it. */
  int find(final int key, final long value) {
    final int slot = slotOf(key, value);
    return table[2 * slot + 1] == 0 ? -1 : slot;
  }

  int writer(final int slot) {
    return (int) (table[2 * slot + 1] & WRITER_MASK);
  }

  boolean isFinalWrite(final int slot) {
    return (table[2 * slot + 1] & FINAL_BIT) != 0;
  }

  /** True when the value was written by more than one write operation. */
  boolean isMultiplyWritten(final int slot) {
    return (table[2 * slot + 1] & MULTI_BIT) != 0;
  }

  int key(final int slot) {
    return (int) ((table[2 * slot + 1] >>> KEY_SHIFT) & KEY_MASK) - 1;
  }

  long value(final int slot) {
    return table[2 * slot];
  }

  private int slotOf(final int key, final long value) {
    long h = value * 0x9E3779B97F4A7C15L + key * 0xC2B2AE3D27D4EB4FL;
    h ^= h >>> 29;
    int slot = (int) h & mask;
    final long tag = (long) (key + 1) << KEY_SHIFT;
    while (true) {
      final long word = table[2 * slot + 1];
      if (word == 0 || ((word & (KEY_MASK << KEY_SHIFT)) == tag && table[2 * slot] == value)) {
        return slot;
      }
      slot = (slot + 1) & mask;
    }
  }
}
