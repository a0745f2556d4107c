package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.testkit.HistoryDsl;
import io.isowatch.core.testkit.Outcomes;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/** List-append histories through {@code isowatch check}'s engine: one test per anomaly Elle's list-append checker reports. */
class ListAppendCheckTest {
  private static final CheckOptions CLASSIC = CheckOptions.defaults();

  private static CheckResult check(final String dsl) {
    return WholeHistoryCheck.check(HistoryDsl.history(dsl), CLASSIC);
  }

  /** SSER, SER and SI verdicts as e.g. {@code "V/V/S"}. */
  private static String verdicts(final CheckResult r) {
    final StringBuilder sb = new StringBuilder();
    for (final Level l : List.of(Level.SSER, Level.SER, Level.SI)) {
      sb.append(sb.length() == 0 ? "" : "/").append(r.verdicts().get(l).name().charAt(0));
    }
    return sb.toString();
  }

  private static Anomaly only(final CheckResult r) {
    assertEquals(1, r.anomalies().size(), () -> "anomalies: " + Outcomes.names(r));
    return r.anomalies().get(0);
  }

  @Test
  void shouldSatisfyEveryLevelWhenAppendsRunOneAfterAnother() {
    // Given: three sessions appending and reading in turn, every read a prefix of [1,2,3]
    final String h = """
        T1 s1 a(x,1) r(x,[1]) @10..20
        T2 s2 r(x,[1]) a(x,2) a(y,1) @30..40
        T3 s3 r(x,[1,2]) a(x,3) r(y,[1]) @50..60
        T4 s1 r(x,[1,2,3]) r(y,[1]) @70..80
        """;
    // When
    final CheckResult r = check(h);
    // Then
    assertEquals(List.of(), Outcomes.names(r));
    assertEquals("S/S/S", verdicts(r));
    assertEquals(List.of(), r.findings());
  }

  @Test
  void shouldReportG0WhenTwoTransactionsAppendToTwoListsInOppositeOrders() {
    // Given: x = [1,2] puts T1 first, y = [1,2] puts T2 first (Elle's G0 example)
    final String h = """
        T1 s1 a(x,1) a(y,2)
        T2 s2 a(x,2) a(y,1)
        T3 s3 r(x,[1,2]) r(y,[1,2])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("G0", a.type());
    assertEquals(List.of("T2 -WW(y=1)-> T1", "T1 -WW(x=1)-> T2"), edges(a));
    assertEquals("V/V/V", verdicts(r));
    assertTrue(a.explanation().contains("T1 = [a(x,1) a(y,2)]"), a.explanation());
  }

  @Test
  void shouldReportG1aWhenAReadShowsAnAbortedAppend() {
    // Given
    final String h = """
        T1 s1 a(x,1) aborted
        T2 s2 r(x,[1])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("G1a AbortedRead [T1, T2]", a.type() + " " + a.displayName() + " " + a.txnIds());
    assertEquals(0, a.read().op(), "the read is the list read, op 0 of T2");
    assertEquals("V/V/V", verdicts(r));
  }

  @Test
  void shouldReportG1bWhenAReadEndsInsideAnotherTransactionsAppends() {
    // Given: T1 appended 1 and 2, and T2 saw only 1
    final String h = """
        T1 s1 a(x,1) a(x,2)
        T2 s2 r(x,[1])
        T3 s3 r(x,[1,2])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    assertEquals("G1b IntermediateRead [T1, T2]", only(r).type() + " " + only(r).displayName() + " " + only(r).txnIds());
    assertEquals("V/V/V", verdicts(r));
  }

  @Test
  void shouldReportG1cWhenEachTransactionReadsTheOthersAppend() {
    // Given
    final String h = """
        T1 s1 a(x,1) r(y,[1])
        T2 s2 a(y,1) r(x,[1])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("G1c", a.type());
    assertEquals(List.of("T2 -WR(y=1)-> T1", "T1 -WR(x=1)-> T2"), edges(a));
    assertEquals("V/V/V", verdicts(r));
  }

