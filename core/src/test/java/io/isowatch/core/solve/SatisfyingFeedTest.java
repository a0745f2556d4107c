package io.isowatch.core.solve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.BruteForceOracle;
import io.isowatch.core.oracle.OracleVerdict;
import io.isowatch.core.oracle.RandomHistories;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link VersionOrderSearch#satisfyingFeed} (issue 14, item 3): on random histories with blind
 * writes (values written once), whenever the brute-force oracle finds SER (SI) satisfiable, the
 * search gives a feed order, and the version order it stands for (each key's writers in feed order,
 * {@link BruteForceOracle#judgeInOrder}) satisfies SER (SI) by the oracle's own graph; where the
 * oracle finds the level violated it gives none.
 */
class SatisfyingFeedTest {
  private static final long BASE_SEED = Long.getLong("isowatch.oracle.seed", 20_261_128L);
  private static final int COUNT = Integer.getInteger("isowatch.oracle.count", 4_000);

  @Test
  void shouldGiveAFeedWhoseAppendedOrderSatisfiesTheLevelExactlyWhenTheLevelHolds() {
    final List<String> failures = new ArrayList<>();
    int fed = 0;
    for (int i = 0; i < COUNT; i++) {
      // Given
      final RandomHistories.Generated g = RandomHistories.generateWithBlindWrites(BASE_SEED + i);
      final History h = g.history();
      final OracleVerdict all = BruteForceOracle.judge(h, g.options());
      for (final Level level : List.of(Level.SER, Level.SI)) {
        // When
        final List<Transaction> feed = VersionOrderSearch.satisfyingFeed(h, level, g.options().initialValue(),
            g.options().rtSkewMicros(), Duration.ofSeconds(10));

        // Then
        if (feed == null) {
          if (all.holds(level) && h.transactions().stream().map(Transaction::ops).flatMap(List::stream)
              .filter(o -> o.isWrite()).map(o -> o.key() + "=" + o.value()).distinct().count()
              == h.transactions().stream().map(Transaction::ops).flatMap(List::stream).filter(o -> o.isWrite()).count()) {
            failures.add("seed " + g.seed() + ": " + level + " holds but no feed\n" + g.dsl());
          }
          continue;
        }
        final OracleVerdict inOrder = BruteForceOracle.judgeInOrder(h, g.options(), feed);
        if (inOrder == null) {
          continue;
        }
        fed++;
        if (!all.holds(level) || !inOrder.holds(level)) {
          failures.add("seed " + g.seed() + ": " + level + " feed " + feed.stream().map(Transaction::id).toList()
              + " but the oracle says " + all.holds(level) + ", in that order " + inOrder.holds(level) + "\n" + g.dsl());
        }
      }
    }
    System.out.println("SatisfyingFeedTest: " + COUNT + " histories, " + fed + " feeds judged, " + failures.size()
        + " disagreements");
    assertTrue(failures.isEmpty(), () -> String.join("\n\n", failures.subList(0, Math.min(5, failures.size()))));
    assertTrue(fed > COUNT / 2, "too few feeds: " + fed);
  }
}
