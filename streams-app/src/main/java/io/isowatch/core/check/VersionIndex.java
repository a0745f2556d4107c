package io.isowatch.core.check;

/**
 * Every written (key, value) pair of the history, in an open-addressing table: which transaction
 * wrote it, whether that write was the transaction's last write of the key, and how many write
 * operations produced it (more than one breaks the unique-value premise). A slot number doubles as
 * the id of the version a write installs.
 */
final class VersionIndex {
  private static final int EMPTY = -1;

  private final int[] keys;
  private final long[] values;
  private final int[] writer;
  private final boolean[] finalWrite;
  private final int[] writeCount;
  private final int mask;

  VersionIndex(final int expectedWrites) {
    int cap = 16;
    while (cap < expectedWrites * 2) {
      cap <<= 1;
    }
    keys = new int[cap];
    java.util.Arrays.fill(keys, EMPTY);
    values = new long[cap];
    writer = new int[cap];
    finalWrite = new boolean[cap];
    writeCount = new int[cap];
    mask = cap - 1;
  }

  /** Number of slots: version ids of written values are below this; initial versions follow. */
  int capacity() {
    return keys.length;
  }

  /** Records one write op; returns its slot. */
  int record(final int key, final long value, final int txn, final boolean isFinal) {
    final int slot = slotOf(key, value);
    if (keys[slot] == EMPTY) {
      keys[slot] = key;
      values[slot] = value;
      writer[slot] = txn;
      finalWrite[slot] = isFinal;
    }
    writeCount[slot]++;
    return slot;
  }

  /** The slot of (key, value), or -1 if nobody wrote it. */
  int find(final int key, final long value) {
    final int slot = slotOf(key, value);
    return keys[slot] == EMPTY ? -1 : slot;
  }

  int writer(final int slot) {
    return writer[slot];
  }

  boolean isFinalWrite(final int slot) {
    return finalWrite[slot];
  }

  int writeCount(final int slot) {
    return writeCount[slot];
  }

  int key(final int slot) {
    return keys[slot];
  }

  long value(final int slot) {
    return values[slot];
  }

  private int slotOf(final int key, final long value) {
    long h = value * 0x9E3779B97F4A7C15L + key * 0xC2B2AE3D27D4EB4FL;
    h ^= h >>> 29;
    int slot = (int) h & mask;
    while (keys[slot] != EMPTY && (keys[slot] != key || values[slot] != value)) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }
}
