package io.isowatch.core.gen;

import io.isowatch.core.history.Transaction;
import java.io.IOException;

/**
 * Receives generated transactions one at a time, in source order. A sink that writes to a file
 * keeps the generator's memory independent of the history's length.
 */
@FunctionalInterface
public interface TransactionSink {
  void accept(Transaction txn) throws IOException;
}
