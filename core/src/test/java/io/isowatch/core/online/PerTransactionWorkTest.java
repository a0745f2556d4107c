package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Incremental cost: the graph nodes the Pearce–Kelly searches visit per transaction stay bounded
 * as a valid history grows, at every level, on a contended workload (10 keys, 20 sessions) where
 * edges often point backwards in π and force searches. A checker that rescanned its graph would
 * visit a number of nodes growing with the history for each transaction.
 */
class PerTransactionWorkTest {
  @Test
  void shouldVisitABoundedNumberOfNodesPerTransactionWhenTheHistoryGrows() {
    for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
      // Given
      final History small = contended(2_000);
      final History large = contended(40_000);

      // When
      final double perTxnSmall = visitedPerTransaction(small, level);
      final double perTxnLarge = visitedPerTransaction(large, level);

      // Then
      assertTrue(perTxnSmall > 0.1, () -> level + ": searches too rare to measure (" + perTxnSmall + " nodes/txn)");
      assertTrue(perTxnLarge < 20, () -> level + ": " + perTxnLarge + " nodes visited per transaction");
      assertTrue(perTxnLarge < 1.5 * perTxnSmall + 0.5,
          () -> level + ": " + perTxnSmall + " nodes/txn on 2,000 transactions, " + perTxnLarge + " on 40,000");
    }
  }

  private static History contended(final long transactions) {
    return MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(transactions).withKeys(10));
  }

  private static double visitedPerTransaction(final History h, final Level level) {
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults().withLevels(Set.of(level)),
        OnlineOptions.streaming(1_000));
    for (final Transaction t : h.transactions()) {
      c.accept(t);
    }
    c.flush();
    assertEquals(Verdict.SATISFIED, c.result().verdicts().get(level), level::toString);
    assertEquals(0, c.lateTransactions());
    return c.searchedNodes() / (double) h.size();
  }
}
