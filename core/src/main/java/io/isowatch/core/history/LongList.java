package io.isowatch.core.history;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * An immutable list of longs held in one {@code long[]}: the elements of a list-append read
 * ({@link Op#elements()}). A read of a list of n elements then costs 8n bytes instead of an object
 * per element, and the checker compares lists with {@link #at(int)} and {@link #prefixOf} without
 * boxing. Equality and hash code are those of every {@link List}.
 */
public final class LongList extends AbstractList<Long> implements RandomAccess {
  private static final LongList EMPTY = new LongList(new long[0]);

  private final long[] values;

  private LongList(final long[] values) {
    this.values = values;
  }

  /** A list of these values; the array is the caller's no more (it must not change it afterwards). */
  public static LongList of(final long... values) {
    return values.length == 0 ? EMPTY : new LongList(values);
  }

  /** The list itself when it is a {@code LongList}, otherwise a copy (null elements are refused, as by {@link List#copyOf}). */
  public static LongList copyOf(final List<Long> list) {
    if (list instanceof LongList l) {
      return l;
    }
    final long[] values = new long[list.size()];
    int i = 0;
    for (final Long v : list) {
      if (v == null) {
        throw new NullPointerException("a list element is null");
      }
      values[i++] = v;
    }
    return of(values);
  }

  /** The element at {@code index}, unboxed. */
  public long at(final int index) {
    return values[index];
  }

  /** The last element; the list must not be empty. */
  public long last() {
    return values[values.length - 1];
  }

  /** True when this list is a prefix of {@code other} (equal lists included). */
  public boolean prefixOf(final LongList other) {
    return values.length <= other.values.length
        && Arrays.equals(values, 0, values.length, other.values, 0, values.length);
  }

  @Override
  public Long get(final int index) {
    return values[index];
  }

  @Override
  public int size() {
    return values.length;
  }

  @Override
  public boolean contains(final Object o) {
    if (o instanceof Long l) {
      final long v = l;
      for (final long e : values) {
        if (e == v) {
          return true;
        }
      }
    }
    return false;
  }

  @Override
  public boolean equals(final Object o) {
    if (o instanceof LongList l) {
      return Arrays.equals(values, l.values);
    }
    return super.equals(o);
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (final long v : values) {
      h = 31 * h + Long.hashCode(v);
    }
    return h;
  }
}
