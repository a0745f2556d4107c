package io.isowatch.core.history;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * The ops of a transaction as a reader parsed them, each op's key with the number the reader gave
 * it: the same number for the same key throughout one {@link #numbering()} (one read of one
 * history), numbers from 0 up. A checker can then find its own id of a key by that number (an
 * array index) rather than by the key's name (a hash lookup per op); without the numbering it uses
 * the name, with the same result.
 *
 * <p>An immutable {@link java.util.List} of the ops, equal to (and with the hash code of) any list
 * of the same ops: the numbers are not part of what a transaction is.
 */
public final class InternedOps extends AbstractList<Op> implements RandomAccess {
  private final Op[] ops;
  private final int[] keyNumbers;
  private final Object numbering;

  /**
   * {@code ops} (not null, none null) and their keys' numbers in {@code numbering}; both arrays are
   * kept, not copied: the caller gives them up.
   */
  public InternedOps(final Op[] ops, final int[] keyNumbers, final Object numbering) {
    if (ops.length != keyNumbers.length) {
      throw new IllegalArgumentException(ops.length + " ops but " + keyNumbers.length + " key numbers");
    }
    for (final Op op : ops) {
      Objects.requireNonNull(op, "op");
    }
    this.ops = ops;
    this.keyNumbers = keyNumbers;
    this.numbering = Objects.requireNonNull(numbering, "numbering");
  }

  @Override
  public Op get(final int i) {
    return ops[i];
  }

  @Override
  public int size() {
    return ops.length;
  }

  /** The number of the {@code i}th op's key in {@link #numbering()}. */
  public int keyNumber(final int i) {
    return keyNumbers[i];
  }

  /** What the numbers are numbers in: the same object for every transaction of one read. */
  public Object numbering() {
    return numbering;
  }

  @Override
  public Object[] toArray() {
    return Arrays.copyOf(ops, ops.length, Object[].class);
  }
}
