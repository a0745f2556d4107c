package io.isowatch.agent.run;

import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetException.Failure;
import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.target.TargetSession;
import io.isowatch.agent.target.TxnContext;
import io.isowatch.agent.workload.CasHints;
import io.isowatch.agent.workload.PlannedOp;
import io.isowatch.agent.workload.TxnPlan;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one plan on a session and records what the client saw, and only that.
 *
 * <ul>
 *   <li>An operation is recorded once the target answered it: a read with the value returned, a
 *       write once acknowledged. A failed statement is not recorded.
 *   <li>A compare-and-set that succeeded is recorded as {@code r(k,expected) w(k,new)}: the
 *       database matched the expected value and wrote, atomically. One that failed only tells
 *       {@code v ≠ expected}, which a history cannot express, so the runner then reads the key in
 *       the same transaction and records that read: {@code r(k,actual)}.
 *   <li>List-append: a read is recorded with the whole list returned, an append once
 *       acknowledged, as {@code a(k,element)}.
 *   <li>Status: committed when the commit was acknowledged; aborted when the target guarantees it
 *       did not commit (serialization failure, deadlock, lock timeout, at any point) or when a
 *       statement failed before commit and the rollback succeeded; unknown when the commit itself
 *       failed otherwise, the connection was lost, or the rollback after a plain error failed.
 *   <li>Start is taken before the first statement, end after the commit (or the failure)
 *       returned, both from the shared {@link MicroClock}.
 * </ul>
 */
public final class TransactionRunner {
  private final MicroClock clock;
  private final String level;
  private final String tenant;
  private final CasHints hints;
  private final boolean reconnectAfterAbort;

  /**
   * @param level recorded as each transaction's declared level (may be null)
   * @param tenant recorded as each transaction's tenant (may be null)
   * @param reconnectAfterAbort when true, a session is replaced after every aborted transaction
   *     (a workaround for databases whose connections misbehave after an abort)
   */
  public TransactionRunner(
      final MicroClock clock,
      final String level,
      final String tenant,
      final CasHints hints,
      final boolean reconnectAfterAbort) {
    this.clock = clock;
    this.level = level;
    this.tenant = tenant;
    this.hints = hints;
    this.reconnectAfterAbort = reconnectAfterAbort;
  }

  public Attempt run(final TargetSession session, final String sessionName, final long seq, final TxnPlan plan) {
    return run(session, sessionName, seq, plan, null);
  }

  /**
   * Runs {@code plan} at {@code isolation} (null: the session's level) and records that level's
   * label as the transaction's declared level (else the runner's).
   */
  public Attempt run(final TargetSession session, final String sessionName, final long seq, final TxnPlan plan,
      final IsolationLevel isolation) {
    final String id = sessionName + "-" + seq;
    final long start = clock.nowMicros();
    final TxnContext ctx = new TxnContext(id, sessionName, start, isolation);
    final List<Op> ops = new ArrayList<>(plan.ops().size() + 1);
    boolean committing = false;
    TxnStatus status;
    TargetException failure = null;
    boolean broken = false;
    try {
      session.begin(ctx, plan);
      for (final PlannedOp op : plan.ops()) {
        execute(session, op, ops);
      }
      committing = true;
      session.commit();
      status = TxnStatus.COMMITTED;
    } catch (final TargetException e) {
      failure = e;
      status = statusAfter(e, committing);
      // After a failed commit the connection's state is unclear; a fresh one is cheaper than doubt.
      broken = e.failure() == Failure.CONNECTION || (committing && status == TxnStatus.UNKNOWN);
    }
    final long end = clock.nowMicros();
    if (failure != null && !committing && failure.failure() != Failure.CONNECTION) {
      try {
        session.rollback();
      } catch (final TargetException r) {
        // No commit was sent, but after a plain error a failed rollback leaves the outcome in doubt:
        // be conservative. A guaranteed abort stays aborted.
        failure.addSuppressed(r);
        if (failure.failure() == Failure.ERROR) {
          status = TxnStatus.UNKNOWN;
        }
        broken = true;
      }
    }
    session.recorded(ctx, status == TxnStatus.COMMITTED, end);
    if (status == TxnStatus.COMMITTED) {
      for (final Op op : ops) {
        // Only register values are CAS expectations.
        if (op.value() != null && !op.isAppend() && !op.isListRead()) {
          hints.saw(op.key(), op.value());
        }
      }
    }
    final Transaction txn = new Transaction(id, sessionName, seq, status, start, end, ops, tenant,
        isolation != null ? isolation.label() : level, 0);
    return new Attempt(txn, failure,
        broken || session.broken() || (reconnectAfterAbort && status == TxnStatus.ABORTED));
  }

  private static TxnStatus statusAfter(final TargetException e, final boolean committing) {
    return switch (e.failure()) {
      case ABORTED -> TxnStatus.ABORTED;
      case CONNECTION -> TxnStatus.UNKNOWN;
      case ERROR -> committing ? TxnStatus.UNKNOWN : TxnStatus.ABORTED;
    };
  }

  private static void execute(final TargetSession session, final PlannedOp op, final List<Op> ops)
      throws TargetException {
    if (op instanceof PlannedOp.Read r) {
      ops.add(Op.read(r.key(), session.read(r.key())));
    } else if (op instanceof PlannedOp.Write w) {
      session.write(w.key(), w.value());
      ops.add(Op.write(w.key(), w.value()));
    } else if (op instanceof PlannedOp.Cas c) {
      if (session.compareAndSet(c.key(), c.expected(), c.value())) {
        ops.add(Op.read(c.key(), c.expected()));
        ops.add(Op.write(c.key(), c.value()));
      } else {
        ops.add(Op.read(c.key(), session.read(c.key())));
      }
    } else if (op instanceof PlannedOp.ReadList l) {
      final List<Long> list = session.readList(l.key());
      // An absent key is the empty list: the state every list starts in (docs/list-append.md).
      ops.add(Op.readList(l.key(), list == null ? List.of() : list));
    } else if (op instanceof PlannedOp.Append a) {
      session.append(a.key(), a.element());
      ops.add(Op.append(a.key(), a.element()));
    } else if (op instanceof PlannedOp.ReadAll a) {
      final List<Long> values = session.readAll(a.keys());
      for (int i = 0; i < a.keys().size(); i++) {
        ops.add(Op.read(a.keys().get(i), values.get(i)));
      }
    }
  }
}
