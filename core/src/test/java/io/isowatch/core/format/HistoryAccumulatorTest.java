package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link HistoryAccumulator}: the transactions in order, a repeated id refused with its first line. */
class HistoryAccumulatorTest {
  private static Transaction txn(final String id, final int line) {
    return new Transaction(id, "s", Transaction.NO_SEQ, TxnStatus.COMMITTED, Transaction.NO_TIME,
        Transaction.NO_TIME, List.of(), null, null, line);
  }

  @Test
  void shouldKeepEveryTransactionInOrderWhenIdsShareHashCodes() throws Exception {
    // Given: "Aa" and "BB" (and their concatenations) have equal String hash codes but differ
    final String[] sameHash = {"AaAa", "AaBB", "BBAa", "BBBB", "Aa", "BB"};
    final HistoryAccumulator acc = new HistoryAccumulator();

    // When
    for (int i = 0; i < sameHash.length; i++) {
      acc.add(txn(sameHash[i], i + 1));
    }
    final History h = acc.build();

    // Then
    assertEquals(sameHash.length, h.size());
    for (int i = 0; i < sameHash.length; i++) {
      assertEquals(sameHash[i], h.transactions().get(i).id());
    }
  }

  @Test
  void shouldNameTheFirstLineWhenAnIdComesAgainAfterTheTableGrew() throws Exception {
    // Given: 100,000 distinct ids (the table grows many times), the id of line 7 again at the end
    final HistoryAccumulator acc = new HistoryAccumulator();
    for (int line = 1; line <= 100_000; line++) {
      acc.add(txn("t" + line, line));
    }

    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class, () -> acc.add(txn("t7", 100_001)));

    // Then
    assertEquals(100_001, e.line());
    assertEquals(true, e.getMessage().contains("duplicate transaction id 't7' (first used at line 7)"), e.getMessage());
    assertEquals(100_000, acc.build().size());
  }
}
