package io.isowatch.core.online;

import static io.isowatch.core.testkit.Outcomes.txns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.RandomHistories;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrivalLateness}: with the grace it computes for an arrival order, a stream has no late
 * transaction and, for the histories it does not hold to the flush, reports exactly what the same
 * arrivals report when every transaction is held to the final flush (an unbounded grace), which is
 * what {@code replay --file} did before.
 */
class ArrivalLatenessTest {
  private static final int COUNT = Integer.getInteger("isowatch.lateness.count", 3_000);
  private static final long BASE_SEED = 7_310_000L;
  private static final long HOUR = 3_600_000_000L;
  private static final long TEN_YEARS_MICROS = 10L * 365 * 24 * 3600 * 1_000_000L;

  @Test
  void shouldLetNoTransactionArriveLateAndReportWhatAFlushOfEverythingReports() {
    // Given: random histories in random arrival orders (near their times, or any order), some
    // with a transaction far ahead of the other sessions, and a future bound of an hour
    final List<String> failures = new ArrayList<>();
    int released = 0;
    int positive = 0;
    int farAhead = 0;
    int held = 0;
    for (int i = 0; i < COUNT; i++) {
      final Random rnd = new Random(BASE_SEED + i);
      final RandomHistories.Generated g = RandomHistories.generate(BASE_SEED + i);
      final CheckOptions options = g.options().withMaxAnomalies(10_000);
      List<Transaction> order = rnd.nextBoolean()
          ? OrderIndependenceTest.boundedArrival(g.history(), rnd.nextInt(200), rnd).order()
          : shuffleKeepingUnsequencedSessions(g.history(), rnd);
      if (rnd.nextInt(4) == 0 && !order.isEmpty() && order.get(0).end() != Transaction.NO_TIME) {
        order = new ArrayList<>(order);
        final int at = rnd.nextInt(order.size());
        order.set(at, TimeSafetyTest.shifted(order.get(at), TEN_YEARS_MICROS));
        farAhead++;
      }

      final OptionalLong computed = ArrivalLateness.graceReleasingAsAFlush(order, HOUR);
      if (computed.isEmpty()) {
        held++;
        continue;
      }

      // When
      final long grace = computed.getAsLong();
      final Streamed streamed = stream(order, options, OnlineOptions.streaming(grace).withFutureBound(HOUR));
      final OnlineChecker flushed =
          stream(order, options, OnlineOptions.streaming(OnlineOptions.UNBOUNDED).withFutureBound(HOUR)).checker();

      // Then
      positive += grace > 0 ? 1 : 0;
      released += streamed.releasedBeforeFlush() ? 1 : 0;
      final CheckResult expected = Results.withoutTime(flushed.result());
      final CheckResult actual = Results.withoutTime(streamed.checker().result());
      if (streamed.checker().lateTransactions() != 0 || !expected.equals(actual)) {
        failures.add("grace " + grace + " µs: " + streamed.checker().lateTransactions() + " late\n held:     " + expected
            + "\n streamed: " + actual + "\n" + g.describe() + "arrival:\n" + HistoryDsl.format(new History(order)));
      }
    }
    assertEquals(List.of(), failures.subList(0, Math.min(3, failures.size())), failures.size() + " failures");
    assertTrue(positive > COUNT / 4, "too few orders needed a grace: " + positive);
    assertTrue(released > COUNT / 4, "too few streams released before the flush: " + released);
    assertTrue(farAhead > COUNT / 20, "too few far-ahead transactions: " + farAhead);
    assertTrue(held < COUNT / 2, "too many histories held to the flush: " + held);
  }

  @Test
  void shouldBeTheLargestStepBackOfATimeBehindTheLatestTimeSeen() {
    // Given: B ends 30 µs before A, C 5 µs before B... the largest step back behind the latest is A - C
    final List<Transaction> order = txns("""
        A s1 w(x,1) @10..100
        B s2 w(y,1) @20..70
        C s3 w(z,1) @30..65
        D s1 w(x,2) @110..120
        E s2 w(y,2) @105..118
        """);

    // When / Then
    assertEquals(35, ArrivalLateness.graceMicros(order, OnlineOptions.UNBOUNDED));
    assertEquals(0, ArrivalLateness.graceMicros(order.subList(0, 1), OnlineOptions.UNBOUNDED));
  }

  @Test
  void shouldNeitherMoveTheLatestTimeNorCountAsLateWhenATransactionLiesFarAhead() {
    // Given: F lies ten years ahead of the other sessions (one hour bound): it does not move the
    // latest time seen, so B behind A by 10 µs needs 10 µs, not ten years
    final List<Transaction> order = new ArrayList<>(txns("""
        A s1 w(x,1) @10..100
        B s2 w(y,1) @20..90
        """));
    order.add(1, TimeSafetyTest.shifted(txns("F s3 w(z,1) @30..40").get(0), TEN_YEARS_MICROS));

    // When / Then: with a future bound, F is judged far ahead; without one it is the latest time
    assertEquals(10, ArrivalLateness.graceMicros(order, HOUR));
    assertEquals(TEN_YEARS_MICROS + 40 - 90, ArrivalLateness.graceMicros(order, OnlineOptions.UNBOUNDED));
  }

  @Test
  void shouldCountARetriedIdOnce() {
    // Given: A's retry arrives after C, far behind: the checker ignores it, so it needs no grace
    final List<Transaction> t = txns("""
        A s1 w(x,1) @10..20
        C s2 w(y,1) @500..600
        """);
    final List<Transaction> order = List.of(t.get(0), t.get(1), t.get(0));

    // When / Then
    assertEquals(0, ArrivalLateness.graceMicros(order, HOUR));
  }

  /** A checker after the arrivals and a flush, and whether it released any before the flush. */
  private record Streamed(OnlineChecker checker, boolean releasedBeforeFlush) {}

  private static Streamed stream(final List<Transaction> order, final CheckOptions options,
      final OnlineOptions online) {
    // Reads wait for their writers until the flush, as check's whole history lets them.
    final OnlineChecker c = new OnlineChecker(options, online.withAbsence(OnlineOptions.UNBOUNDED));
    final Set<String> admitted = new HashSet<>();
    boolean released = false;
    for (final Transaction t : order) {
      c.accept(t);
      admitted.add(t.id());
      released |= c.buffered() < admitted.size();
    }
    c.flush();
    return new Streamed(c, released);
  }

  /** Any order, except that sessions without seq keep their order (it is their session order). */
  private static List<Transaction> shuffleKeepingUnsequencedSessions(final History history, final Random rnd) {
    final List<Transaction> all = new ArrayList<>(history.transactions());
    Collections.shuffle(all, rnd);
    final Map<String, List<Transaction>> sessions = new LinkedHashMap<>();
    for (final Transaction t : history.transactions()) {
      sessions.computeIfAbsent(t.session(), s -> new ArrayList<>()).add(t);
    }
    final Map<String, Integer> next = new HashMap<>();
    final List<Transaction> out = new ArrayList<>(all.size());
    for (final Transaction t : all) {
      final List<Transaction> s = sessions.get(t.session());
      out.add(s.stream().allMatch(Transaction::hasSeq) ? t : s.get(next.merge(t.session(), 1, Integer::sum) - 1));
    }
    return out;
  }
}
