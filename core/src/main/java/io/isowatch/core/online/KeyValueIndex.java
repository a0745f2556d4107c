package io.isowatch.core.online;

/**
 * Numbers (key, value) pairs 0, 1, 2… in the order they are first added, by open addressing on
 * parallel arrays (no object per pair). Shared by {@link TimelessOrder}, which orders a whole history
 * without times, and {@link TimelessWindow}, which orders it while it is read: both keep their own
 * per-entry facts in arrays indexed by the number this gives.
 */
final class KeyValueIndex {
  private String[] keys;
  private long[] vals;
  private int[] entry;
  private int size;

  /** An index with room for {@code capacity / 2} pairs before it grows; {@code capacity} a power of two. */
  KeyValueIndex(final int capacity) {
    keys = new String[capacity];
    vals = new long[capacity];
    entry = new int[capacity];
  }

  /** How many pairs were added: the next new pair's number. */
  int size() {
    return size;
  }

  /** The number of (key, value), or -1. */
  int find(final String key, final long value) {
    int h = hash(key, value) & (keys.length - 1);
    while (keys[h] != null) {
      if (vals[h] == value && keys[h].equals(key)) {
        return entry[h];
      }
      h = (h + 1) & (keys.length - 1);
    }
    return -1;
  }

  /** The number of (key, value), made (as {@link #size()} before the call) if new. */
  int add(final String key, final long value) {
    int h = hash(key, value) & (keys.length - 1);
    while (keys[h] != null) {
      if (vals[h] == value && keys[h].equals(key)) {
        return entry[h];
      }
      h = (h + 1) & (keys.length - 1);
    }
    if (2 * (size + 1) > keys.length) {
      grow();
      return add(key, value);
    }
    keys[h] = key;
    vals[h] = value;
    entry[h] = size;
    return size++;
  }

  private void grow() {
    final String[] oldKeys = keys;
    final long[] oldVals = vals;
    final int[] oldEntry = entry;
    keys = new String[2 * oldKeys.length];
    vals = new long[keys.length];
    entry = new int[keys.length];
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] == null) {
        continue;
      }
      int h = hash(oldKeys[i], oldVals[i]) & (keys.length - 1);
      while (keys[h] != null) {
        h = (h + 1) & (keys.length - 1);
      }
      keys[h] = oldKeys[i];
      vals[h] = oldVals[i];
      entry[h] = oldEntry[i];
    }
  }

  private static int hash(final String key, final long value) {
    final long h = (key.hashCode() * 0x9E3779B97F4A7C15L) ^ (value * 0xC2B2AE3D27D4EB4FL);
    return (int) (h ^ (h >>> 29) ^ (h >>> 47));
  }
}
