package io.isowatch.core.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.testkit.HistoryDsl;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 14, item 3: {@code isowatch check} decides the levels blind writes leave open. */
class BlindWriteDecisionTest {
  private static final CheckOptions ABSENT = CheckOptions.defaults().withInitialValue(null);

  @Test
  void shouldSatisfySiAndViolateSerWhenElleInitialStateG2ItemIsChecked() {
    // Given: Elle's initial-state G2-item, keys start absent (ISSUE14.md)
    final History h = HistoryDsl.history("""
        T1 p1 r(x,null) w(y,1)
        T2 p2 r(y,null) w(x,1)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, ABSENT);

    // Then
    assertEquals(Map.of(Level.SSER, Verdict.VIOLATED, Level.SER, Verdict.VIOLATED, Level.SI, Verdict.SATISFIED),
        r.verdicts());
    assertEquals(List.of("WriteSkew"), r.anomalies().stream().map(Anomaly::displayName).toList());
    assertTrue(r.reasons().isEmpty(), () -> "no level is left UNKNOWN: " + r.reasons());
  }

  @Test
  void shouldExplainThatNoOrderAvoidsACycleWhenEveryVersionOrderIsCyclic() {
    // Given: two blind writers of x and y, two readers seeing them in opposite orders
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1) w(y,1)
        T2 s2 w(x,2) w(y,2)
        T3 s3 r(x,1) r(y,2)
        T4 s4 r(x,2) r(y,1)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults());

    // Then
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SI));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER));
    assertEquals(1, r.anomalies().size());
    final Anomaly a = r.anomalies().get(0);
    assertEquals(BlindWriteDecision.NAME, a.name());
    assertEquals("G-single", a.type());
    assertEquals(List.of(Level.SSER, Level.SER, Level.SI), List.copyOf(a.violates()));
    assertTrue(a.explanation().startsWith("No version order of the blind writes avoids a cycle at SI"), a.explanation());
    assertTrue(a.explanation().contains("these 2 cycles"), a.explanation());
    assertTrue(a.explanation().contains("not a claim about which order the database used"), a.explanation());
    assertEquals(a.cycle().get(0).from(), a.cycle().get(a.cycle().size() - 1).to(), "the cycle is closed");
  }

  @Test
  void shouldUseTheSolverWhenTheGreedyOrderIsCyclic() {
    // Given
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1) w(y,1)
        T2 s2 w(x,2) w(y,2)
        T3 s3 r(x,1) r(y,2)
        T4 s4 r(x,2) r(y,1)
        """);

    // When
    final VersionOrderSearch.Outcome o =
        VersionOrderSearch.search(h, Level.SER, 0L, 0L, CheckOptions.DEFAULT_SOLVER_BUDGET);

    // Then: two keys with one open pair each; the solver refuted every choice, the core is minimal
    assertEquals(Verdict.VIOLATED, o.verdict());
    assertEquals(2, o.variables());
    assertTrue(o.minimal());
    assertEquals(2, o.cycles().size());
    assertTrue(o.cycles().stream().allMatch(c -> c.stream().anyMatch(VersionOrderSearch.Step::chosen)));
  }

