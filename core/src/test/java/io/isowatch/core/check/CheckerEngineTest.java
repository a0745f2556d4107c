package io.isowatch.core.check;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Engine-level behaviour: graph encodings, blind chains, caps. Table I lives in its own test. Here on
 * the batch {@link Checker}, the differential oracle; {@link CheckerEngineOnlineTest} runs every case
 * on the engine in main.
 */
class CheckerEngineTest {

  CheckResult engine(final History history, final CheckOptions options) {
    return new Checker(options).check(history);
  }

  private CheckResult check(final String dsl) {
    return engine(history(dsl), CheckOptions.defaults());
  }

  private static List<String> names(final CheckResult r) {
    return r.anomalies().stream().map(Anomaly::displayName).sorted().toList();
  }

  @Test
  void shouldSatisfyEveryLevelWhenHistoryIsSerialWithTimes() {
    // Given: three transactions run one after another
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1) @1..2
        T2 s2 r(x,1) w(x,2) r(y,0) w(y,1) @3..4
        T3 s1 r(y,1) r(x,2) @5..6
        """);
    // Then
    assertEquals(Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        r.verdicts());
    assertEquals(List.of(), r.anomalies());
  }

  @Test
  void shouldFindRealTimeCycleWhenStaleReadFollowsCommittedWrite() {
    // Given: T2 starts after T1 ended but still reads the initial x
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1) @1..2
        T2 s2 r(x,0) @5..6
        """);
    // Then: SER and SI hold, SSER does not
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SSER));
    final Anomaly a = r.anomalies().get(0);
    assertEquals("G-single-realtime", a.type());
    assertEquals(Set.of(Level.SSER), a.violates());
    assertEquals(EnumSet.of(EdgeKind.RT, EdgeKind.RW), EnumSet.copyOf(a.cycle().stream().map(Edge::kind).toList()));
  }

  @Test
  void shouldDropRealTimeEdgeWhenWithinSkewTolerance() {
    // Given: the same stale read, but only 3 µs apart
    final CheckResult r = engine(history("""
        T1 s1 r(x,0) w(x,1) @1..2
        T2 s2 r(x,0) @5..6
        """), CheckOptions.defaults().withRtSkewMicros(5));
    // Then
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SSER));
  }

  @Test
  void shouldReportSserUnknownWhenTimesMissingButViolatedWhenSerIs() {
    final CheckResult ok = check("T1 s1 r(x,0) w(x,1)\nT2 s2 r(x,1)");
    assertEquals(Verdict.UNKNOWN, ok.verdicts().get(Level.SSER));
    assertEquals(Verdict.SATISFIED, ok.verdicts().get(Level.SER));
    assertTrue(ok.reasons().get(Level.SSER).contains("real-time"));
    final CheckResult bad = check("T1 s1 r(x,0) r(y,0) w(x,1)\nT2 s2 r(x,0) r(y,0) w(y,2)");
    assertEquals(Verdict.VIOLATED, bad.verdicts().get(Level.SSER));
    assertEquals(Verdict.SATISFIED, bad.verdicts().get(Level.SI));
    assertEquals(List.of("WriteSkew"), names(bad));
  }

  @Test
  void shouldStillProveViolationWhenCycleAvoidsBlindWrittenKey() {
    // Given: x is written blind (its order is open), but y's causality violation needs no x order
    final CheckResult r = check("""
        T0 s0 w(x,1)
        T1 s1 r(z,0) w(z,1)
        T2 s2 r(z,1) r(y,0) w(y,1)
        T3 s3 r(y,1) r(z,0)
        """);
    // Then
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER));
    assertEquals(List.of("CausalityViolation"), names(r));
    assertTrue(r.findings().stream().anyMatch(f -> f.kind() == FindingKind.BLIND_WRITE && "x".equals(f.key())));
  }

  @Test
  void shouldBeUnknownWhenTwoBlindWritesLeaveOrderOpenAndTheSearchIsOff() {
    final CheckResult r = engine(history("T1 s1 w(x,1)\nT2 s2 w(x,2)\nT3 s3 r(x,1)"),
        CheckOptions.defaults().withSolverBudget(java.time.Duration.ZERO));
    assertEquals(Verdict.UNKNOWN, r.verdicts().get(Level.SER));
    assertEquals(Verdict.UNKNOWN, r.verdicts().get(Level.SI));
    assertTrue(r.reasons().get(Level.SER).contains("x"));
  }

  @Test
  void shouldBeSatisfiedWhenTheSearchFindsAnOrderForTwoBlindWrites() {
    // Issue 14, item 3: x=1 then x=2 leaves no cycle
    final CheckResult r = check("T1 s1 w(x,1)\nT2 s2 w(x,2)\nT3 s3 r(x,1)");
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI));
  }

  @Test
  void shouldReportEveryDivergenceAsLostUpdate() {
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,0) w(x,2)
        T3 s3 r(y,0) w(y,1)
        T4 s4 r(y,0) w(y,2)
        """);
    assertEquals(List.of("LostUpdate", "LostUpdate"), names(r));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SI));
    final Anomaly a = r.anomalies().get(0);
    assertEquals("G-single", a.type());
    assertEquals(List.of("T1", "T2"), a.txnIds());
    assertEquals(List.of(new Edge("T1", "T2", EdgeKind.WW, "x", 1L), new Edge("T2", "T1", EdgeKind.RW, "x", 0L)),
        a.cycle());
  }

  @Test
  void shouldCapListedAnomaliesButCountAll() {
    final StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      sb.append("A").append(i).append(" a").append(i).append(" r(k").append(i).append(",0) w(k").append(i).append(",1)\n");
      sb.append("B").append(i).append(" b").append(i).append(" r(k").append(i).append(",0) w(k").append(i).append(",2)\n");
    }
    final CheckResult r = engine(history(sb.toString()), CheckOptions.defaults().withMaxAnomalies(2));
    assertEquals(2, r.anomalies().size());
    assertEquals(5L, r.stats().anomaliesByName().get("LostUpdate"));
    assertTrue(r.stats().anomaliesTruncated());
  }

  @Test
  void shouldFindSnapshotCycleThroughLargeReadOnlyTransaction() {
    // Given: a long fork whose readers read many keys
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(y,0) w(y,1)
        T3 s3 r(x,1) r(y,0) r(a,0) r(b,0) r(c,0)
        T4 s4 r(y,1) r(x,0) r(a,0) r(b,0) r(c,0)
        """);
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SI));
    assertEquals(List.of("LongFork"), names(r));
    assertEquals(2, r.stats().largeReadOnlyTransactions());
  }

  @Test
  void shouldPromoteUnknownTransactionOnlyWhenRead() {
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1) unknown
        T2 s2 r(x,1)
        T3 s3 r(y,0) w(y,1) unknown
        """);
    assertEquals(1, r.stats().unknownPromoted());
    assertEquals(1, r.stats().unknownIgnored());
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER));
  }

  @Test
  void shouldDecideSserWhenIndeterminateTransactionHasNoEnd() {
    // Given: T1's commit outcome is unknown (no end), but T2 read its write; T3 started after T2 ended
    final Transaction t1 = new Transaction("T1", "s1", Transaction.NO_SEQ, TxnStatus.UNKNOWN, 1, Transaction.NO_TIME,
        List.of(Op.read("x", 0L), Op.write("x", 1)), null, null, 1);
    final Transaction t2 = new Transaction("T2", "s2", Transaction.NO_SEQ, TxnStatus.COMMITTED, 2, 3,
        List.of(Op.read("x", 1L)), null, null, 2);
    final Transaction t3 = new Transaction("T3", "s3", Transaction.NO_SEQ, TxnStatus.COMMITTED, 5, 6,
        List.of(Op.read("x", 0L)), null, null, 3);
    // When
    final CheckResult r = engine(new History(List.of(t1, t2, t3)), CheckOptions.defaults());
    // Then: no MISSING_TIMESTAMPS, and the stale read by T3 is a real-time violation
    assertTrue(r.findings().stream().noneMatch(f -> f.kind() == FindingKind.MISSING_TIMESTAMPS));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SSER));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER));
  }

  @Test
  void shouldLeaveSserUnknownWhenCommittedTransactionHasNoEnd() {
    final Transaction t1 = new Transaction("T1", "s1", Transaction.NO_SEQ, TxnStatus.COMMITTED, 1, Transaction.NO_TIME,
        List.of(Op.read("x", 0L), Op.write("x", 1)), null, null, 1);
    final CheckResult r = engine(new History(List.of(t1)), CheckOptions.defaults());
    assertEquals(Verdict.UNKNOWN, r.verdicts().get(Level.SSER));
  }
}
