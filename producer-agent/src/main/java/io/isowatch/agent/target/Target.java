package io.isowatch.agent.target;

import io.isowatch.agent.workload.KeySpace;

/**
 * A database the agent runs transactions against. {@link #prepare} puts the key space in its
 * initial state (every key present with value 0); {@link #open} gives one session, used by one
 * thread only.
 */
public interface Target extends AutoCloseable {
  /** A one-line description for logs and the summary, without credentials. */
  String describe();

  /** The isolation level sessions are opened at (with a mix: its first level). */
  IsolationLevel isolation();

  /** The level of each transaction: {@link #isolation()} for all, unless the target runs a mix. */
  default IsolationMix isolationMix() {
    return IsolationMix.of(isolation());
  }

  /** Creates or resets the key space: every key present with value 0. Idempotent. */
  void prepare(KeySpace keys) throws TargetException;

  /** True when the target can run the list-append workload ({@link #prepareLists}). */
  default boolean supportsLists() {
    return false;
  }

  /**
   * Creates or resets the key space for the list-append workload: every key present with the
   * empty list. Only when {@link #supportsLists()}.
   */
  default void prepareLists(final KeySpace keys) throws TargetException {
    throw new TargetException(TargetException.Failure.ERROR, "unsupported",
        describe() + " has no list-append workload (JDBC targets have)");
  }

  /** Opens a session (a connection) named {@code session}. */
  TargetSession open(String session) throws TargetException;

  @Override
  void close();
}
