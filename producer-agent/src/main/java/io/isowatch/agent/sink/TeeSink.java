package io.isowatch.agent.sink;

import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;

/** Hands every transaction to several sinks in turn (e.g. a file and Kafka). */
public final class TeeSink implements TransactionSink {
  private final List<TransactionSink> sinks;

  public TeeSink(final List<TransactionSink> sinks) {
    this.sinks = List.copyOf(sinks);
  }

  @Override
  public void accept(final Transaction txn) throws SinkException, InterruptedException {
    for (final TransactionSink s : sinks) {
      s.accept(txn);
    }
  }

  @Override
  public List<SinkStats> stats() {
    final List<SinkStats> all = new ArrayList<>();
    sinks.forEach(s -> all.addAll(s.stats()));
    return all;
  }

  /** Closes every sink, even when one fails; the first failure is thrown, the others attached. */
  @Override
  public void close() throws SinkException {
    SinkException first = null;
    for (final TransactionSink s : sinks) {
      try {
        s.close();
      } catch (final SinkException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
