package io.isowatch.agent.run;

import io.isowatch.agent.sink.SinkException;
import io.isowatch.agent.sink.TransactionSink;
import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.target.IsolationMix;
import io.isowatch.agent.target.Target;
import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetException.Failure;
import io.isowatch.agent.target.TargetSession;
import io.isowatch.agent.workload.RateLimiter;
import io.isowatch.agent.workload.SessionWorkload;
import io.isowatch.agent.workload.TxnPlan;
import io.isowatch.core.history.TxnStatus;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One session: a thread with its own connection running plans one after another until the
 * budget, the deadline or a failure stops the run. Every attempt goes to the sink. When the
 * connection breaks, the session reconnects under a new name ({@code s3r1}, {@code s3r2}, …):
 * a new connection is a new session for the checker, since session order is only promised within
 * one connection.
 */
final class SessionWorker implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(SessionWorker.class);
  /**
   * Failures in a row other than aborts (errors, lost connections) after which the run stops:
   * something is wrong beyond contention, and reconnecting forever would only hide it.
   */
  static final int MAX_CONSECUTIVE_FAILURES = 20;
  private static final int OPEN_ATTEMPTS = 3;
  private static final long OPEN_BACKOFF_MILLIS = 500;

  private final int index;
  private final Target target;
  private final SessionWorkload workload;
  private final TransactionRunner runner;
  private final TransactionSink sink;
  private final RunControl control;
  private final SnapshotSchedule snapshots;
  private final RateLimiter limiter;
  private final RunStats stats;
  private final int retries;
  private final CountDownLatch ready;
  /** The level of each transaction, and the stream it is drawn from (per session, from the seed). */
  private final IsolationMix mix;
  private final Random levels;

  SessionWorker(
      final int index,
      final Target target,
      final SessionWorkload workload,
      final TransactionRunner runner,
      final TransactionSink sink,
      final RunControl control,
      final SnapshotSchedule snapshots,
      final RateLimiter limiter,
      final RunStats stats,
      final int retries,
      final CountDownLatch ready,
      final long seed) {
    this.index = index;
    this.target = target;
    this.workload = workload;
    this.runner = runner;
    this.sink = sink;
    this.control = control;
    this.snapshots = snapshots;
    this.limiter = limiter;
    this.stats = stats;
    this.retries = retries;
    this.ready = ready;
    this.mix = target.isolationMix();
    this.levels = new Random(seed ^ (0x9E3779B97F4A7C15L * (index + 1)));
  }

  /** The level of a new transaction: null when every transaction runs at the session's level. */
  private IsolationLevel nextLevel() {
    return mix.single() ? null : mix.pick(levels);
  }

  @Override
  public void run() {
    String name = "s" + index;
    int generation = 0;
    long seq = 0;
    int consecutiveErrors = 0;
    int retriesLeft = 0;
    TxnPlan retry = null;
    IsolationLevel level = null;
    TargetSession session = null;
    try {
      session = open(name);
      // Every session connects first, then all start together: no session gets a head start.
      ready.countDown();
      ready.await();
      while (!control.stopped()) {
        final TxnPlan plan;
        if (retry != null) {
          plan = retry; // a retry keeps its level
          retry = null;
        } else if (snapshots.claim(control.taken())) {
          plan = workload.snapshot();
          level = nextLevel();
        } else if (control.take(index)) {
          plan = workload.next();
          level = nextLevel();
          retriesLeft = retries;
        } else {
          break;
        }
        if (limiter != null) {
          limiter.acquire();
        }
        final Attempt a = runner.run(session, name, seq++, plan, level);
        sink.accept(a.txn());
        final boolean snapshot = TxnPlan.SNAPSHOT.equals(plan.shape());
        stats.record(a, snapshot);
        if (a.failure() != null && a.failure().failure() != Failure.ABORTED) {
          LOG.debug("transaction failed txn=[{}] error=[{}]", a.txn().id(), a.failure().getMessage());
          if (++consecutiveErrors >= MAX_CONSECUTIVE_FAILURES) {
            control.fail("session " + name + ": " + consecutiveErrors + " failures in a row other than aborts, "
                + "the last: " + a.failure().getMessage());
            break;
          }
        } else {
          consecutiveErrors = 0;
        }
        if (a.sessionBroken()) {
          LOG.warn("session broken, reconnecting session=[{}] txn=[{}] status=[{}] error=[{}]",
              name, a.txn().id(), a.txn().status(), a.failure() == null ? "" : a.failure().getMessage());
          session.close();
          session = null;
          generation++;
          name = "s" + index + "r" + generation;
          seq = 0;
          stats.reconnects.increment();
          session = open(name);
        }
        if (a.txn().status() == TxnStatus.ABORTED && !snapshot && retriesLeft > 0 && !control.stopped()
            && control.take(index)) {
          retriesLeft--;
          retry = workload.retry(plan);
        }
      }
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      control.stop();
    } catch (final TargetException e) {
      control.fail("session " + name + ": " + e.getMessage());
    } catch (final SinkException e) {
      control.fail(e.getMessage());
    } catch (final RuntimeException e) {
      LOG.error("session crashed session=[{}]", name, e);
      control.fail("session " + name + " crashed: " + e);
    } finally {
      // A session that failed to connect must not keep the others waiting.
      ready.countDown();
      if (session != null) {
        session.close();
      }
    }
  }

  private TargetSession open(final String name) throws TargetException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        return target.open(name);
      } catch (final TargetException e) {
        if (attempt >= OPEN_ATTEMPTS || e.failure() != Failure.CONNECTION) {
          throw e;
        }
        LOG.warn("cannot open session, retrying session=[{}] attempt=[{}] error=[{}]", name, attempt, e.getMessage());
        Thread.sleep(OPEN_BACKOFF_MILLIS * attempt);
      }
    }
  }
}
