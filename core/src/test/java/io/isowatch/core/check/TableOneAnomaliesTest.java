package io.isowatch.core.check;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static io.isowatch.core.testkit.Outcomes.assertVerdicts;
import static io.isowatch.core.testkit.Outcomes.finding;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 14 anomalies of MTC Table I / Figure 5, each as the smallest history that shows it, plus the
 * other cycle classes and the input situations around them (promotion, blind and repeated writes,
 * missing times, skew, caps). Each asserts the verdicts and the anomaly's type, name, violated
 * levels and transactions; for cycles the transactions are compared up to rotation, since any
 * starting point of a cycle is the same cycle.
 *
 * <p>Every case runs on the batch {@link Checker} here and on the incremental engine in {@code
 * TableOneAnomaliesOnlineTest}, which overrides {@link #engine}.
 */
class TableOneAnomaliesTest {
  private static final Set<Level> ALL = Level.CLASSIC;
  private static final Set<Level> SSER_SER = EnumSet.of(Level.SSER, Level.SER);
  private static final List<Verdict> VIOLATED_ALL = List.of(Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
  private static final List<Verdict> VIOLATED_SSER_SER = List.of(Verdict.VIOLATED, Verdict.VIOLATED, Verdict.SATISFIED);
  private static final List<Verdict> VIOLATED_SSER = List.of(Verdict.VIOLATED, Verdict.SATISFIED, Verdict.SATISFIED);

  /** One anomaly alone: its smallest history (one line a transaction), the verdicts and what the anomaly is. */
  record OnlyAnomaly(String should, List<String> history, List<Verdict> verdicts, String type, String name,
      Set<Level> violates, List<String> txns, List<EdgeKind> cycleKinds, List<Edge> cycleEdges) {
    /** The kinds of the cycle's edges, up to rotation. */
    OnlyAnomaly withCycle(final EdgeKind... kinds) {
      return new OnlyAnomaly(should, history, verdicts, type, name, violates, txns, List.of(kinds), cycleEdges);
    }

    /** Edges the cycle must contain. */
    OnlyAnomaly withEdges(final Edge... edges) {
      return new OnlyAnomaly(should, history, verdicts, type, name, violates, txns, cycleKinds, List.of(edges));
    }

    @Override
    public String toString() {
      return should;
    }
  }

  private static OnlyAnomaly anomaly(final String should, final List<String> history, final List<Verdict> verdicts,
      final String type, final String name, final Set<Level> violates, final List<String> txns) {
    return new OnlyAnomaly(should, history, verdicts, type, name, violates, txns, List.of(), List.of());
  }

  static List<OnlyAnomaly> onlyAnomalies() {
    return List.of(
        anomaly("shouldReportThinAirReadWhenAValueWasNeverWritten",
            List.of("T1 s1 r(x,5)"),
            VIOLATED_ALL, "thin-air", "ThinAirRead", ALL, List.of("T1")),
        // Then: writer first, then reader
        anomaly("shouldReportAbortedReadWhenTheWriterAborted",
            List.of("T1 s1 r(x,0) w(x,1) aborted", "T2 s2 r(x,1)"),
            VIOLATED_ALL, "G1a", "AbortedRead", ALL, List.of("T1", "T2")),
        // Then: one transaction is involved, listed once
        anomaly("shouldReportFutureReadWhenATransactionReadsItsOwnLaterWrite",
            List.of("T1 s1 r(x,1) w(x,1)"),
            VIOLATED_ALL, "internal", "FutureRead", ALL, List.of("T1")),
        anomaly("shouldReportNotMyLastWriteWhenAReadSeesAnEarlierOwnWrite",
            List.of("T1 s1 r(x,0) w(x,1) w(x,2) r(x,1)"),
            VIOLATED_ALL, "internal", "NotMyLastWrite", ALL, List.of("T1")),
        anomaly("shouldReportNotMyOwnWriteWhenAReadIgnoresAnOwnWrite",
            List.of("T1 s1 r(x,0) w(x,1) r(x,0)"),
            VIOLATED_ALL, "internal", "NotMyOwnWrite", ALL, List.of("T1")),
        anomaly("shouldReportIntermediateReadWhenAnOverwrittenOwnVersionIsSeen",
            List.of("T1 s1 r(x,0) w(x,1) w(x,2)", "T2 s2 r(x,1)"),
            VIOLATED_ALL, "G1b", "IntermediateRead", ALL, List.of("T1", "T2")),
        anomaly("shouldReportNonRepeatableReadsWhenTwoReadsOfAKeyDiffer",
            List.of("T1 s1 r(x,0) w(x,1)", "T2 s2 r(x,0) r(x,1)"),
            VIOLATED_ALL, "internal", "NonRepeatableReads", ALL, List.of("T2")),
        // Given: T2 follows T1 in s1 but reads the x that T1 overwrote
        anomaly("shouldReportSessionGuaranteeViolationWhenASessionMissesItsOwnWrite",
            List.of("T1 s1 r(x,0) w(x,1)", "T2 s1 r(x,0)"),
            VIOLATED_ALL, "G-single-process", "SessionGuaranteeViolation", ALL, List.of("T1", "T2"))
            .withCycle(EdgeKind.SO, EdgeKind.RW),
        // Given: T3 reads y from T2, then the x that T2 had already overwritten
        anomaly("shouldReportNonMonotonicReadWhenTheNewerKeyIsReadFirst",
            List.of("T1 s1 r(x,0) w(x,1)", "T2 s2 r(x,1) w(x,2) r(y,0) w(y,2)", "T3 s3 r(y,2) r(x,1)"),
            VIOLATED_ALL, "G-single", "NonMonotonicRead", ALL, List.of("T2", "T3"))
            .withEdges(new Edge("T2", "T3", EdgeKind.WR, "y", 2L), new Edge("T3", "T2", EdgeKind.RW, "x", 1L)),
        // Given: T2 sees T1's y but not T1's x
        anomaly("shouldReportFracturedReadWhenTheOlderKeyIsReadFirst",
            List.of("T1 s1 r(x,0) w(x,1) r(y,0) w(y,1)", "T2 s2 r(x,0) r(y,1)"),
            VIOLATED_ALL, "G-single", "FracturedRead", ALL, List.of("T1", "T2"))
            .withEdges(new Edge("T1", "T2", EdgeKind.WR, "y", 1L), new Edge("T2", "T1", EdgeKind.RW, "x", 0L)),
        // Given: T3 sees T2, which saw T1, but T3 misses T1
        anomaly("shouldReportCausalityViolationWhenACauseIsMissedThroughAChain",
            List.of("T1 s1 r(x,0) w(x,1)", "T2 s2 r(x,1) r(y,0) w(y,1)", "T3 s3 r(y,1) r(x,0)"),
            VIOLATED_ALL, "G-single", "CausalityViolation", ALL, List.of("T1", "T2", "T3"))
            .withCycle(EdgeKind.WR, EdgeKind.WR, EdgeKind.RW),
        anomaly("shouldReportLongForkWhenTwoReadersSeeIndependentWritesInOppositeOrders",
            List.of("T1 s1 r(x,0) w(x,1)", "T2 s2 r(y,0) w(y,1)", "T3 s3 r(x,1) r(y,0)", "T4 s4 r(y,1) r(x,0)"),
            VIOLATED_ALL, "G2-item", "LongFork", ALL, List.of("T1", "T3", "T2", "T4"))
            .withCycle(EdgeKind.WR, EdgeKind.RW, EdgeKind.WR, EdgeKind.RW),
        anomaly("shouldReportWriteSkewButSatisfySiWhenTwoTransactionsWriteDisjointKeysTheyBothRead",
            List.of("T1 s1 r(x,0) r(y,0) w(x,1)", "T2 s2 r(x,0) r(y,0) w(y,2)"),
            VIOLATED_SSER_SER, "G2-item", "WriteSkew", SSER_SER, List.of("T1", "T2"))
            .withCycle(EdgeKind.RW, EdgeKind.RW),
        // Given: T1 runs first in s1 yet overwrites what T2 wrote later in s1
        anomaly("shouldReportG0ProcessWhenASessionOrderContradictsTheVersionOrder",
            List.of("T1 s1 r(x,2) w(x,3)", "T2 s1 r(x,0) w(x,2)"),
            VIOLATED_ALL, "G0-process", null, ALL, List.of("T1", "T2")),
        anomaly("shouldReportG1cWhenTwoTransactionsReadEachOther",
            List.of("T1 s1 r(x,0) w(x,1) r(y,2)", "T2 s2 r(y,0) w(y,2) r(x,1)"),
            VIOLATED_ALL, "G1c", null, ALL, List.of("T1", "T2"))
            .withCycle(EdgeKind.WR, EdgeKind.WR),
        anomaly("shouldViolateOnlySserWhenAStaleReadStartsAfterTheWriterEnded",
            List.of("T1 s1 r(x,0) w(x,1) @10..20", "T2 s2 r(x,0) @30..40"),
            VIOLATED_SSER, "G-single-realtime", null, EnumSet.of(Level.SSER), List.of("T1", "T2"))
            .withCycle(EdgeKind.RT, EdgeKind.RW),
        // Given: U1 is read, so its own thin-air read counts
        anomaly("shouldCheckAPromotedUnknownTransactionLikeACommittedOne",
            List.of("U1 s1 r(x,0) r(y,77) w(x,1) unknown", "C1 s2 r(x,1)"),
            VIOLATED_ALL, "thin-air", "ThinAirRead", ALL, List.of("U1"))
    );
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("onlyAnomalies")
  void shouldReportTheOneAnomalyItsSmallestHistoryShows(final OnlyAnomaly c) {
    // Given
    final String h = String.join("\n", c.history());

    // When
    final CheckResult r = check(h);

    // Then: the verdicts and the anomaly; for a cycle also its edge kinds and edges, where the case gives them
    assertVerdicts(r, c.verdicts().get(0), c.verdicts().get(1), c.verdicts().get(2));
    final Anomaly a = assertOnlyAnomaly(r, c.type(), c.name(), c.violates(), c.txns());
    if (!c.cycleKinds().isEmpty()) {
      assertCycleKinds(a, c.cycleKinds());
    }
    for (final Edge e : c.cycleEdges()) {
      assertTrue(a.cycle().contains(e), a.cycle()::toString);
    }
  }

  // ---- (h)-(n): cycles ----

  @Test
  void shouldReportLostUpdateWhenTwoTransactionsOverwriteTheSameVersion() {
    // Given
    final String h = """
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,0) w(x,2)
        """;

    // When
    final CheckResult r = check(h);

    // Then: the cycle starts at the earlier of the pair and is given exactly
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
    final Anomaly a = assertOnlyAnomaly(r, "G-single", "LostUpdate", ALL, List.of("T1", "T2"));
    assertEquals(List.of("T1", "T2"), a.txnIds());
    assertEquals(List.of(new Edge("T1", "T2", EdgeKind.WW, "x", 1L), new Edge("T2", "T1", EdgeKind.RW, "x", 0L)),
        a.cycle());
  }

  // ---- other cycle classes ----

  @Test
  void shouldReportG0WhenWritesAreOrderedBothWays() {
    // Given: T2 overwrote T1's x, and T1 overwrote T2's y
    final String h = """
        T1 s1 r(x,0) w(x,1) r(y,2) w(y,3)
        T2 s2 r(y,0) w(y,2) r(x,1) w(x,4)
        """;

    // When
    final CheckResult r = check(h);

    // Then
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
    final Anomaly a = assertOnlyAnomaly(r, "G0", null, ALL, List.of("T1", "T2"));
    assertTrue(a.cycle().stream().allMatch(e -> e.kind() == EdgeKind.WW || e.kind() == EdgeKind.WR), a.cycle()::toString);
  }

  // ---- real time ----

  @Test
  void shouldDropTheRtEdgeWhenTheSkewToleranceCoversTheGap() {
    // Given: T1 ends at 20, T2 starts at 30
    final String h = """
        T1 s1 r(x,0) w(x,1) @10..20
        T2 s2 r(x,0) @30..40
        """;

    // When
    final CheckResult tolerant = check(h, CheckOptions.defaults().withRtSkewMicros(10));
    final CheckResult borderline = check(h, CheckOptions.defaults().withRtSkewMicros(9));

    // Then: RT needs 20 + skew < 30
    assertVerdicts(tolerant, Verdict.SATISFIED, Verdict.SATISFIED, Verdict.SATISFIED);
    assertEquals(List.of(), tolerant.anomalies());
    assertVerdicts(borderline, Verdict.VIOLATED, Verdict.SATISFIED, Verdict.SATISFIED);
  }

  @Test
  void shouldReportTheWriteSkewWhenItsTransactionsAreAlsoOrderedInRealTime() {
    // Given: a write skew where T1 also ended before T2 started; the step T1 → T2 carries both RT
    // and RW(y), so RT is not needed and the cycle T1 -RW(y)-> T2 -RW(x)-> T1 violates SER
    // (found by CheckerMatchesOracleTest, seed 20262362)
    final String h = """
        T1 s1 r(x,0) r(y,0) w(x,1) @10..20
        T2 s2 r(x,0) r(y,0) w(y,2) @30..40
        """;

    // When
    final CheckResult r = check(h);

    // Then: SER is violated, so some anomaly must say so
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.SATISFIED);
    final Anomaly a = r.anomalies().stream().filter(x -> x.violates().contains(Level.SER)).findFirst()
        .orElseThrow(() -> new AssertionError("SER is VIOLATED but no anomaly proves it: " + r.anomalies()));
    assertEquals("G2-item", a.type());
    assertEquals("WriteSkew", a.name());
    assertEquals(SSER_SER, classic(a.violates()));
    assertRotation(List.of("T1", "T2"), a.txnIds());
  }

  @Test
  void shouldCountSessionOrderBetweenNonAdjacentTransactionsWhenClassifyingACycle() {
    // Given: T1 precedes T3 in session s1 (T2 between them) and read the x T3 overwrote; T3 → T4
    // → T1 by WR. The step T1 → T3 carries SO as well as RW, so it is not an RW-only step
    // (found by CheckerMatchesOracleTest, seed 20262972)
    final String h = """
        T1 s1 r(x,0) r(w,1)
        T2 s1 r(y,0)
        T3 s1 r(x,0) w(x,1) r(z,0) w(z,1)
        T4 s2 r(z,1) r(w,0) w(w,1)
        """;

    // When
    final CheckResult r = check(h);

    // Then: every cycle here is a cycle of SO and WR steps: G1c-process, violating every level
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
    assertFalse(r.anomalies().isEmpty());
    for (final Anomaly a : r.anomalies()) {
      assertEquals("G1c-process", a.type(), () -> a.txnIds() + " " + a.cycle());
      assertNull(a.name(), () -> a.txnIds() + " " + a.cycle());
      assertEquals(ALL, classic(a.violates()), () -> a.txnIds() + " " + a.cycle());
    }
  }

  @Test
  void shouldNotCallACycleRealtimeWhenItsRtStepAlsoHasSessionOrder() {
    // Given: the history above with times; T1 → T3 is also in real time, but needs no RT
    final String h = """
        T1 s1 r(x,0) r(w,1) @10..20
        T2 s1 r(y,0) @30..40
        T3 s1 r(x,0) w(x,1) r(z,0) w(z,1) @50..60
        T4 s2 r(z,1) r(w,0) w(w,1) @55..70
        """;

    // When
    final CheckResult r = check(h);

    // Then
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
    for (final Anomaly a : r.anomalies()) {
      assertFalse(a.type().endsWith("-realtime"), () -> a.type() + " " + a.txnIds() + " " + a.cycle());
      assertEquals(ALL, classic(a.violates()), () -> a.type() + " " + a.txnIds() + " " + a.cycle());
    }
  }

  @Test
  void shouldLeaveSserUnknownWhenTimesAreMissingAndNothingIsViolated() {
    // Given
    final String h = """
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1)
        """;

    // When
    final CheckResult r = check(h);

    // Then
    assertVerdicts(r, Verdict.UNKNOWN, Verdict.SATISFIED, Verdict.SATISFIED);
    assertTrue(r.reasons().containsKey(Level.SSER));
    assertFinding(r, FindingKind.MISSING_TIMESTAMPS, EnumSet.of(Level.SSER), 2);
    assertEquals(List.of(), r.anomalies());
  }

  @Test
  void shouldViolateSserWithoutTimesWhenSerIsViolated() {
    // Given: the write skew, without times
    final String h = """
        T1 s1 r(x,0) r(y,0) w(x,1)
        T2 s2 r(x,0) r(y,0) w(y,2)
        """;

    // When
    final CheckResult r = check(h);

    // Then
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SSER));
    assertFalse(r.reasons().containsKey(Level.SSER));
  }

  // ---- which transactions count ----

  @Test
  void shouldPromoteUnknownTransactionsThatAreReadAndIgnoreTheOthers() {
    // Given: U1 is read by U2, which is read by C1; U3 is never read (and reads garbage)
    final String h = """
        U1 s1 r(x,0) w(x,1) unknown
        U2 s2 r(x,1) w(x,2) unknown
        C1 s3 r(x,2)
        U3 s4 r(y,77) unknown
        """;

    // When
    final CheckResult r = check(h);

    // Then
    assertVerdicts(r, Verdict.UNKNOWN, Verdict.SATISFIED, Verdict.SATISFIED);
    assertEquals(List.of(), r.anomalies());
    assertEquals(3, r.stats().committed());
    assertEquals(2, r.stats().unknownPromoted());
    assertEquals(1, r.stats().unknownIgnored());
    assertEquals(List.of("U3"), finding(r, FindingKind.UNKNOWN_IGNORED).txns());
  }

  @Test
  void shouldIgnoreAbortedTransactionsWhenTheyReadGarbage() {
    // Given
    final String h = """
        T1 s1 r(x,42) w(x,1) aborted @1..2
        T2 s2 r(x,0) w(x,2) @3..4
        """;

    // When
    final CheckResult r = check(h);

    // Then
    assertVerdicts(r, Verdict.SATISFIED, Verdict.SATISFIED, Verdict.SATISFIED);
    assertEquals(List.of(), r.anomalies());
    assertEquals(1, r.stats().aborted());
    assertEquals(1, r.stats().committed());
  }

  // ---- undetermined version orders ----

  @Test
  void shouldLeaveOrderOpenWhenASingleBlindWriteStartsAChain() {
    // Given: one blind writer; its version must follow the initial one, but inferring that needs
    // to know no other blind write of x exists, which an online checker never knows
    final String h = """
        T1 s1 w(x,1) @1..2
        T2 s2 r(x,1) @3..4
        """;

    // When: the engine alone (the search of version orders, off here, decides it: BlindWriteDecisionTest)
    final CheckResult r = check(h, CheckOptions.defaults().withSolverBudget(java.time.Duration.ZERO));

    // Then: undecided, with the blind write as the reason
    assertVerdicts(r, Verdict.UNKNOWN, Verdict.UNKNOWN, Verdict.UNKNOWN);
    final Finding f = assertFinding(r, FindingKind.BLIND_WRITE, ALL, 1);
    assertEquals("x", f.key());
    assertEquals(List.of("T1"), f.txns());
    assertTrue(r.reasons().get(Level.SER).contains("x"), r.reasons()::toString);
  }

  @Test
  void shouldReportUnknownWhenBlindWritesLeaveTheVersionOrderOpen() {
    // Given: two blind writers of x; nothing says which came first
    final String h = """
        T1 s1 w(x,1)
        T2 s2 w(x,2)
        T3 s3 r(x,1)
        T4 s3 r(x,2)
        """;

    // When: the engine alone (the search of version orders, off here, finds x=1 then x=2)
    final CheckResult r = check(h, CheckOptions.defaults().withSolverBudget(java.time.Duration.ZERO));

    // Then
    assertVerdicts(r, Verdict.UNKNOWN, Verdict.UNKNOWN, Verdict.UNKNOWN);
    assertTrue(r.reasons().keySet().containsAll(ALL));
    final Finding f = assertFinding(r, FindingKind.BLIND_WRITE, ALL, 2);
    assertEquals("x", f.key());
    assertEquals(List.of(), r.anomalies());
  }

  @Test
  void shouldViolateEveryLevelDespiteBlindWritesWhenAViolationIsCertain() {
    // Given: the order of x is open, but T3 also reads y out of thin air
    final String h = """
        T1 s1 w(x,1)
        T2 s2 w(x,2)
        T3 s3 r(x,1) r(y,77)
        """;

    // When
    final CheckResult r = check(h);

    // Then
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
    assertOnlyAnomaly(r, "thin-air", "ThinAirRead", ALL, List.of("T3"));
    assertFinding(r, FindingKind.BLIND_WRITE, ALL, 2);
  }

  // ---- certain edges from the initial version (issue 14, item 1) ----

  @Test
  void shouldViolateSessionOrderWhenASessionReadsTheInitialValueAfterItsOwnBlindWrite() {
    // Given: every version order puts x=0 first, so T2's read of it precedes T1's x=1
    final String h = """
        T1 s1 w(x,1)
        T2 s1 r(x,0)
        """;

    // When
    final CheckResult r = check(h);

    // Then
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
    final Anomaly a = assertOnlyAnomaly(r, "G-single-process", "SessionGuaranteeViolation", ALL, List.of("T1", "T2"));
    assertCycleKinds(a, List.of(EdgeKind.SO, EdgeKind.RW));
    assertTrue(a.explanation().contains("T2 read x=0, the initial value of x; every version order puts the initial"
        + " version first, so it precedes the version x=1 that T1 wrote"), a::explanation);
    assertFinding(r, FindingKind.BLIND_WRITE, ALL, 1);
  }

  @Test
  void shouldFindGSingleWhenAReadOfTheInitialStateMissesAWriteWhoseOtherWriteItSaw() {
    // Given: Elle's initial-state G-single, keys start absent: p0 [r x nil][r y 1], p1 [w y 1][w x 2]
    final String h = """
        T0 p0 r(x,null) r(y,1)
        T1 p1 w(y,1) w(x,2)
        """;

    // When
    final CheckResult r = check(h, CheckOptions.defaults().withInitialValue(null));

    // Then
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
    final Anomaly a = assertOnlyAnomaly(r, "G-single", "FracturedRead", ALL, List.of("T0", "T1"));
    assertCycleKinds(a, List.of(EdgeKind.RW, EdgeKind.WR));
    assertTrue(a.explanation().contains("T0 read x=null, the initial value of x; every version order puts the"
        + " initial version first"), a::explanation);
  }

  @Test
  void shouldFindG2ItemWhenTwoTransactionsEachReadTheInitialValueTheOtherBlindlyWrites() {
    // Given: Elle's initial-state G2-item (write skew): each read nil where the other wrote
    final String h = """
        T1 p1 r(x,null) w(y,1)
        T2 p2 r(y,null) w(x,1)
        """;

    // When
    final CheckResult r = check(h, CheckOptions.defaults().withInitialValue(null));

    // Then: write skew is allowed by SI, which the search of version orders confirms (issue 14)
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.SATISFIED);
    final Anomaly a = assertOnlyAnomaly(r, "G2-item", "WriteSkew", SSER_SER, List.of("T1", "T2"));
    assertCycleKinds(a, List.of(EdgeKind.RW, EdgeKind.RW));
  }

  @Test
  void shouldStayUnknownWhenAReadOfTheInitialValueOnlyPrecedesABlindWriter() {
    // Given: T2 read x=0 in another session: it precedes T1, and nothing orders T1 before T2
    final String h = """
        T1 s1 w(x,1)
        T2 s2 r(x,0)
        """;

    // When: the engine alone (the search of version orders, off here, finds the order without a cycle)
    final CheckResult r = check(h, CheckOptions.defaults().withSolverBudget(java.time.Duration.ZERO));

    // Then: no cycle; the single blind chain's place is still not inferred
    assertVerdicts(r, Verdict.UNKNOWN, Verdict.UNKNOWN, Verdict.UNKNOWN);
    assertEquals(List.of(), r.anomalies());
  }

  @Test
  void shouldOrderAReadOfTheInitialValueBeforeEveryWriterOfABlindChain() {
    // Given: T3 (read-modify-write) follows the blind T1; T4 read x=0 and then T3's y
    final String h = """
        T1 s1 w(x,1)
        T3 s3 r(x,1) w(x,2) w(y,1)
        T4 s4 r(x,0) r(y,1)
        """;

    // When
    final CheckResult r = check(h);

    // Then: T4 -RW-> T1 -WR/WW-> T3 -WR-> T4 (a step is shown by its lowest kind), certain in every version order
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
    final Anomaly a = assertOnlyAnomaly(r, "G-single", "CausalityViolation", ALL, List.of("T1", "T3", "T4"));
    assertCycleKinds(a, List.of(EdgeKind.WR, EdgeKind.WR, EdgeKind.RW));
  }

  @Test
  void shouldReportNonUniqueWriteAndSearchBothWritersWhenAValueIsWrittenTwiceToAKey() {
    // Given: 5 is written to x by T1 and T3, so T2's read of 5 has two candidate writers
    final String h = """
        T1 s1 r(x,0) w(x,5)
        T2 s2 r(x,5) w(x,6)
        T3 s3 r(x,6) w(x,5)
        """;

    // When
    final CheckResult r = check(h);

    // Then: the search of version orders tries both writers; reading T1's 5 gives the serial order
    // T1, T2, T3, so SER and SI hold (SSER needs times, which the history lacks)
    assertVerdicts(r, Verdict.UNKNOWN, Verdict.SATISFIED, Verdict.SATISFIED);
    final Finding f = assertFinding(r, FindingKind.NON_UNIQUE_WRITE, ALL, 1);
    assertEquals("x", f.key());
    assertTrue(f.txns().contains("T3"), f.txns()::toString);
  }

  // ---- several anomalies ----

  @Test
  void shouldReportEveryDivergenceWhenSeveralTransactionsOverwriteOneVersion() {
    // Given: three writers of x read its initial version; two writers of y read its initial version
    final String h = """
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,0) w(x,2)
        T3 s3 r(x,0) w(x,3)
        T4 s4 r(y,0) w(y,1)
        T5 s5 r(y,0) w(y,2)
        """;

    // When
    final CheckResult r = check(h);

    // Then: one LostUpdate per pair, each cycle starting at the earlier transaction
    assertVerdicts(r, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
    final List<List<String>> pairs = new ArrayList<>();
    for (final Anomaly a : r.anomalies()) {
      assertEquals("LostUpdate", a.name());
      assertEquals("G-single", a.type());
      assertEquals(ALL, classic(a.violates()));
      pairs.add(a.txnIds());
    }
    assertEquals(List.of(List.of("T1", "T2"), List.of("T1", "T3"), List.of("T2", "T3"), List.of("T4", "T5")),
        pairs);
    assertEquals(Map.of("LostUpdate", 4L), r.stats().anomaliesByName());
  }

  @Test
  void shouldCapTheListButCountExactlyWhenThereAreMoreAnomaliesThanTheCap() {
    // Given: five thin-air reads, a cap of two
    final String h = """
        T1 s1 r(x,1)
        T2 s1 r(x,2)
        T3 s1 r(x,3)
        T4 s1 r(x,4)
        T5 s1 r(x,5)
        """;

    // When
    final CheckResult capped = check(h, CheckOptions.defaults().withMaxAnomalies(2));
    final CheckResult full = check(h);

    // Then
    assertEquals(2, capped.anomalies().size());
    assertEquals(Map.of("ThinAirRead", 5L), capped.stats().anomaliesByName());
    assertTrue(capped.stats().anomaliesTruncated());
    assertEquals(5, full.anomalies().size());
    assertFalse(full.stats().anomaliesTruncated());
    assertEquals(full.anomalies().subList(0, 2), capped.anomalies());
    assertVerdicts(capped, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
  }

  @Test
  void shouldCapTheWholeListWhenAnomaliesOfSeveralKindsExceedTheCap() {
    // Given: three thin-air reads and three lost updates, a cap of two
    final String h = """
        T1 s1 r(x,1)
        T2 s1 r(x,2)
        T3 s1 r(x,3)
        T4 s2 r(y,0) w(y,1)
        T5 s3 r(y,0) w(y,2)
        T6 s4 r(y,0) w(y,3)
        """;

    // When
    final CheckResult r = check(h, CheckOptions.defaults().withMaxAnomalies(2));

    // Then: the cap is on the list, not per name (CheckOptions#maxAnomalies, CheckResult#anomalies)
    assertEquals(2, r.anomalies().size(), () -> "listed: " + r.anomalies().stream().map(Anomaly::displayName).toList());
    assertEquals(Map.of("ThinAirRead", 3L, "LostUpdate", 3L), r.stats().anomaliesByName());
    assertTrue(r.stats().anomaliesTruncated());
  }

  @Test
  void shouldUseTheInitialValueOptionWhenKeysStartAbsent() {
    // Given
    final String h = """
        T1 s1 r(x,null) w(x,1) @10..20
        T2 s2 r(x,1) r(y,null) @30..40
        """;

    // When
    final CheckResult absent = check(h, CheckOptions.defaults().withInitialValue(null));
    final CheckResult zero = check(h);

    // Then: with initial value 0, reads of null come from nowhere
    assertVerdicts(absent, Verdict.SATISFIED, Verdict.SATISFIED, Verdict.SATISFIED);
    assertVerdicts(zero, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED);
    assertEquals(List.of("ThinAirRead", "ThinAirRead"), zero.anomalies().stream().map(Anomaly::displayName).toList());
  }

  @Test
  void shouldKeepSserDecidableWhenAnUnknownTransactionNeverFinished() {
    // Given: U1 was read, so it counts; its client never saw it end, so it precedes nobody in
    // real time, and T2 may have run before it took effect
    final String h = """
        U1 s1 r(x,0) w(x,1) unknown @10..
        T2 s2 r(x,0) @30..40
        T3 s3 r(x,1) @50..60
        """;

    // When
    final CheckResult r = check(h);

    // Then
    assertVerdicts(r, Verdict.SATISFIED, Verdict.SATISFIED, Verdict.SATISFIED);
    assertEquals(1, r.stats().unknownPromoted());
  }

  // ---- helpers ----

  private CheckResult check(final String text) {
    return check(text, CheckOptions.defaults());
  }

  private CheckResult check(final String text, final CheckOptions options) {
    return engine(history(text), options);
  }

  /** The engine under test; the online engine's variant of these tests overrides it. */
  CheckResult engine(final History history, final CheckOptions options) {
    return new Checker(options).check(history);
  }

  /** Asserts that exactly one anomaly was found and what it is; returns it. */
  private static Anomaly assertOnlyAnomaly(
      final CheckResult r, final String type, final String name, final Set<Level> violates, final List<String> txns) {
    assertEquals(1, r.anomalies().size(), () -> "anomalies: " + r.anomalies());
    final Anomaly a = r.anomalies().get(0);
    assertEquals(type, a.type());
    if (name == null) {
      assertNull(a.name());
    } else {
      assertEquals(name, a.name());
    }
    assertEquals(violates, classic(a.violates()));
    if (a.cycle().isEmpty()) {
      assertEquals(txns, a.txnIds());
    } else {
      assertRotation(txns, a.txnIds());
      assertClosedCycleThrough(a);
    }
    assertFalse(a.explanation().isBlank());
    return a;
  }

  /** Equal up to rotation: a cycle may be listed from any of its transactions. */
  private static void assertRotation(final List<String> expected, final List<String> actual) {
    boolean matches = false;
    for (int start = 0; start < actual.size() && !matches; start++) {
      matches = expected.size() == actual.size();
      for (int i = 0; i < expected.size() && matches; i++) {
        matches = expected.get(i).equals(actual.get((start + i) % actual.size()));
      }
    }
    assertTrue(matches, () -> actual + " is not a rotation of " + expected);
  }

  /** The cycle's edges run through the listed transactions in order and close. */
  private static void assertClosedCycleThrough(final Anomaly a) {
    final List<String> ids = a.txnIds();
    assertEquals(ids.size(), a.cycle().size(), a.cycle()::toString);
    for (int i = 0; i < ids.size(); i++) {
      assertEquals(ids.get(i), a.cycle().get(i).from(), a.cycle()::toString);
      assertEquals(ids.get((i + 1) % ids.size()), a.cycle().get(i).to(), a.cycle()::toString);
    }
  }

  /** The edge kinds of the cycle, equal up to rotation to the expected ones. */
  private static void assertCycleKinds(final Anomaly a, final List<EdgeKind> expected) {
    final List<String> kinds = a.cycle().stream().map(e -> e.kind().name()).toList();
    assertRotation(expected.stream().map(Enum::name).toList(), kinds);
  }

  private static Finding assertFinding(
      final CheckResult r, final FindingKind kind, final Set<Level> levels, final long count) {
    final Finding f = finding(r, kind);
    assertEquals(levels, f.levels(), f::toString);
    assertEquals(count, f.count(), f::toString);
    return f;
  }

  /** The classic levels (SSER, SER, SI) among {@code levels}: what these tests pin; docs/levels.md the others. */
  private static Set<Level> classic(final Set<Level> levels) {
    final Set<Level> out = EnumSet.noneOf(Level.class);
    levels.stream().filter(Level.CLASSIC::contains).forEach(out::add);
    return out;
  }
}
