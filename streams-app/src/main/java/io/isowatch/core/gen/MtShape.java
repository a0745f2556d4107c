package io.isowatch.core.gen;

import java.util.Locale;

/**
 * The mini-transaction shapes the generator draws from (MTC Definition 8: one or two reads, at most
 * two writes, each write preceded by a read of its key). {@code R1} and {@code R2} read two
 * distinct keys; {@code W1} writes the key {@code R1} read, {@code W2} the key {@code R2} read.
 */
public enum MtShape {
  /** {@code r(x)}. */
  R1(1, false),
  /** {@code r(x) r(y)}. */
  R1R2(2, false),
  /** {@code r(x) w(x)}: a read-modify-write of one key. */
  R1W1(1, true),
  /** {@code r(x) r(y) w(y)}. */
  R1R2W2(2, true),
  /** {@code r(x) r(y) w(x) w(y)}. */
  R1R2W1W2(2, true),
  /** {@code r(x) w(x) r(y) w(y)}. */
  R1W1R2W2(2, true);

  private final int keyCount;
  private final boolean writes;

  MtShape(final int keyCount, final boolean writes) {
    this.keyCount = keyCount;
    this.writes = writes;
  }

  /** How many distinct keys the shape touches (1 or 2). */
  public int keyCount() {
    return keyCount;
  }

  public boolean isReadOnly() {
    return !writes;
  }

  public static MtShape parse(final String s) {
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT));
    } catch (final IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "unknown MT shape '" + s + "' (expected one of R1, R1R2, R1W1, R1R2W2, R1R2W1W2, R1W1R2W2)", e);
    }
  }
}