  @Test
  void shouldStayUnknownAndSaySoWhenTheBudgetRunsOut() {
    // Given: a history the greedy order does not settle, and a budget already spent when the solver starts
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1) w(y,1)
        T2 s2 w(x,2) w(y,2)
        T3 s3 r(x,1) r(y,2)
        T4 s4 r(x,2) r(y,1)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults().withSolverBudget(Duration.ofNanos(1)));

    // Then: SSER is UNKNOWN without times anyway; SER and SI only for the budget
    assertEquals(Verdict.UNKNOWN, r.verdicts().get(Level.SSER));
    for (final Level level : List.of(Level.SER, Level.SI)) {
      assertEquals(Verdict.UNKNOWN, r.verdicts().get(level), level::name);
      assertTrue(r.reasons().get(level).contains("ran out of its time budget"), r.reasons().get(level));
    }
  }

  @Test
  void shouldNameTheSizeGuardWhenMoreThanTheSearchTakesOnStayOpen() {
    // Given: the cyclic history above, plus 2,900 more blind writers of x: 4.2 million pairs of chains
    final StringBuilder text = new StringBuilder("""
        T1 s1 w(x,1) w(y,1)
        T2 s2 w(x,2) w(y,2)
        T3 s3 r(x,1) r(y,2)
        T4 s4 r(x,2) r(y,1)
        """);
    for (int i = 0; i < 2_900; i++) {
      text.append("W").append(i).append(" w").append(i).append(" w(x,").append(100 + i).append(")\n");
    }
    final History h = HistoryDsl.history(text.toString());

    // When: without pruning, every pair stays open
    final VersionOrderSearch.Traced t =
        VersionOrderSearch.traced(h, Level.SER, 0L, 0L, CheckOptions.DEFAULT_SOLVER_BUDGET, false);

    // Then: UNKNOWN, and the reason says which guard stopped it (not the budget)
    assertEquals(Verdict.UNKNOWN, t.outcome().verdict());
    assertTrue(t.pairs() > VersionOrderSearch.MAX_VARIABLES, () -> "pairs " + t.pairs());
    assertTrue(t.outcome().reason().startsWith(VersionOrderSearch.SIZE_GUARD), t.outcome().reason());
    assertTrue(t.outcome().reason().contains("more than the " + VersionOrderSearch.MAX_VARIABLES), t.outcome().reason());
  }

  @Test
  void shouldSatisfyEveryLevelWhenOneWriterOfAValueWrittenTwiceLeavesNoCycle() {
    // Given: x=1 written blindly by T1 and T2; T3 read x=1 and y=0: from T1 it would see T1's x but
    // not its y (a cycle), from T2 there is no cycle
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1) w(y,1)
        T2 s2 w(x,1)
        T3 s3 r(x,1) r(y,0)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults());

    // Then: some choice of writer has an acyclic version order (SSER needs times, which this history lacks)
    for (final Level level : List.of(Level.SER, Level.SI)) {
      assertEquals(Verdict.SATISFIED, r.verdicts().get(level), () -> level + " " + r.reasons());
    }
  }

  @Test
  void shouldViolateEveryLevelAndStateEachWriterAsACaseWhenEveryChoiceOfWriterHasACycle() {
    // Given: as above, but T3 also read z=0, which T2 wrote with x=1: whichever of T1 or T2 it read
    // x=1 from, it missed that writer's other write
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1) w(y,1)
        T2 s2 w(x,1) w(z,1)
        T3 s3 r(x,1) r(y,0) r(z,0)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults());

    // Then: VIOLATED (SSER too, as SER's violation is one of it), and each writer is named only as a case
    for (final Level level : List.of(Level.SSER, Level.SER, Level.SI)) {
      assertEquals(Verdict.VIOLATED, r.verdicts().get(level), () -> level + " " + r.reasons());
    }
    final Anomaly a = r.anomalies().stream().filter(x -> x.name().equals(BlindWriteDecision.NAME)).findFirst()
        .orElseThrow();
    assertTrue(a.explanation().contains("If T3 read x=1 from T1: "), a.explanation());
    assertTrue(a.explanation().contains("If T3 read x=1 from T2: "), a.explanation());
    assertTrue(a.explanation().contains("[if T3 read x from T1]"), a.explanation());
    assertTrue(a.explanation().contains("Whichever writer was read from"), a.explanation());
  }

  @Test
  void shouldViolateEveryLevelWithBothOrdersAsCyclesWhenTwoTransactionsOverwriteTheSameVersionOfARepeatedValue() {
    // Given: T2 and T4 both read T3's x=1 and both overwrote it (a lost update); x=1 is also
    // written by T1, which read nothing, so the engine does not attribute reads of x=1
    final History h = HistoryDsl.history("""
        T1 s0 w(x,1)
        T0 s0 r(x,1) w(x,9)
        T3 s1 w(x,1)
        T2 s2 r(x,1) w(x,5)
        T4 s3 r(x,1) w(x,2)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults());

    // Then
    for (final Level level : List.of(Level.SSER, Level.SER, Level.SI)) {
      assertEquals(Verdict.VIOLATED, r.verdicts().get(level), () -> level + " " + r.reasons());
    }
  }

  @Test
  void shouldSayHowManyWaysToAttributeReadsThereAreWhenThereAreTooManyToSearch() {
    // Given: 11 reads, each of a value written by two transactions: 2^11 cases
    final StringBuilder dsl = new StringBuilder();
    for (int k = 0; k < 11; k++) {
      dsl.append("W").append(k).append("a sa w(k").append(k).append(",1)\n");
      dsl.append("W").append(k).append("b sb w(k").append(k).append(",1)\n");
      dsl.append("R").append(k).append(" sr r(k").append(k).append(",1) r(y,0)\n");
    }
    dsl.append("Y sy w(y,1) r(k0,1)\n");
    final History h = HistoryDsl.history(dsl.toString());

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults());

    // Then
    for (final Level level : List.of(Level.SSER, Level.SER, Level.SI)) {
      assertEquals(Verdict.UNKNOWN, r.verdicts().get(level), level::name);
      assertTrue(r.reasons().get(level).startsWith(VersionOrderSearch.CASES_GUARD), r.reasons().get(level));
      assertTrue(r.reasons().get(level).contains("more than the " + VersionOrderSearch.MAX_CASES), r.reasons().get(level));
    }
  }

  @Test
  void shouldNotSearchWhenTheSearchIsOff() {
    // Given
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1)
        T2 s2 w(x,1)
        T3 s3 r(x,1) w(y,2)
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults().withSolverBudget(Duration.ZERO));

    // Then: the engine's UNKNOWN
    assertEquals(Verdict.UNKNOWN, r.verdicts().get(Level.SER));
  }

  @Test
  void shouldReturnTheEngineResultUntouchedWhenEveryWriteReadsItsKeyFirst() {
    // Given: mini-transactions, the order of every key determined
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1) w(x,2)
        """);
    final CheckResult engine = OnlineChecker.check(h, CheckOptions.defaults().withSolverBudget(Duration.ZERO));

    // When
    final CheckResult decided = BlindWriteDecision.decide(h, CheckOptions.defaults(), engine);

    // Then: the fast path, no search
    assertSame(engine, decided);
  }

  @Test
  void shouldDecideSserWithRealTimeWhenEveryTransactionHasTimes() {
    // Given: two blind writes of x, serial in real time; a later reader sees the first one (stale)
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1) @10..20
        T2 s2 w(x,2) @30..40
        T3 s3 r(x,1) @50..60
        """);

    // When
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults());

    // Then: SER holds (order x=2, x=1); SSER does not: real time puts T2 after T1 ... and T3 after both
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SSER));
    assertEquals("G-single-realtime", r.anomalies().get(0).type());
  }
}
