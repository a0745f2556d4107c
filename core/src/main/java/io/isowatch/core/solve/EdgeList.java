package io.isowatch.core.solve;

import io.isowatch.core.check.EdgeKind;
import java.util.Arrays;

/**
 * A growable list of labelled dependency edges between graph nodes. Each edge carries its kind,
 * key and value (for the explanation) and the literal of the version-order choice it comes from:
 * 0 for an edge that holds in every version order, {@code +v} when it holds if variable v is true,
 * {@code -v} when v is false.
 */
final class EdgeList {
  /** The value of an edge about no version (SO, RT) or about a null initial value. */
  static final long NO_VALUE = Long.MIN_VALUE;

  int size;
  int[] from = new int[64];
  int[] to = new int[64];
  byte[] kind = new byte[64];
  int[] key = new int[64];
  long[] value = new long[64];
  int[] literal = new int[64];

  int add(final int f, final int t, final EdgeKind k, final int keyIndex, final long v, final int lit) {
    if (size == from.length) {
      final int n = size * 2;
      from = Arrays.copyOf(from, n);
      to = Arrays.copyOf(to, n);
      kind = Arrays.copyOf(kind, n);
      key = Arrays.copyOf(key, n);
      value = Arrays.copyOf(value, n);
      literal = Arrays.copyOf(literal, n);
    }
    from[size] = f;
    to[size] = t;
    kind[size] = (byte) k.ordinal();
    key[size] = keyIndex;
    value[size] = v;
    literal[size] = lit;
    return size++;
  }

  EdgeKind kindOf(final int e) {
    return EdgeKind.values()[kind[e]];
  }

  boolean isRw(final int e) {
    return kind[e] == EdgeKind.RW.ordinal();
  }

  void truncate(final int newSize) {
    size = newSize;
  }
}
