package io.isowatch.agent.target;

import io.isowatch.agent.workload.TxnPlan;
import java.util.List;

/**
 * One session of a target, used by a single thread, running one transaction at a time:
 * {@link #begin}, then reads and writes, then {@link #commit} or {@link #rollback}. Every method
 * reports failure as a {@link TargetException} whose {@link TargetException.Failure} says what can
 * be concluded; the caller decides what to record.
 */
public interface TargetSession extends AutoCloseable {
  /**
   * Starts a transaction. The plan is a hint a target may use (the faulty target chooses its
   * faults from it); a real database ignores it.
   */
  void begin(TxnContext context, TxnPlan plan) throws TargetException;

  /** The value of {@code key}, or null when the key is absent. */
  Long read(String key) throws TargetException;

  /** Sets {@code key} to {@code value}. */
  void write(String key, long value) throws TargetException;

  /** Sets {@code key} to {@code value} if it holds {@code expected}; true when it did. */
  boolean compareAndSet(String key, long expected, long value) throws TargetException;

  /** The values of {@code keys}, in that order, read by one statement; null for absent keys. */
  List<Long> readAll(List<String> keys) throws TargetException;

  /** List-append workload: the list of {@code key}, in append order; null when the key is absent. */
  default List<Long> readList(final String key) throws TargetException {
    throw new TargetException(TargetException.Failure.ERROR, "unsupported", "this target has no lists");
  }

  /** List-append workload: appends {@code element} to the list of {@code key}. */
  default void append(final String key, final long element) throws TargetException {
    throw new TargetException(TargetException.Failure.ERROR, "unsupported", "this target has no lists");
  }

  void commit() throws TargetException;

  void rollback() throws TargetException;

  /**
   * Called after the client recorded the end of a transaction (committed or not). The faulty
   * target uses it to know which commits precede which starts in real time; others ignore it.
   */
  default void recorded(final TxnContext context, final boolean committed, final long endMicros) {}

  /** True when the session can no longer be used and must be replaced by a new one. */
  boolean broken();

  @Override
  void close();
}
