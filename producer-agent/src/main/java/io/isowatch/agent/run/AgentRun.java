package io.isowatch.agent.run;

import io.isowatch.agent.sink.SinkException;
import io.isowatch.agent.sink.TransactionSink;
import io.isowatch.agent.target.Target;
import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.workload.CasHints;
import io.isowatch.agent.workload.RateLimiter;
import io.isowatch.agent.workload.SessionWorkload;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * Runs a workload against a target: prepares the key space, starts one {@link SessionWorker} per
 * session, prints a progress line every so often (for the list-append workload, ends with a
 * {@link FinalRead}), and returns the {@link RunSummary}. The sink is
 * the caller's: it is neither opened nor closed here.
 */
public final class AgentRun {
  private final AgentConfig config;
  private final Target target;
  private final TransactionSink sink;
  private final MicroClock clock;
  private final PrintWriter progress;
  private final RunControl control;
  private final RunStats stats = new RunStats();
  private final CountDownLatch finished = new CountDownLatch(1);

  /**
   * @param progress where progress lines go (stderr on the command line); null for none
   */
  public AgentRun(
      final AgentConfig config,
      final Target target,
      final TransactionSink sink,
      final MicroClock clock,
      final PrintWriter progress) {
    this.config = config;
    this.target = target;
    this.sink = sink;
    this.clock = clock;
    this.progress = progress;
    this.control = new RunControl(config.txns(), config.sessions(), config.duration());
  }

  /**
   * Prepares the target and runs until the budget or deadline is reached, {@link #stop()} is
   * called, or a session fails.
   *
   * @throws TargetException when the key space cannot be prepared
   */
  public RunSummary run() throws TargetException, InterruptedException {
    try {
      if (config.workload().lists()) {
        target.prepareLists(config.workload().keys());
      } else {
        target.prepare(config.workload().keys());
      }
      final CasHints hints = new CasHints();
      final RateLimiter limiter = RateLimiter.of(config.rate());
      final SnapshotSchedule snapshots = new SnapshotSchedule(config.snapshotEveryTxns(), config.snapshotEvery());
      final TransactionRunner runner =
          new TransactionRunner(clock, target.isolation().label(), config.tenant(), hints, config.reconnectAfterAbort());
      final List<Thread> threads = new ArrayList<>(config.sessions());
      final CountDownLatch ready = new CountDownLatch(config.sessions());
      for (int i = 0; i < config.sessions(); i++) {
        final SessionWorker w = new SessionWorker(i, target, new SessionWorkload(config.workload(), i, hints),
            runner, sink, control, snapshots, limiter, stats, config.retries(), ready, config.workload().seed());
        final Thread t = new Thread(w, "isowatch-session-" + i);
        threads.add(t);
      }
      threads.forEach(Thread::start);
      // Rates are measured from when every session is connected, not from when connecting began.
      ready.await();
      control.start();
      final long start = clock.nowMicros();
      joinWithProgress(threads, start);
      if (config.workload().lists() && control.failure() == null) {
        try {
          FinalRead.run(target, new SessionWorkload(config.workload(), 0, hints).snapshot(), runner, sink, stats);
        } catch (final SinkException e) {
          control.fail(e.getMessage());
        }
      }
      final long elapsed = clock.nowMicros() - start;
      return new RunSummary(target.describe(), target.isolationMix().label(), stats.committed.sum(), stats.aborted.sum(),
          stats.unknown.sum(), stats.snapshots.sum(), stats.reconnects.sum(), stats.errors.sum(),
          stats.failureCodes(), elapsed, control.failure());
    } finally {
      finished.countDown();
    }
  }

  /** Asks every session to stop after its current transaction (e.g. on Ctrl-C). */
  public void stop() {
    control.stop();
  }

  /** Waits until {@link #run()} has returned. */
  public void awaitFinished() throws InterruptedException {
    finished.await();
  }

  private void joinWithProgress(final List<Thread> threads, final long start) throws InterruptedException {
    final long every = config.progressInterval() == null ? 0 : config.progressInterval().toMillis();
    long lastTotal = 0;
    long lastMicros = start;
    long nextReport = System.currentTimeMillis() + every;
    try {
      for (final Thread t : threads) {
        while (t.isAlive()) {
          if (every <= 0 || progress == null) {
            t.join();
            continue;
          }
          t.join(Math.max(1, nextReport - System.currentTimeMillis()));
          if (System.currentTimeMillis() >= nextReport) {
            final long now = clock.nowMicros();
            final long total = stats.total();
            progress.println(progressLine(now - start, total, (total - lastTotal) * 1e6 / Math.max(1, now - lastMicros)));
            progress.flush();
            lastTotal = total;
            lastMicros = now;
            nextReport += every;
          }
        }
      }
    } catch (final InterruptedException e) {
      control.stop();
      for (final Thread t : threads) {
        t.join();
      }
      throw e;
    }
  }

  private String progressLine(final long elapsedMicros, final long total, final double recentRate) {
    return String.format(Locale.ROOT,
        "agent: %6.1fs  committed=%d aborted=%d unknown=%d  rate=%.1f txn/s (last interval %.1f txn/s)",
        elapsedMicros / 1e6, stats.committed.sum(), stats.aborted.sum(), stats.unknown.sum(),
        total * 1e6 / Math.max(1, elapsedMicros), recentRate);
  }
}
