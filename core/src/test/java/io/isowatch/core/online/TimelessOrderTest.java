package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Histories without times (text format, JSONL without start/end) are processed in the order of the
 * dependencies their ops show ({@link TimelessOrder}), not session by session nor round-robin by
 * rank: the results are those
 * of the same history with times (SER and SI, which real time does not affect), and the
 * Pearce–Kelly searches stay small (session by session, nearly every cross-session edge points
 * backwards and each insertion searches a large part of the graph).
 */
class TimelessOrderTest {
  private static final CheckOptions SER_SI = CheckOptions.defaults().withLevels(Set.of(Level.SER, Level.SI))
      .withMaxAnomalies(10_000);

  @ParameterizedTest
  @EnumSource(InjectedKind.class)
  void shouldReportWhatTheTimedHistoryReportsWhenTimesAreStripped(final InjectedKind kind) {
    for (final long seed : new long[] {1, 2, 3}) {
      // Given: many concurrent sessions, so that session-by-session order would differ most from real time.
      final History timed = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(seed)
          .withTransactions(4_000).withSessions(32).withKeys(200).withInjections(List.of(new Injection(kind, 2))));
      final History timeless = withoutTimes(timed);

      // When
      final CheckResult withTimes = OnlineChecker.check(timed, SER_SI);
      final CheckResult withoutTimes = OnlineChecker.check(timeless, SER_SI);

      // Then
      final String context = kind + " seed " + seed;
      assertEquals(withTimes.verdicts(), withoutTimes.verdicts(), context);
      assertEquals(withTimes.stats().anomaliesByName(), withoutTimes.stats().anomaliesByName(), context);
      assertEquals(witnesses(withTimes), witnesses(withoutTimes), context);
      assertEquals(withTimes.findings().stream().map(f -> f.kind() + " " + f.txns()).toList(),
          withoutTimes.findings().stream().map(f -> f.kind() + " " + f.txns()).toList(), context);
    }
  }

  @Test
  void shouldSearchFewNodesPerTransactionWithoutTimes() {
    // Given: a valid history of 64 concurrent sessions.
    final History timed = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(5)
        .withTransactions(20_000).withSessions(64).withKeys(2_000));

    // When
    final double perTxnTimed = searchedPerTransaction(timed);
    final double perTxnTimeless = searchedPerTransaction(withoutTimes(timed));

    // Then: session by session, this history visited 2,978 nodes per transaction; round-robin by
    // rank 41 (sessions run at different rates, so round-robin is not real time); in the order of
    // the dependencies (TimelessOrder) 0.015; with times 0.008.
    assertTrue(perTxnTimeless < 1,
        () -> perTxnTimeless + " nodes/txn without times, " + perTxnTimed + " with times");
  }

  private static double searchedPerTransaction(final History h) {
    final OnlineChecker c = new OnlineChecker(SER_SI, OnlineOptions.streaming(1_000));
    h.transactions().forEach(c::accept);
    c.flush();
    assertEquals(Verdict.SATISFIED, c.result().verdicts().get(Level.SER));
    return c.searchedNodes() / (double) h.size();
  }

  /** Each reported anomaly as its name and transactions (the explanation names edges in π's terms). */
  private static Set<String> witnesses(final CheckResult r) {
    final Set<String> out = new TreeSet<>();
    for (final Anomaly a : r.anomalies()) {
      out.add(a.name() + " " + new TreeSet<>(a.txnIds()) + " " + a.violates());
    }
    return out;
  }

  private static History withoutTimes(final History h) {
    return new History(h.transactions().stream().map(t -> new Transaction(t.id(), t.session(), t.seq(), t.status(),
        Transaction.NO_TIME, Transaction.NO_TIME, t.ops(), t.tenant(), t.level(), t.line())).toList());
  }
}
