package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A long stream with blind writes under the default search budget (docs/streaming-design.md,
 * "Blind writes on a long stream"): past {@link OnlineChecker#BLIND_SEARCH_ALWAYS_BELOW}
 * transactions the search is rationed, and the levels it decides used to be UNKNOWN (deferred)
 * between searches. The appended version order's witness and the violations kept from a search
 * now settle them without one: the answer is decided, not deferred. Uses only the checker's public
 * API, so that the same test run on main shows the deferrals it removes.
 */
class BlindStreamDecidedTest {
  /** A result every this many transactions, as the streams app's punctuation asks a busy tenant. */
  private static final int EVERY = 10;

  private static int[] deferredAndResults(final History h) {
    return deferredAndResults(h, new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(1_000)));
  }

  private static int[] deferredAndResults(final History h, final OnlineChecker c) {
    int deferred = 0;
    int results = 0;
    int i = 0;
    for (final Transaction t : h.transactions()) {
      c.accept(t);
      if (++i % EVERY == 0) {
        final CheckResult r = c.result();
        results++;
        if (c.searchDeferred()) {
          deferred++;
          assertTrue(Level.CLASSIC.stream().anyMatch(l -> r.verdicts().get(l) == Verdict.UNKNOWN),
              "a deferred result leaves a level open");
        }
      }
    }
    return new int[] {deferred, results};
  }

  @Test
  void shouldPublishDecidedAnswersOnALongSerializableStream() {
    // Given: 8,000 rw-register transactions of a serializable database, blind writes throughout
    final History h = OnlineBlindWritesBenchmark.rwRegister(8_000, SimulatedLevel.SER, 3);

    // When
    final int[] dr = deferredAndResults(h);

    // Then: main defers most results past 2,000 transactions (about 70 % of them here)
    assertTrue(dr[0] * 20 <= dr[1], "deferred " + dr[0] + " of " + dr[1] + " results");
  }

  @Test
  void shouldDecideSerOnALongSnapshotIsolationStreamOnceTheAppendedOrderHasACycle() {
    // Given: 8,000 rw-register transactions of an SI database: its write skews close a cycle of the
    // appended order at SER (after about 3,500), which the budget deferred the search of until the end
    final History h = OnlineBlindWritesBenchmark.rwRegister(8_000, SimulatedLevel.SI, 3);

    // When
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(1_000));
    final int[] dr = deferredAndResults(h, c);

    // Then: the witness's lost level is searched at once, the violation found is kept (main: 590 of 800 deferred)
    assertTrue(dr[0] * 20 <= dr[1], "deferred " + dr[0] + " of " + dr[1] + " results");
    final CheckResult r = c.result();
    assertTrue(!c.searchDeferred());
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI));
    assertTrue(c.witnessSearches() <= OnlineChecker.WITNESS_SEARCHES, "searches outside the budget: " + c.witnessSearches());
  }

  @Test
  void shouldBoundTheSearchesRunAtOnceWhenATakenOverOrderLosesALevelAgain() {
    // Given: an SI database's stream on which the witness takes over a search's order and loses it again
    final History h = OnlineBlindWritesBenchmark.rwRegister(3_000, SimulatedLevel.SI, 3);
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(1_000));

    // When
    deferredAndResults(h, c);

    // Then
    assertTrue(c.adoptedOrders() >= 1, "took over " + c.adoptedOrders());
    assertEquals(OnlineChecker.WITNESS_SEARCHES, c.witnessSearches(), "searches outside the budget");
  }

  @Test
  void shouldEqualTheWholeHistoryCheckAfterAFlushWithTheLevelsSettledWithoutSearch() {
    final Random rnd = new Random(27);
    for (int round = 0; round < 9; round++) {
      // Given: histories with blind writes (SER and SI databases) or values written twice, arriving
      // shuffled within windows the grace period covers
      final History h = BlindArrivals.history(round, 2_500 + 100 * round);
      final List<Transaction> arrival = BlindArrivals.shuffledInWindows(h, rnd);
      final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(1_000));

      // When / Then: a result asked after every record, then a flush: the whole check's verdicts and reasons
      BlindArrivals.assertFlushedEqualsWhole(h, arrival, c, round);
    }
  }
}
