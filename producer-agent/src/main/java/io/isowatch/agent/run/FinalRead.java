package io.isowatch.agent.run;

import io.isowatch.agent.sink.SinkException;
import io.isowatch.agent.sink.TransactionSink;
import io.isowatch.agent.target.Target;
import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetSession;
import io.isowatch.agent.workload.TxnPlan;
import io.isowatch.core.history.TxnStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The list-append workload's last transaction: once every session has stopped, one read of every
 * list in a session of its own ({@value #SESSION}), as Jepsen's final reads do. It observes every
 * committed append, so that each key's whole version order is known from the lists: without it,
 * the appends after a key's last read have no known place, and the levels that need a total
 * version order (SI) stay UNKNOWN (docs/list-append.md). Aborts are retried a few times, each a
 * new transaction.
 */
final class FinalRead {
  static final String SESSION = "final";
  private static final int ATTEMPTS = 5;
  private static final Logger LOG = LoggerFactory.getLogger(FinalRead.class);

  private FinalRead() {}

  /** Runs and records the final read; a failure is logged and leaves the history without it. */
  static void run(final Target target, final TxnPlan plan, final TransactionRunner runner, final TransactionSink sink,
      final RunStats stats) throws SinkException, InterruptedException {
    try (TargetSession session = target.open(SESSION)) {
      for (int seq = 0; seq < ATTEMPTS; seq++) {
        final Attempt a = runner.run(session, SESSION, seq, plan);
        sink.accept(a.txn());
        stats.record(a, true);
        if (a.txn().status() == TxnStatus.COMMITTED) {
          return;
        }
        LOG.warn("final read did not commit txn=[{}] status=[{}] error=[{}]", a.txn().id(), a.txn().status(),
            a.failure() == null ? "" : a.failure().getMessage());
        if (a.sessionBroken()) {
          return;
        }
      }
    } catch (final TargetException e) {
      LOG.warn("cannot run the final read error=[{}]", e.getMessage());
    }
  }
}
