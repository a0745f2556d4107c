package io.isowatch.core.online;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The transactions a segment has processed, as a {@link History} for the search of version orders
 * ({@code core.solve}): sessions one after the other, each in the engine's session order (its
 * rank), and each transaction's seq cleared so that the list order is the session order the
 * engine used. Buffered transactions are not in it, as they are not in the engine's verdicts yet.
 */
final class ProcessedHistory {
  private ProcessedHistory() {}

  static History of(final OnlineState s) {
    final TxnIndex txns = s.txns;
    final List<Integer> slots = new ArrayList<>();
    for (int slot = 1; slot < txns.size(); slot++) {
      if (txns.piPos(slot) >= 0) {
        slots.add(slot);
      }
    }
    final Integer[] ordered = slots.toArray(new Integer[0]);
    Arrays.sort(ordered, (a, b) -> {
      final int c = Integer.compare(txns.session(a), txns.session(b));
      return c != 0 ? c : Long.compare(txns.rank(a), txns.rank(b));
    });
    final List<Transaction> out = new ArrayList<>(ordered.length);
    for (final int slot : ordered) {
      out.add(txns.txn(slot).withSeq(Transaction.NO_SEQ));
    }
    return new History(out);
  }
}
