package io.isowatch.agent.run;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Shared by the sessions of a run: the transaction budget, the deadline, the stop flag and the
 * first fatal failure. A total budget is split evenly between the sessions up front (as MTC's
 * generator distributes transactions uniformly across sessions), so that each session's share
 * and sequence of plans depend only on the seed, not on scheduling.
 */
final class RunControl {
  private final long[] remaining;
  private final AtomicLong taken = new AtomicLong();
  private final Duration duration;
  private volatile long deadlineNanos = Long.MAX_VALUE;
  private final AtomicReference<String> failure = new AtomicReference<>();
  private volatile boolean stopped;

  RunControl(final Long limit, final int sessions, final Duration duration) {
    if (limit == null) {
      this.remaining = null;
    } else {
      this.remaining = new long[sessions];
      for (int i = 0; i < sessions; i++) {
        remaining[i] = limit / sessions + (i < limit % sessions ? 1 : 0);
      }
    }
    this.duration = duration;
  }

  /** Starts the clock of a timed run; called once every session is connected. */
  void start() {
    if (duration != null) {
      deadlineNanos = System.nanoTime() + duration.toNanos();
    }
  }

  /** Takes one transaction from a session's share; false when it is spent. Only that session calls it. */
  boolean take(final int session) {
    if (remaining != null) {
      if (remaining[session] == 0) {
        return false;
      }
      remaining[session]--;
    }
    taken.incrementAndGet();
    return true;
  }

  /** Transactions taken so far over all sessions. */
  long taken() {
    return taken.get();
  }

  boolean stopped() {
    return stopped || (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos >= 0);
  }

  void stop() {
    stopped = true;
  }

  /** Records the first fatal failure and stops the run. */
  void fail(final String message) {
    failure.compareAndSet(null, message);
    stopped = true;
  }

  String failure() {
    return failure.get();
  }
}
