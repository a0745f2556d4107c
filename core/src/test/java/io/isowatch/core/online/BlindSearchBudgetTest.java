package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The search of version orders on a long stream ({@link OnlineChecker#result()}, docs/streaming-design.md,
 * "Blind writes on a long stream"): rationed by a budget per transaction processed, never re-run per
 * record, UNKNOWN with a reason while deferred, and after a flush equal to the whole-history check.
 * The budgets here are deliberately tiny so that the rationing shows on small histories.
 */
class BlindSearchBudgetTest {
  /** Search whenever as many transactions arrived since the last search as it covered (doubling), from the first. */
  private static final OnlineChecker.SearchBudget DOUBLING = new OnlineChecker.SearchBudget(1, 0, Long.MAX_VALUE);

  private static OnlineChecker checker(final OnlineOptions online) {
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), online);
    c.searchBudget(DOUBLING);
    // The rationing itself: the appended order's witness would settle these streams without a search.
    c.settleWithoutSearch(false);
    return c;
  }

  @Test
  void shouldSearchALogarithmicNumberOfTimesWhenAResultIsAskedAfterEveryRecord() {
    // Given: 1,500 rw-register transactions with blind writes, a result asked after each one
    final History h = OnlineBlindWritesBenchmark.rwRegister(1_500);
    final OnlineChecker c = checker(OnlineOptions.streaming(200));
    int deferredResults = 0;
    String reason = null;

    // When
    for (final Transaction t : h.transactions()) {
      c.accept(t);
      final CheckResult r = c.result();
      if (c.searchDeferred()) {
        deferredResults++;
        reason = r.reasons().get(Level.SER);
        assertEquals(Verdict.UNKNOWN, r.verdicts().get(Level.SER), "a deferred search must leave SER UNKNOWN");
      }
    }

    // Then: a doubling budget searches about log2(1,500) ~ 11 times, not 1,500
    assertTrue(c.blindSearches() <= 14, "searches: " + c.blindSearches());
    assertTrue(deferredResults > 1_000, "deferred results: " + deferredResults);
    assertTrue(reason != null && reason.contains("deferred") && reason.contains("SER SATISFIED"), reason);
  }

  @Test
  void shouldSearchWhenAskedAgainWithoutNewInput() {
    // Given: a search at 400 transactions, then 100 more (less than the 400 the doubling budget waits for)
    final List<Transaction> txns = OnlineBlindWritesBenchmark.rwRegister(600).transactions();
    final OnlineChecker c = checker(OnlineOptions.streaming(10));
    txns.subList(0, 400).forEach(c::accept);
    c.result();
    final long before = c.blindSearches();
    txns.subList(400, 500).forEach(c::accept);
    final CheckResult deferred = c.result();
    assertTrue(c.searchDeferred(), deferred.reasons().toString());

    // When: asked again, nothing new (a quiet stream)
    final CheckResult quiet = c.result();

    // Then
    assertFalse(c.searchDeferred());
    assertEquals(before + 1, c.blindSearches());
    assertEquals(Verdict.SATISFIED, quiet.verdicts().get(Level.SER), quiet.reasons().toString());
  }

  @Test
  void shouldWaitForTheSearchTimeTheNewTransactionsEarned() {
    // Given: a budget where transactions earn no search time, so only the first search, a quiet
    // stream or a flush can run one
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(200));
    c.searchBudget(new OnlineChecker.SearchBudget(1, 0, 0));
    c.settleWithoutSearch(false);
    final History h = OnlineBlindWritesBenchmark.rwRegister(800);

    // When
    for (final Transaction t : h.transactions()) {
      c.accept(t);
      c.result();
    }
    final long streamed = c.blindSearches();
    c.flush();
    final CheckResult r = c.result();

    // Then
    assertEquals(1, streamed);
    assertEquals(2, c.blindSearches());
    assertEquals(OnlineChecker.check(h, CheckOptions.defaults()).verdicts(), r.verdicts());
  }

  @Test
  void shouldEqualTheWholeHistoryCheckAfterAFlushWhateverTheArrivalOrder() {
    final Random rnd = new Random(14);
    for (int round = 0; round < 12; round++) {
      // Given: histories with blind writes (SER and SI databases) or values written twice, arriving
      // shuffled within windows the grace period covers
      final History h = BlindArrivals.history(round, 300 + 50 * round);
      final List<Transaction> arrival = BlindArrivals.shuffledInWindows(h, rnd);
      final OnlineChecker c = checker(OnlineOptions.streaming(1_000));

      // When / Then: a result asked after every record, then a flush: the whole check's verdicts and reasons
      BlindArrivals.assertFlushedEqualsWhole(h, arrival, c, round);
      // And: few searches
      assertTrue(c.blindSearches() < h.transactions().size() / 10, "round " + round + ": " + c.blindSearches());
    }
  }

  @Test
  void shouldKeepTheStateBoundedAndStopSearchingOnceACutPrunedTransactions() {
    // Given: a horizon of 100 transactions on a stream of 5,000 with blind writes, a result after every record
    final OnlineChecker c = checker(OnlineOptions.streaming(100).withHorizon(Horizon.ofTransactions(100)));
    int maxRetained = 0;
    long searchesAtFirstCut = -1;
    CheckResult last = null;

    // When
    for (final Transaction t : OnlineBlindWritesBenchmark.rwRegister(5_000).transactions()) {
      c.accept(t);
      last = c.result();
      maxRetained = Math.max(maxRetained, c.retainedTransactions());
      if (searchesAtFirstCut < 0 && c.prunedTransactions() > 0) {
        searchesAtFirstCut = c.blindSearches();
      }
    }

    // Then: the state stays within a few horizons, no search runs after the first cut, and the
    // levels the search would decide are UNKNOWN, the reason saying why
    assertTrue(maxRetained <= 600, "retained: " + maxRetained);
    assertTrue(searchesAtFirstCut >= 0, "no cut");
    assertEquals(searchesAtFirstCut, c.blindSearches());
    assertEquals(Verdict.UNKNOWN, last.verdicts().get(Level.SER));
    final String reason = last.reasons().get(Level.SER);
    assertTrue(reason.contains("pruned"), reason);
  }
}
