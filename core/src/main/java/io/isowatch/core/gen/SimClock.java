package io.isowatch.core.gen;

import java.util.SplittableRandom;

/**
 * Simulated wall clock in microseconds. Every event (a start, or a commit under SI) gets a strictly
 * later time than the one before, so time order is event order: under SER simulation a
 * transaction that ends before another starts is earlier in the serial order too.
 */
final class SimClock {
  /** 2026-01-01T00:00:00Z: a plausible epoch for generated times. */
  static final long EPOCH_MICROS = 1_767_225_600_000_000L;
  private static final int MAX_GAP_MICROS = 10;

  private long now = EPOCH_MICROS;

  /** Advances by a random gap of 1 to 10 µs, and at least to {@code notBefore}; returns the new time. */
  long tick(final SplittableRandom rnd, final long notBefore) {
    now = Math.max(now + 1 + rnd.nextInt(MAX_GAP_MICROS), notBefore);
    return now;
  }

  long now() {
    return now;
  }

  void advanceTo(final long t) {
    now = Math.max(now, t);
  }
}