  @Test
  void shouldReportALostUpdateWhenTwoTransactionsAppendAfterTheSameRead() {
    // Given: T1 and T2 both read [1] and appended; the final list keeps both, so one append was
    // made after a version its transaction never read (G-single)
    final String h = """
        T0 s0 a(x,1)
        T1 s1 r(x,[1]) a(x,2)
        T2 s2 r(x,[1]) a(x,3)
        T3 s3 r(x,[1,2,3])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("G-single LostUpdate [T1, T2]", a.type() + " " + a.displayName() + " " + a.txnIds());
    assertEquals(List.of("T1 -WW(x=2)-> T2", "T2 -RW(x=1)-> T1"), edges(a));
    assertEquals("V/V/V", verdicts(r));
    assertTrue(a.explanation().contains("T0 = [a(x,1)] (session s0"), a.explanation());
    assertTrue(a.explanation().contains("T1 = [r(x,[1]) a(x,2)]"), a.explanation());
    assertTrue(a.explanation().endsWith(ListAppendCheck.LEGEND), a.explanation());
  }

  @Test
  void shouldReportGSingleWhenAReadMissesPartOfATransaction() {
    // Given: T2 saw T1's append to y but not its append to x (read skew)
    final String h = """
        T1 s1 a(x,1) a(y,1)
        T2 s2 r(x,[]) r(y,[1])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("G-single", a.type());
    assertEquals(List.of("T2 -RW(x=null)-> T1", "T1 -WR(y=1)-> T2"), edges(a));
    assertEquals("V/V/V", verdicts(r));
  }

  @Test
  void shouldReportG2ItemButSatisfySnapshotIsolationOnAWriteSkew() {
    // Given: each read the empty list of the key the other appended to
    final String h = """
        T1 s1 r(x,[]) a(y,1)
        T2 s2 r(y,[]) a(x,1)
        T3 s3 r(x,[1]) r(y,[1])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("G2-item WriteSkew", a.type() + " " + a.displayName());
    assertEquals("V/V/S", verdicts(r));
  }

  @Test
  void shouldReportDuplicateElementsWhenAListHoldsAnElementTwice() {
    // Given
    final String h = """
        T1 s1 a(x,1)
        T2 s2 r(x,[1,1])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("duplicate-elements DuplicateElements [T2]", a.type() + " " + a.displayName() + " " + a.txnIds());
    assertEquals(List.of(), a.cycle());
    assertTrue(a.explanation().startsWith("Let:\n  T1 = T2 [r(x,[1,1])]"), a.explanation());
    assertTrue(a.explanation().contains("holds 1 more than once"), a.explanation());
    assertEquals("V/V/V", verdicts(r));
  }

  @Test
  void shouldReportIncompatibleOrderWhenNeitherReadIsAPrefixOfTheOther() {
    // Given
    final String h = """
        T1 s1 a(x,1)
        T2 s2 a(x,2)
        T3 s3 r(x,[1,2])
        T4 s4 r(x,[2,1])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("incompatible-order IncompatibleOrder [T4, T3]", a.type() + " " + a.displayName() + " " + a.txnIds());
    assertEquals(1L, a.read().value(), "the read that does not fit, [2,1], ending in 1");
    assertEquals("V/V/V", verdicts(r));
  }

  @Test
  void shouldReportIncompatibleOrderWhenOneTransactionReadsBothLists() {
    // Given
    final String h = """
        T1 s1 a(x,1)
        T2 s2 a(x,2)
        T3 s3 r(x,[2,1]) r(x,[1,2])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = r.anomalies().stream().filter(x -> x.type().equals("incompatible-order")).findFirst().orElseThrow();
    assertEquals(List.of("T3"), a.txnIds());
    assertTrue(a.explanation().contains("T1 read x=[1,2] and T1 read x=[2,1]"), a.explanation());
    assertEquals("V/V/V", verdicts(r));
  }

