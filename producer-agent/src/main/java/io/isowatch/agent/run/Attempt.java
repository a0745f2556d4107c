package io.isowatch.agent.run;

import io.isowatch.agent.target.TargetException;
import io.isowatch.core.history.Transaction;

/**
 * One executed transaction as recorded, with why it did not commit.
 *
 * @param txn the transaction as the client saw it
 * @param failure the failure that ended it, or null when it committed
 * @param sessionBroken true when the session must be replaced before the next transaction
 */
public record Attempt(Transaction txn, TargetException failure, boolean sessionBroken) {}
