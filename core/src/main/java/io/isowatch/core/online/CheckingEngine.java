package io.isowatch.core.online;

import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.Transaction;
import java.util.List;

/**
 * The checking engine of one segment (docs/streaming-design.md): its {@link OnlineState}, the
 * {@link TransactionChecker} that processes each released transaction, the {@link Publisher} of
 * what it finds and the {@link ResultBuilder} that reads the state as a result. It knows nothing
 * of arrival order (the {@link Sequencer} releases transactions to it in π order) nor of cuts (the
 * {@link SegmentedEngine} replaces it by the next segment's engine at each cut).
 */
final class CheckingEngine {
  final OnlineState state;
  final Publisher out;
  final ResultBuilder results;
  private final TransactionChecker checker;

  CheckingEngine(final OnlineState state) {
    this.state = state;
    this.out = new Publisher(state);
    this.checker = new TransactionChecker(state, out);
    this.results = new ResultBuilder(state);
  }

  /** Processes a released slot (design steps 2-8) and notes where a cut could be placed after it. */
  void process(final int slot) {
    checker.release(slot);
    results.complete(false);
    final OnlineState s = state;
    final boolean snapshot = s.online.horizon().onSnapshots() && Segmenter.isSnapshot(s.txns.txn(slot), s.chains.keyCount());
    s.cutPoints.processed(s.txns.endKey(slot), snapshot, snapshot ? s.txns.piPos(slot) : -1);
  }

  /** Reports a transaction processed out of π order as LATE_TRANSACTION. */
  void late(final Transaction t, final String message) {
    checker.late(t, message);
  }

  /** Reports every read still waiting for a writer as a ThinAirRead (the end of a flush). */
  void expireAll() {
    checker.expireAll();
    results.complete(true);
  }

  /** The events published since the last take, in order. */
  List<OnlineEvent> take() {
    return out.take();
  }

  CheckResult result(final double seconds) {
    return results.result(seconds);
  }
}
