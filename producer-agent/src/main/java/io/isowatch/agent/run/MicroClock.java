package io.isowatch.agent.run;

import java.time.Instant;

/**
 * Client-side timestamps in microseconds since the epoch, monotonic within the process: the wall
 * clock is read once, then advanced by {@link System#nanoTime()}. All sessions share one clock, so
 * an end recorded before a start in real time is also smaller.
 */
public final class MicroClock {
  private final long baseMicros;
  private final long baseNanos;

  private MicroClock(final long baseMicros, final long baseNanos) {
    this.baseMicros = baseMicros;
    this.baseNanos = baseNanos;
  }

  public static MicroClock system() {
    final long nanos = System.nanoTime();
    final Instant now = Instant.now();
    return new MicroClock(now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000, nanos);
  }

  public long nowMicros() {
    return baseMicros + (System.nanoTime() - baseNanos) / 1_000;
  }
}
