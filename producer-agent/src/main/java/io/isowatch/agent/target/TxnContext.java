package io.isowatch.agent.target;

/**
 * Who is running a transaction, handed to the target at begin.
 *
 * @param txnId the transaction's id in the history
 * @param session the session (connection) it runs in
 * @param startMicros the client-side start time recorded for it
 * @param isolation the level it runs at, set by the target before its first statement; null: the
 *     session's level
 */
public record TxnContext(String txnId, String session, long startMicros, IsolationLevel isolation) {
  /** A transaction at the session's level. */
  public TxnContext(final String txnId, final String session, final long startMicros) {
    this(txnId, session, startMicros, null);
  }
}
