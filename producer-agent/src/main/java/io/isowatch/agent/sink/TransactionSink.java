package io.isowatch.agent.sink;

import io.isowatch.core.history.Transaction;
import java.util.List;

/**
 * Where recorded transactions go: a file, Kafka, or several at once ({@link TeeSink}).
 * Shared by all sessions, so implementations are thread-safe. A sink never drops a transaction:
 * {@link #accept} blocks while the sink is full (backpressure) and throws once the sink has
 * failed.
 */
public interface TransactionSink extends AutoCloseable {
  /** Hands one transaction over; may block while the sink catches up. */
  void accept(Transaction txn) throws SinkException, InterruptedException;

  /** Counts so far, one entry per underlying sink. */
  List<SinkStats> stats();

  /** Writes out everything accepted and releases resources; idempotent. */
  @Override
  void close() throws SinkException;
}
