package io.isowatch.core.format;

import java.util.Arrays;

/**
 * What the Elle scanners ({@link EdnFastPath} for EDN, {@link ElleJsonFastPath} for JSON lines) share
 * once a token is read: the words of an op's {@code type} and of a micro-op's function, and the
 * micro-ops of one op, gathered in reused arrays and copied out as {@link ElleHistoryAssembler.Mops}.
 * The syntax around them (keywords and commas in EDN, strings in JSON) stays in each scanner. Not
 * thread-safe.
 */
final class ElleMopsBuffer {
  /** Not a micro-op function the scanners take. */
  static final byte NOT_A_KIND = -1;

  private byte[] kinds = new byte[16];
  private String[] keys = new String[16];
  private long[] values = new long[16];
  private boolean[] nulls = new boolean[16];

  /** The op type {@code c[from, to)} spells ({@code invoke ok fail info}), or null for another word. */
  static String type(final char[] c, final int from, final int to) {
    final int n = to - from;
    if (n == 2 && c[from] == 'o' && c[from + 1] == 'k') {
      return "ok";
    }
    if (n == 6 && matches(c, from, "invoke")) {
      return "invoke";
    }
    if (n == 4 && matches(c, from, "fail")) {
      return "fail";
    }
    if (n == 4 && matches(c, from, "info")) {
      return "info";
    }
    return null;
  }

  /** The micro-op kind {@code c[from, to)} names ({@code r w append}), or {@link #NOT_A_KIND}. */
  static byte kind(final char[] c, final int from, final int to) {
    final int n = to - from;
    if (n == 1 && c[from] == 'r') {
      return ElleHistoryAssembler.Mops.READ;
    }
    if (n == 1 && c[from] == 'w') {
      return ElleHistoryAssembler.Mops.WRITE;
    }
    if (n == 6 && matches(c, from, "append")) {
      return ElleHistoryAssembler.Mops.APPEND;
    }
    return NOT_A_KIND;
  }

  /** Whether {@code c} holds {@code word} from {@code at} on (the caller knows the characters exist). */
  static boolean matches(final char[] c, final int at, final String word) {
    for (int i = 0; i < word.length(); i++) {
      if (c[at + i] != word.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Sets micro-op {@code n} of the op being read (slots before it are set). */
  void set(final int n, final byte kind, final String key, final long value, final boolean isNull) {
    if (n == kinds.length) {
      final int size = 2 * n;
      kinds = Arrays.copyOf(kinds, size);
      keys = Arrays.copyOf(keys, size);
      values = Arrays.copyOf(values, size);
      nulls = Arrays.copyOf(nulls, size);
    }
    kinds[n] = kind;
    keys[n] = key;
    values[n] = value;
    nulls[n] = isNull;
  }

  /** The first {@code n} micro-ops, copied out. */
  ElleHistoryAssembler.Mops mops(final int n) {
    return new ElleHistoryAssembler.Mops(Arrays.copyOf(kinds, n), Arrays.copyOf(keys, n), Arrays.copyOf(values, n),
        Arrays.copyOf(nulls, n));
  }
}