  @Test
  void shouldReportIncompatibleOrderWhenAListShowsALaterAppendWithoutTheEarlierOne() {
    // Given: T1 appended 1 then 2, but the only list shows 2 alone (found by the oracle property test)
    final String h = """
        T1 s0 r(x,[]) a(x,1) a(x,2) @1..5
        T2 s1 r(x,[2]) @6..15
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("incompatible-order IncompatibleOrder [T1, T2]", a.type() + " " + a.displayName() + " " + a.txnIds());
    assertTrue(a.explanation().contains("T1 appended 1 and then 2 to x;\n  - T2 read x=[2], which holds 2 but not 1."),
        a.explanation());
    assertEquals("V/V/V", verdicts(r));
  }

  @Test
  void shouldCountAnIndeterminateTransactionAReadShowsEvenInsideAList() {
    // Given: T2 never saw its outcome, but T4's list holds its 3 and 4, before T3's 5: T3 read [1]
    // and appended after T2's elements it never saw (found by the oracle property test)
    final String h = """
        T1 s1 r(x,[]) r(y,[]) a(y,1) @1..5
        T2 s2 a(x,2) a(y,3) a(y,4) unknown @1..
        T3 s1 r(y,[1]) a(y,5) a(y,6) @6..25
        T4 s0 a(y,7) a(x,8) r(y,[1,3,4,5,6,7]) @26..35
        """;
    // When
    final CheckResult r = check(h);
    // Then
    assertEquals("V/V/V", verdicts(r), () -> Outcomes.names(r).toString());
    assertEquals(1L, r.stats().unknownPromoted());
    assertTrue(r.anomalies().stream().flatMap(a -> a.transactions().stream())
        .filter(t -> t.id().equals("T2")).allMatch(t -> t.status() == io.isowatch.core.history.TxnStatus.UNKNOWN));
  }

  @Test
  void shouldReportAThinAirElement() {
    // Given: nobody appended 7
    final String h = """
        T1 s1 r(x,[7])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    assertEquals(List.of("ThinAirRead [T1]"), Outcomes.names(r));
    assertEquals("V/V/V", verdicts(r));
  }

  @Test
  void shouldReportAnInternalAnomalyWhenATransactionMissesItsOwnAppend() {
    // Given
    final String h = """
        T1 s1 a(x,1) r(x,[])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("internal NotMyOwnWrite", a.type() + " " + a.displayName());
    assertEquals(1, a.read().op(), "the list read is op 1 of the original transaction");
  }

  @Test
  void shouldFindALostAppendOfTheOnlyUnobservedAppendThroughRealTime() {
    // Given: T1's append is acknowledged before T2 starts, and T2 reads the empty list
    final String h = """
        T1 s1 a(x,5) @10..20
        T2 s2 r(x,[]) @30..40
        """;
    // When
    final CheckResult r = check(h);
    // Then
    assertEquals(List.of("G-single-realtime [T2, T1]"), Outcomes.names(r));
    assertEquals("V/S/S", verdicts(r));
  }

  @Test
  void shouldFindLostAppendsWhoseOrderIsOpenThroughRealTime() {
    // Given: two appends no read ever shows, both acknowledged before T3 reads [1]
    final String h = """
        T0 s0 a(x,1) @1..2
        T1 s1 a(x,5) @10..20
        T2 s2 a(x,6) @10..20
        T3 s3 r(x,[1]) @30..40
        """;
    // When
    final CheckResult r = check(h);
    // Then: each is a G-single-realtime cycle through the read that missed it
    assertEquals(List.of("G-single-realtime [T3, T1]", "G-single-realtime [T3, T2]"), Outcomes.names(r));
    assertEquals(List.of("T3 -RW(x=1)-> T1", "T1 -RT-> T3"), edges(r.anomalies().get(0)));
    assertTrue(r.anomalies().get(0).explanation().contains("every append no read shows comes after it"),
        r.anomalies().get(0).explanation());
    // SI: the order of the two unobserved appends is open; the search of version orders finds one
    // in which SI holds (T1 and T2 overlap, but write one list, so one commits first either way)
    assertEquals("V/S/S", verdicts(r), () -> r.reasons().toString());
  }

  @Test
  void shouldFindALostAppendInTheSameSession() {
    // Given: a session appends 5, then reads [1] without it
    final String h = """
        T0 s0 a(x,1)
        T1 s1 a(x,5)
        T2 s1 r(x,[1])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    final Anomaly a = only(r);
    assertEquals("G-single-process SessionGuaranteeViolation [T2, T1]", a.type() + " " + a.displayName() + " " + a.txnIds());
    assertEquals("V/V/V", verdicts(r));
  }

