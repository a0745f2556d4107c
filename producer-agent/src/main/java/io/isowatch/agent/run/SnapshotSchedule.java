package io.isowatch.agent.run;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When the next whole-key-space read-only transaction is due: after every N transactions, every
 * so often, or never. Exactly one session claims each one.
 */
final class SnapshotSchedule {
  private final Long everyTxns;
  private final Long everyNanos;
  private final AtomicLong nextTxns;
  private final AtomicLong nextNanos;

  SnapshotSchedule(final Long everyTxns, final Duration every) {
    this.everyTxns = everyTxns;
    this.everyNanos = every == null ? null : every.toNanos();
    this.nextTxns = new AtomicLong(everyTxns == null ? Long.MAX_VALUE : everyTxns);
    this.nextNanos = new AtomicLong(every == null ? Long.MAX_VALUE : System.nanoTime() + everyNanos);
  }

  /** True when the caller should run a snapshot transaction now. */
  boolean claim(final long txnsTaken) {
    if (everyTxns != null) {
      final long due = nextTxns.get();
      if (txnsTaken >= due && nextTxns.compareAndSet(due, due + everyTxns)) {
        return true;
      }
    }
    if (everyNanos != null) {
      final long due = nextNanos.get();
      if (System.nanoTime() - due >= 0 && nextNanos.compareAndSet(due, due + everyNanos)) {
        return true;
      }
    }
    return false;
  }
}
