package io.isowatch.core.online;

import static io.isowatch.core.testkit.Outcomes.published;
import static io.isowatch.core.testkit.Outcomes.retracted;
import static io.isowatch.core.testkit.Outcomes.txns;
import static io.isowatch.core.testkit.Outcomes.verdictChanges;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A ThinAirRead published before a cut of the horizon, or before the checkpoint an engine is
 * restored from, is retracted when its writer arrives beyond every bound all the same (issue 10,
 * item 2): the published reads survive the cut and the checkpoint (format 5), and the summary gives
 * back the levels only they violated.
 */
class ThinAirRetractionAcrossCutsTest {
  // Every weak answer of the engine is also compared with the whole-history check of its state.
  @org.junit.jupiter.api.BeforeAll
  static void crossCheckTheIncrementalWeakCheck() {
    WeakVerdicts.crossCheck = true;
  }

  @org.junit.jupiter.api.AfterAll
  static void stopCrossChecking() {
    WeakVerdicts.crossCheck = false;
  }

  private static final CheckOptions OPTIONS = CheckOptions.defaults();
  private static final OnlineOptions ONLINE = OnlineOptions.streaming(100).withHorizon(Horizon.ofTransactions(2));
  private static final Map<Level, Verdict> SATISFIED =
      Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED);
  private static final Map<Level, Verdict> VIOLATED =
      Map.of(Level.SSER, Verdict.VIOLATED, Level.SER, Verdict.VIOLATED, Level.SI, Verdict.VIOLATED);

  /** R reads x=5, which nobody has written yet; five more transactions take π far past it. */
  private static final String BEFORE = """
      R s1 r(x,5) @10..20
      A s2 r(y,0) w(y,1) @30..150
      B s3 r(z,0) w(z,1) @200..300
      C s2 r(y,1) w(y,2) @400..500
      D s3 r(z,1) w(z,2) @600..700
      E s2 r(y,2) w(y,3) @800..900
      """;

  @Test
  void shouldRetractAThinAirReadPublishedBeforeACutWhenItsWriterArrivesLate() {
    // Given: R's read published as a ThinAirRead, then a cut that prunes R
    final OnlineChecker c = new OnlineChecker(OPTIONS, ONLINE);
    final List<OnlineEvent> before = acceptAll(c, txns(BEFORE));
    assertEquals(List.of("ThinAirRead [R]"), published(before));
    assertTrue(c.prune(), "the horizon of 2 transactions allows a cut");
    assertEquals(VIOLATED, c.result().verdicts());

    // When: W, the writer of x=5, arrives beyond every bound
    final List<OnlineEvent> afterW = c.accept(late("W s4 r(x,0) w(x,5) @5..15"));

    // Then: the ThinAirRead is retracted from the summary and every level goes back
    assertEquals(List.of("ThinAirRead [R] by W"), retracted(afterW));
    assertEquals(List.of("SSER VIOLATED->SATISFIED", "SER VIOLATED->SATISFIED", "SI VIOLATED->SATISFIED"),
        verdictChanges(afterW));
    assertEquals(SATISFIED, c.result().verdicts());
    assertEquals(List.<Anomaly>of(), c.result().anomalies());
    assertTrue(c.result().findings().stream().anyMatch(f -> f.kind() == FindingKind.LATE_TRANSACTION));
  }

  @Test
  void shouldRetractAThinAirReadPublishedBeforeTheCheckpointAnEngineIsRestoredFrom() {
    // Given: the same stream, checkpointed after the cut, and a new engine restored from it
    final OnlineChecker a = new OnlineChecker(OPTIONS, ONLINE);
    acceptAll(a, txns(BEFORE));
    assertTrue(a.prune());
    final byte[] checkpoint = a.checkpoint();
    final OnlineChecker b = OnlineChecker.restore(OPTIONS, ONLINE, checkpoint);
    assertEquals(VIOLATED, b.result().verdicts());

    // When
    final List<OnlineEvent> afterW = b.accept(late("W s4 r(x,0) w(x,5) @5..15"));

    // Then: the restored engine retracts what the engine that wrote the checkpoint published
    assertEquals(List.of("ThinAirRead [R] by W"), retracted(afterW));
    assertEquals(SATISFIED, b.result().verdicts());
    assertEquals(List.<Anomaly>of(), b.result().anomalies());
  }

  @Test
  void shouldKeepTheThinAirReadWhenTheLateWriterAbortedAfterACut() {
    // Given: R pruned by a cut; its late writer aborted, so R's read was an aborted read (which
    // violates the same levels), not a read of a committed value
    final OnlineChecker c = new OnlineChecker(OPTIONS, ONLINE);
    acceptAll(c, txns(BEFORE));
    assertTrue(c.prune());

    // When
    final List<OnlineEvent> afterW = c.accept(late("W s4 r(x,0) w(x,5) aborted @5..15"));

    // Then: nothing retracted, every level stays violated
    assertEquals(List.of(), retracted(afterW));
    assertEquals(VIOLATED, c.result().verdicts());
    assertEquals(List.of("ThinAirRead"), c.result().anomalies().stream().map(Anomaly::displayName).toList());
  }

  @Test
  void shouldKeepALevelViolatedByAnotherAnomalyWhenTheThinAirReadIsRetractedAfterACut() {
    // Given: besides R's ThinAirRead, a lost update of y (F and G both read y=3 and write it)
    final OnlineChecker c = new OnlineChecker(OPTIONS, ONLINE);
    final List<Transaction> t = new ArrayList<>(txns(BEFORE + """
        F s5 r(y,3) w(y,4) @1000..1100
        G s6 r(y,3) w(y,5) @1000..1100
        H s2 r(q,0) w(q,1) @1200..1300
        I s3 r(p,0) w(p,1) @1400..1500
        """));
    acceptAll(c, t);
    assertTrue(c.prune());

    // When
    final List<OnlineEvent> afterW = c.accept(late("W s4 r(x,0) w(x,5) @5..15"));

    // Then: the ThinAirRead goes, the lost update stands and so do the violations
    assertEquals(List.of("ThinAirRead [R] by W"), retracted(afterW));
    assertEquals(List.of("LostUpdate"), c.result().anomalies().stream().map(Anomaly::displayName).toList());
    assertEquals(VIOLATED, c.result().verdicts());
  }

  /** Every uniform level the online checker decides, the weak ones included (MIXED has tests of its own). */
  private static final CheckOptions EVERY_LEVEL =
      OPTIONS.withLevels(EnumSet.complementOf(EnumSet.of(Level.MIXED)));
  private static final String LATE_WRITER = "W s4 r(x,0) w(x,5) @5..15";
  /** Two transactions after the ones a test adds, so that the horizon of 2 allows a cut past them. */
  private static final String LATER_TRANSACTIONS = """
      H s2 r(q,0) w(q,1) @1200..1300
      I s3 r(p,0) w(p,1) @1400..1500
      """;

  @Test
  void shouldGiveBackEveryLevelTheWholeHistoryCheckDecidesWhenAThinAirReadIsRetractedAfterACut() {
    // Given: every level checked; R's ThinAirRead, which violates every level, published; a cut prunes R
    final OnlineChecker c = prunedAfter(BEFORE);
    assertEveryLevelViolated(c, "the ThinAirRead violates every level");

    // When: its committed writer arrives beyond every bound
    final List<OnlineEvent> afterW = c.accept(late(LATE_WRITER));

    // Then: every level, the weak ones included, is what a check of the whole history decides
    assertEquals(List.of("ThinAirRead [R] by W"), retracted(afterW));
    assertEquals(wholeHistory().verdicts(), c.result().verdicts());
  }

  @Test
  void shouldGiveBackEveryLevelTheWholeHistoryCheckDecidesWhenAThinAirReadIsRetractedAfterARestore() {
    // Given: the same, checkpointed after the cut, and a new engine restored from the checkpoint
    final OnlineChecker a = prunedAfter(BEFORE);
    final OnlineChecker b = OnlineChecker.restore(EVERY_LEVEL, ONLINE, a.checkpoint());
    assertEveryLevelViolated(b, "the restored engine still holds the ThinAirRead");

    // When
    final List<OnlineEvent> afterW = b.accept(late(LATE_WRITER));

    // Then
    assertEquals(List.of("ThinAirRead [R] by W"), retracted(afterW));
    assertEquals(wholeHistory().verdicts(), b.result().verdicts());
  }

  @Test
  void shouldKeepOnlyTheLevelsALostUpdateViolatesWhenTheThinAirReadIsRetractedAfterACut() {
    // Given: every level checked; besides R's ThinAirRead, a lost update of y (F and G both read
    // y=3 and write it), which violates RR, SI, SER and SSER but not PL2, RC, RA, CC nor PC
    final String stream = BEFORE + """
        F s5 r(y,3) w(y,4) @1000..1100
        G s6 r(y,3) w(y,5) @1000..1100
        """ + LATER_TRANSACTIONS;
    // When: W arrives after the cut (the ThinAirRead is retracted, see lateWriterAfterCut)
    final OnlineChecker c = lateWriterAfterCut(stream);

    // Then: the levels the lost update violates stay VIOLATED, the others come back, but PC: beside a
    // lost update PC is decided by its definition, over the retained transactions only, and after a
    // cut a satisfied remainder proves nothing of the pruned reads, so PC stays UNKNOWN, saying why
    // (the whole check, which holds every transaction, finds it SATISFIED).
    final io.isowatch.core.check.CheckResult whole = withLateWriter(stream);
    assertEquals(List.of("LostUpdate"), whole.anomalies().stream().map(Anomaly::displayName).toList());
    assertEquals(Verdict.SATISFIED, whole.verdicts().get(Level.CC), "the oracle gives CC back: " + whole.verdicts());
    assertEquals(Verdict.SATISFIED, whole.verdicts().get(Level.PC), "PC allows the lost update: " + whole.verdicts());
    final io.isowatch.core.check.CheckResult online = c.result();
    final Map<Level, Verdict> expected = new java.util.EnumMap<>(whole.verdicts());
    expected.put(Level.PC, Verdict.UNKNOWN);
    assertEquals(expected, new java.util.EnumMap<>(online.verdicts()));
    assertTrue(online.reasons().get(Level.PC).contains("pruned versions (the horizon) are not judged"),
        online.reasons().get(Level.PC));
  }

  @Test
  void shouldKeepEveryLevelACycleViolatesWhenTheThinAirReadIsRetractedAfterACut() {
    // Given: every level checked; besides R's ThinAirRead, K and L each read what the other wrote
    // (a write-read cycle, G1c), which violates every level; a cut prunes them all
    final String stream = BEFORE + """
        K s7 w(a,1) r(b,1) @1000..1100
        L s8 w(b,1) r(a,1) @1000..1100
        """ + LATER_TRANSACTIONS;
    // When: W arrives after the cut (the ThinAirRead is retracted, see lateWriterAfterCut)
    final OnlineChecker c = lateWriterAfterCut(stream);

    // Then: the cycle's violations stand, as in the whole-history check
    final io.isowatch.core.check.CheckResult whole = withLateWriter(stream);
    assertEquals(Verdict.VIOLATED, whole.verdicts().get(Level.PL2), "the oracle: " + whole.verdicts());
    assertEquals(whole.verdicts(), c.result().verdicts());
  }

  @Test
  void shouldRetractButNotCheckTheReadOfAPrunedReaderAgainstItsLateWriter() {
    // Given: R pruned by a cut; its writer W started after R ended, so under SSER R read from the
    // future (check of the whole history: G1c-realtime), which only R's times, pruned, could show
    final OnlineChecker c = prunedAfter(BEFORE);

    // When
    final List<OnlineEvent> afterW = c.accept(late("W s4 r(x,0) w(x,5) @50..60"));

    // Then: the retraction stands (W committed x=5: the read was not from thin air), and what is
    // not known is said: the read is not checked against W, and W is a late transaction
    final List<OnlineEvent.AnomalyRetracted> r = afterW.stream()
        .filter(e -> e instanceof OnlineEvent.AnomalyRetracted).map(e -> (OnlineEvent.AnomalyRetracted) e).toList();
    assertEquals(1, r.size());
    assertTrue(r.get(0).reason().contains("the read is not checked against this writer"), r.get(0).reason());
    assertTrue(r.get(0).reason().contains("whether it was a fine read is not known"), r.get(0).reason());
    assertTrue(c.result().findings().stream().anyMatch(f -> f.kind() == FindingKind.LATE_TRANSACTION
        && f.message().contains("may differ from isowatch check")));
    assertEquals(List.<Anomaly>of(), c.result().anomalies());
  }

  /** The whole-history check of the stream with the late writer: no ThinAirRead, so what it decides is the truth. */
  private static io.isowatch.core.check.CheckResult wholeHistory() {
    final io.isowatch.core.check.CheckResult r = withLateWriter(BEFORE);
    assertEquals(List.<Anomaly>of(), r.anomalies(), "the whole history has no anomaly");
    return r;
  }

  /** The whole-history check of {@code stream} followed by the late writer W. */
  private static io.isowatch.core.check.CheckResult withLateWriter(final String stream) {
    final List<Transaction> all = new ArrayList<>(txns(stream));
    all.add(late(LATE_WRITER));
    return WholeHistoryCheck.check(new History(all), EVERY_LEVEL);
  }

  /** An engine checking every level that has accepted {@code stream} and then made a cut. */
  private static OnlineChecker prunedAfter(final String stream) {
    final OnlineChecker c = new OnlineChecker(EVERY_LEVEL, ONLINE);
    acceptAll(c, txns(stream));
    assertTrue(c.prune(), "the horizon of 2 transactions allows a cut");
    return c;
  }

  /** {@link #prunedAfter} {@code stream}, then the late writer W, whose arrival retracts R's ThinAirRead. */
  private static OnlineChecker lateWriterAfterCut(final String stream) {
    final OnlineChecker c = prunedAfter(stream);
    assertEquals(List.of("ThinAirRead [R] by W"), retracted(c.accept(late(LATE_WRITER))));
    return c;
  }

  private static void assertEveryLevelViolated(final OnlineChecker c, final String why) {
    assertTrue(c.result().verdicts().values().stream().allMatch(v -> v == Verdict.VIOLATED),
        why + ": " + c.result().verdicts());
  }

  private static List<OnlineEvent> acceptAll(final OnlineChecker c, final List<Transaction> t) {
    final List<OnlineEvent> events = new ArrayList<>();
    t.forEach(x -> events.addAll(c.accept(x)));
    return events;
  }

  private static Transaction late(final String line) {
    return txns(line).get(0);
  }
}