  @Test
  void shouldLeaveTheOrderOfSeveralUnobservedAppendsOpen() {
    // Given: two appends no read shows
    final String h = """
        T1 s1 a(x,1)
        T2 s2 a(x,2)
        """;
    // When
    final CheckResult r = check(h);
    // Then: SER does not depend on their order; SI does, and the search of version orders (issue 14
    // item 3) finds one that satisfies it (SSER: no times)
    assertEquals(List.of(), Outcomes.names(r));
    assertEquals("U/S/S", verdicts(r));
  }

  @Test
  void shouldOrderUnobservedAppendsAfterTheLatestReadWhenTheirOrderIsOpen() {
    // Given: Elle's unobserved-write test: y = [2] is the latest read of y, so the unobserved
    // appends of 1 and 3 to y come after W2's 2 (W2 < W1 on y), while x = [1,2] puts W1 < W2
    final String h = """
        W1 p0 a(x,1) a(y,1)
        W2 p1 a(x,2) a(y,2)
        W3 p2 a(x,3) a(y,3)
        RX p3 r(x,[1,2])
        RY p4 r(y,[2])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    assertEquals("V/V/V", verdicts(r), () -> Outcomes.names(r).toString());
    final Anomaly a = r.anomalies().get(0);
    assertTrue(a.cycle().stream().noneMatch(e -> e.key() != null && e.key().endsWith("'")), a.cycle().toString());
    assertTrue(a.explanation().contains("the latest version of y any read shows"), a.explanation());
  }

  @Test
  void shouldSatisfySerializabilityWhenOnlyTheOrderOfUnobservedAppendsIsOpen() {
    // Given: y = [2]; the appends of 1 and 3 to y are never read, and nothing else orders them
    final String h = """
        W1 p0 a(y,1)
        W2 p1 a(y,2) a(x,1)
        W3 p2 a(y,3)
        R p3 r(y,[2]) r(x,[1])
        """;
    // When
    final CheckResult r = check(h);
    // Then
    // Then: SI too, once the search of version orders (issue 14 item 3) orders the open appends
    assertEquals(List.of(), Outcomes.names(r));
    assertEquals("U/S/S", verdicts(r));
  }

  @Test
  void shouldViolateSnapshotIsolationWhenAReaderOfTheLatestVersionAppendsAmongUnobservedAppends() {
    // Given: ListAppendOraclePropertyTest seed 7 history 698, by hand down to three transactions.
    // x = [1] and y = [2] are the latest lists read; 4 and 5 are appended to x and 3 to y, never
    // read. T2 read x = [1] before appending 4, T3 read y = [2] and appends 5 to x: T3 -rw(y)-> T2
    // (3 follows 2) and T2 -rw(x)-> T3 (5 follows 1). Either order of 4 and 5 adds a WW edge
    // between them that closes a G-single cycle, so no order satisfies SI. T2's append of 4 once
    // went to x itself (it had read x) and T3's to the stand-in key, so no order related them.
    final String h = """
        T1 s1 a(x,1) a(y,2)
        T2 s2 r(x,[1]) a(y,3) a(x,4)
        T3 s3 r(y,[2]) a(x,5)
        """;
    // When
    final CheckResult r = check(h);
    // Then: as ListAppendOracle finds
    assertEquals("V/V/V", verdicts(r), () -> Outcomes.names(r) + " " + r.reasons());
    for (final Level l : List.of(Level.SSER, Level.SER, Level.SI)) {
      assertEquals(false, io.isowatch.core.oracle.ListAppendOracle.holds(HistoryDsl.history(h), l, 0), l::name);
    }
    assertTrue(r.anomalies().stream().anyMatch(a -> a.violates().contains(Level.SI)), () -> Outcomes.names(r).toString());
  }

  @Test
  void shouldViolateSnapshotIsolationWhenAStaleReaderAppendsAmongUnobservedAppends() {
    // Given: ListAppendOraclePropertyTest seed 11 history 3387, by hand down to four transactions.
    // x = [1] is the latest list of x read; 3 and 5 are appended to x, never read. T2 read x = [1]
    // before appending 3, T3 read y = [] before T2's 4: T3 -rw(y)-> T2 and T2 -rw(x)-> T3, and
    // either order of 3 and 5 adds the WW edge that makes the cycle a G-single
    final String h = """
        T1 s1 a(x,1) a(y,2)
        T2 s2 r(x,[1]) a(x,3) a(y,4)
        T3 s3 r(y,[]) a(x,5)
        T4 s4 r(y,[2,4])
        """;
    // When
    final CheckResult r = check(h);
    // Then: as ListAppendOracle finds
    assertEquals("V/V/V", verdicts(r), () -> Outcomes.names(r) + " " + r.reasons());
    for (final Level l : List.of(Level.SSER, Level.SER, Level.SI)) {
      assertEquals(false, io.isowatch.core.oracle.ListAppendOracle.holds(HistoryDsl.history(h), l, 0), l::name);
    }
    assertTrue(r.anomalies().stream().anyMatch(a -> a.violates().contains(Level.SI)), () -> Outcomes.names(r).toString());
  }

  @Test
  void shouldFindG0WhenTheAppendersOfTheLatestVersionsEachAppendUnobservedElementsToTheOtherKey() {
    // Given: ListAppendOraclePropertyTest seed 3 history 8468, by hand down to three transactions.
    // x = [2] and y = [3] are the latest lists read; 4 and 5 are appended to x, 1 and 6 to y,
    // never read. So T1 (2) -ww(x)-> T2 (4) and T2 (3) -ww(y)-> T1 (1): a G0 cycle in every order.
    // The stand-in keys once gave the appender of a base an RW edge to each unobserved append of
    // its key instead of that WW edge: two adjacent RW edges, which SI allows.
    final String h = """
        T1 s1 a(y,1) a(x,2) r(x,[2])
        T2 s2 a(y,3) r(y,[3]) a(x,4)
        T3 s3 a(x,5) a(y,6)
        """;
    // When
    final CheckResult r = check(h);
    // Then: as ListAppendOracle finds
    assertEquals("V/V/V", verdicts(r), () -> Outcomes.names(r) + " " + r.reasons());
    for (final Level l : List.of(Level.SSER, Level.SER, Level.SI)) {
      assertEquals(false, io.isowatch.core.oracle.ListAppendOracle.holds(HistoryDsl.history(h), l, 0), l::name);
    }
    final Anomaly si = r.anomalies().stream().filter(a -> a.violates().contains(Level.SI)).findFirst().orElseThrow(
        () -> new AssertionError(Outcomes.names(r)));
    // And: the counterexample is the G0 cycle, on the original keys
    assertEquals(List.of("T2 -WW(y=3)-> T1", "T1 -WW(x=2)-> T2"), edges(si), si.explanation());
  }

  @Test
  void shouldViolateSnapshotIsolationWhenTwoAppendersOfUnobservedElementsReadTheLatestVersion() {
    // Given: T2 and T3 both read x = [1] and append to x, neither append read: whichever comes
    // second missed the first (a lost update), which SI forbids in either order
    final String h = """
        T1 s1 a(x,1)
        T2 s2 r(x,[1]) a(x,2)
        T3 s3 r(x,[1]) a(x,3)
        """;
    // When
    final CheckResult r = check(h);
    // Then
    assertEquals("V/V/V", verdicts(r), () -> Outcomes.names(r) + " " + r.reasons());
    assertEquals(List.of("LostUpdate [T2, T3]"), Outcomes.names(r));
    for (final Level l : List.of(Level.SSER, Level.SER, Level.SI)) {
      assertEquals(false, io.isowatch.core.oracle.ListAppendOracle.holds(HistoryDsl.history(h), l, 0), l::name);
    }
  }

  @Test
  void shouldDecideEveryLevelButMixedOnListAppendHistories() {
    // Given: a correct history, all levels requested
    final String h = """
        T1 s1 a(x,1) a(y,1)
        T2 s2 r(x,[1]) r(y,[1])
        """;
    // When
    final CheckResult r = WholeHistoryCheck.check(HistoryDsl.history(h), CLASSIC.withLevels(EnumSet.allOf(Level.class)));
    // Then: SSER needs times, which the history has not
    assertEquals("U/S/S", verdicts(r));
    for (final Level l : List.of(Level.PL2, Level.RC, Level.RA, Level.CC, Level.PC, Level.RR)) {
      assertEquals(Verdict.SATISFIED, r.verdicts().get(l), l::name);
    }
    assertEquals(Verdict.UNKNOWN, r.verdicts().get(Level.MIXED));
    assertTrue(r.reasons().get(Level.MIXED).contains("not decided on list-append histories"), r.reasons().toString());
  }

  @Test
  void shouldViolateWeakLevelsByAnAbortedRead() {
    // Given
    final String h = """
        T1 s1 a(x,1) aborted
        T2 s2 r(x,[1])
        """;
    // When
    final CheckResult r = WholeHistoryCheck.check(HistoryDsl.history(h), CLASSIC.withLevels(EnumSet.allOf(Level.class)));
    // Then
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.RC));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.PL2));
  }

  @Test
  void shouldRefuseListAppendTransactionsInTheTransactionAtATimeEngine() {
    // Given: the engine of the segmented check and the streaming checker
    final io.isowatch.core.online.OnlineChecker online =
        new io.isowatch.core.online.OnlineChecker(CLASSIC, io.isowatch.core.online.OnlineOptions.batch());
    final io.isowatch.core.history.Transaction t = HistoryDsl.history("T1 s1 a(x,1)").transactions().get(0);
    // When
    final IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
        () -> online.accept(t));
    // Then: an input error naming the way that works, not an internal error
    assertTrue(e.getMessage().contains("check the whole history with isowatch check, without a horizon"), e.getMessage());
  }

  private static List<String> edges(final Anomaly a) {
    return a.cycle().stream()
        .map(e -> e.from() + " -" + e.kind() + (e.key() == null ? "" : "(" + e.key() + "=" + e.value() + ")") + "-> " + e.to())
        .toList();
  }

  @Test
  void shouldSettleSerWithoutTheSearchWhenMoreThanTwentyKeysHaveUnobservedAppends() {
    // Given: 21 keys, each with a read of [1] and then two appends no read shows (an open order per key,
    // more keys than the engine names one by one)
    final StringBuilder dsl = new StringBuilder();
    for (int k = 0; k < 21; k++) {
      dsl.append("A").append(k).append(" s").append(k).append(" a(k").append(k).append(",1)\n");
      dsl.append("R").append(k).append(" s").append(k).append(" r(k").append(k).append(",[1])\n");
      dsl.append("B").append(k).append(" s").append(k).append(" a(k").append(k).append(",2)\n");
      dsl.append("C").append(k).append(" t").append(k).append(" a(k").append(k).append(",3)\n");
    }

    // When: the search is off
    final CheckResult r = WholeHistoryCheck.check(HistoryDsl.history(dsl.toString()),
        CLASSIC.withSolverBudget(java.time.Duration.ZERO));

    // Then: SER (and SI, which SER implies) settled by the edges every order has in common
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER), r.reasons()::toString);
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI), r.reasons()::toString);
  }
}
