package io.isowatch.agent.target;

/**
 * Who is running a transaction, handed to the target at begin.
 *
 * @param txnId the transaction's id in the history
 * @param session the session (connection) it runs in
 * @param startMicros the client-side start time recorded for it
 */
public record TxnContext(String txnId, String session, long startMicros) {}
