package io.isowatch.core.online;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A bounded queue of longs from one producer thread to one consumer thread, with no object per
 * element and no lock: each side keeps its own index and publishes it with a release store, and
 * reads the other's with an acquire load only when its cached copy says it must wait. The producer
 * makes what it wrote visible with {@link #publish}, and on its own when the ring is full. A side
 * that waits spins briefly, then yields, then parks for a few microseconds at a time: on a machine
 * whose cores are shared, a long spin would take the core from the thread it waits for.
 */
final class LongRing {
  private static final int SPINS = 128;
  private static final int YIELDS = 16;
  private static final long PARK_NANOS = 20_000;

  private final long[] ring;
  private final int mask;
  /** Next index the consumer will read, as the producer may see it. */
  private final AtomicLong head = new AtomicLong();
  /** Index up to which the producer has published, as the consumer may see it. */
  private final AtomicLong tail = new AtomicLong();

  // The producer's side.
  private long writeAt;
  private long writeLimit;

  // The consumer's side.
  private long readAt;
  private long readLimit;

  /** {@code capacity}: a power of two. */
  LongRing(final int capacity) {
    if (Integer.bitCount(capacity) != 1) {
      throw new IllegalArgumentException("capacity must be a power of two, got " + capacity);
    }
    ring = new long[capacity];
    mask = capacity - 1;
    writeLimit = capacity;
  }

  /** Producer: appends {@code v}, waiting for room (after publishing what it wrote) when the ring is full. */
  void put(final long v) {
    if (writeAt == writeLimit) {
      publish();
      int waited = 0;
      while ((writeLimit = head.get() + ring.length) == writeAt) {
        pause(waited++);
      }
    }
    ring[(int) writeAt & mask] = v;
    writeAt++;
  }

  /** Producer: makes everything put so far visible to the consumer. */
  void publish() {
    tail.lazySet(writeAt);
  }

  /** Consumer: the next long, waiting for the producer to publish one. */
  long take() {
    if (readAt == readLimit) {
      head.lazySet(readAt);
      int waited = 0;
      while ((readLimit = tail.get()) == readAt) {
        pause(waited++);
      }
    }
    final long v = ring[(int) readAt & mask];
    readAt++;
    return v;
  }

  private static void pause(final int waited) {
    if (waited < SPINS) {
      Thread.onSpinWait();
    } else if (waited < SPINS + YIELDS) {
      Thread.yield();
    } else {
      LockSupport.parkNanos(PARK_NANOS);
    }
  }
}
