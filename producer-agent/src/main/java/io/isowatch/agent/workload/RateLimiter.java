package io.isowatch.agent.workload;

import java.util.concurrent.locks.LockSupport;

/**
 * A token bucket shared by all sessions: {@code rate} permits per second, bursts of at most
 * {@code max(1, rate/10)} permits after idle time. {@link #acquire()} blocks until a permit is
 * available. A null rate means unlimited.
 */
public final class RateLimiter {
  private final long intervalNanos;
  private final long burstNanos;
  private long nextFree;

  private RateLimiter(final double rate) {
    this.intervalNanos = Math.max(1L, Math.round(1e9 / rate));
    this.burstNanos = intervalNanos * Math.max(1L, Math.round(rate / 10));
    this.nextFree = System.nanoTime();
  }

  /** A limiter for {@code rate} transactions per second, or none when {@code rate} is null. */
  public static RateLimiter of(final Double rate) {
    if (rate == null) {
      return null;
    }
    if (!(rate > 0) || rate.isInfinite()) {
      throw new IllegalArgumentException("--rate must be a positive number of transactions per second, got " + rate);
    }
    return new RateLimiter(rate);
  }

  /** Waits for one permit. */
  public void acquire() throws InterruptedException {
    final long wait = reserve();
    if (wait > 0) {
      final long until = System.nanoTime() + wait;
      long left = wait;
      while (left > 0) {
        LockSupport.parkNanos(left);
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
        left = until - System.nanoTime();
      }
    }
  }

  private synchronized long reserve() {
    final long now = System.nanoTime();
    // Unused time beyond the burst size does not accumulate into more permits.
    if (nextFree < now - burstNanos) {
      nextFree = now - burstNanos;
    }
    final long wait = nextFree - now;
    nextFree += intervalNanos;
    return wait;
  }
}
