package io.isowatch.core.format;

/**
 * Keeps one instance per distinct string (keys, sessions, tenants, levels). A million
 * transactions over a thousand keys then hold a thousand key strings instead of millions, and the
 * checker's maps hash and compare fewer distinct objects. A string can be looked up from a range of
 * characters ({@link #intern(char[], int, int)}), so that a parser finds a known key without first
 * building a {@code String} for it. Each distinct string gets a number, 0, 1, 2… in the order
 * first interned ({@link #lastNumber()}). Not thread-safe.
 */
final class StringInterner {
  private static final int INITIAL_CAPACITY = 256;

  // Open addressing, linear probing; hashes are String.hashCode() so both lookups agree.
  private String[] table = new String[INITIAL_CAPACITY];
  private int[] hashes = new int[INITIAL_CAPACITY];
  private int[] numbers = new int[INITIAL_CAPACITY];
  private int size;
  private int lastNumber = -1;

  /** The number of the string the latest {@code intern} of a non-null string returned. */
  int lastNumber() {
    return lastNumber;
  }

  /** The one shared instance equal to {@code s}; null stays null. */
  String intern(final String s) {
    if (s == null) {
      return null;
    }
    final int h = s.hashCode();
    final int mask = table.length - 1;
    for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
      final String known = table[i];
      if (known == null) {
        insert(i, h, s);
        return s;
      }
      if (hashes[i] == h && known.equals(s)) {
        lastNumber = numbers[i];
        return known;
      }
    }
  }

  /** The one shared instance equal to {@code chars[from, to)}, made only if it is new. */
  String intern(final char[] chars, final int from, final int to) {
    int h = 0;
    for (int i = from; i < to; i++) {
      h = 31 * h + chars[i];
    }
    final int mask = table.length - 1;
    for (int i = spread(h) & mask; ; i = (i + 1) & mask) {
      final String known = table[i];
      if (known == null) {
        final String s = new String(chars, from, to - from);
        insert(i, h, s);
        return s;
      }
      if (hashes[i] == h && equal(known, chars, from, to)) {
        lastNumber = numbers[i];
        return known;
      }
    }
  }

  private static boolean equal(final String s, final char[] chars, final int from, final int to) {
    if (s.length() != to - from) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (s.charAt(i - from) != chars[i]) {
        return false;
      }
    }
    return true;
  }

  private static int spread(final int h) {
    return h ^ (h >>> 16);
  }

  private void insert(final int slot, final int h, final String s) {
    table[slot] = s;
    hashes[slot] = h;
    numbers[slot] = size;
    lastNumber = size;
    if (++size * 2 > table.length) {
      grow();
    }
  }

  private void grow() {
    final String[] oldTable = table;
    final int[] oldHashes = hashes;
    final int[] oldNumbers = numbers;
    table = new String[oldTable.length * 2];
    hashes = new int[oldTable.length * 2];
    numbers = new int[oldTable.length * 2];
    final int mask = table.length - 1;
    for (int j = 0; j < oldTable.length; j++) {
      if (oldTable[j] != null) {
        int i = spread(oldHashes[j]) & mask;
        while (table[i] != null) {
          i = (i + 1) & mask;
        }
        table[i] = oldTable[j];
        hashes[i] = oldHashes[j];
        numbers[i] = oldNumbers[j];
      }
    }
  }
}
