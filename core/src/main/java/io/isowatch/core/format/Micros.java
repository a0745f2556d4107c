package io.isowatch.core.format;

import java.util.concurrent.TimeUnit;

/**
 * Conversions of foreign clock readings to the microseconds {@link
 * io.isowatch.core.history.Transaction} carries.
 *
 * <p>Starts round down and ends round up: widening an interval can only remove real-time
 * precedence between two transactions, never invent it, so a coarser clock cannot produce a false
 * SSER violation.
 */
final class Micros {
  private static final long NANOS_PER_MICRO = 1000L;

  private Micros() {}

  /** {@code value} in {@code unit}, as microseconds rounded towards negative infinity. */
  static long floor(final long value, final TimeUnit unit) {
    if (unit == TimeUnit.NANOSECONDS) {
      return Math.floorDiv(value, NANOS_PER_MICRO);
    }
    // MICROSECONDS and coarser units convert exactly (saturating at the long range).
    return TimeUnit.MICROSECONDS.convert(value, unit);
  }

  /** {@code value} in {@code unit}, as microseconds rounded towards positive infinity. */
  static long ceil(final long value, final TimeUnit unit) {
    if (unit == TimeUnit.NANOSECONDS) {
      // Truncating division already rounds negatives up; only positive remainders need a step.
      return value / NANOS_PER_MICRO + (value % NANOS_PER_MICRO > 0 ? 1 : 0);
    }
    return TimeUnit.MICROSECONDS.convert(value, unit);
  }
}
