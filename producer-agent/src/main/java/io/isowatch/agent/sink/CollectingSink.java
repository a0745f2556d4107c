package io.isowatch.agent.sink;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;

/** Keeps every transaction in memory, in arrival order, to check the history in-process. */
public final class CollectingSink implements TransactionSink {
  private final List<Transaction> txns = new ArrayList<>();

  @Override
  public synchronized void accept(final Transaction txn) {
    txns.add(txn);
  }

  /** The transactions so far as a history. */
  public synchronized History history() {
    return new History(txns);
  }

  @Override
  public synchronized List<SinkStats> stats() {
    return List.of(new SinkStats("memory", txns.size(), txns.size(), 0, 0));
  }

  @Override
  public void close() {
    // Nothing to release; the history stays readable.
  }
}
