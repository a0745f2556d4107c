package io.isowatch.core.format;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.HashMap;
import java.util.Map;

/** Collects the transactions a reader produces, in source order, rejecting duplicate ids. */
final class HistoryAccumulator {
  private final History.Builder builder = History.builder();
  private final Map<String, Integer> lineOfId = new HashMap<>();

  /** Appends a transaction; its id must not have been seen before. */
  void add(final Transaction txn) throws InvalidHistoryException {
    final Integer first = lineOfId.putIfAbsent(txn.id(), txn.line());
    if (first != null) {
      throw new InvalidHistoryException(
          txn.line(), "duplicate transaction id '" + txn.id() + "' (first used at line " + first + ")");
    }
    builder.add(txn);
  }

  History build() {
    return builder.build();
  }
}
