package io.isowatch.core.online;

import static io.isowatch.core.testkit.Outcomes.findings;
import static io.isowatch.core.testkit.Outcomes.names;
import static io.isowatch.core.testkit.Outcomes.published;
import static io.isowatch.core.testkit.Outcomes.retracted;
import static io.isowatch.core.testkit.Outcomes.txns;
import static io.isowatch.core.testkit.Outcomes.verdictChanges;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * No false positive from time (issue 10, item 2): a proof by absence waits for the declared
 * lateness bound, a ThinAirRead whose writer comes beyond every bound is retracted, and an event
 * time far ahead of its arrival neither moves the watermark nor changes a verdict.
 */
class TimeSafetyTest {
  private static final CheckOptions OPTIONS = CheckOptions.defaults();
  private static final long TEN_YEARS_MICROS = 10L * 365 * 24 * 3600 * 1_000_000L;
  private static final long ONE_HOUR_MICROS = 3_600_000_000L;

  @Test
  void shouldRetractThePublishedThinAirReadWhenItsWriterArrivesBeyondEveryBound() {
    // Given: grace 100 µs (the absence bound too); R reads x=5; A and B take π past R's end plus
    // the bound, so R's read is published as a ThinAirRead; then W, which wrote x=5, arrives late
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100));
    final List<Transaction> t = txns("""
        R s1 r(x,5) @10..20
        A s2 r(y,0) w(y,1) @30..150
        B s3 r(z,0) w(z,1) @200..300
        W s4 r(x,0) w(x,5) @5..15
        """);
    final List<OnlineEvent> before = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      before.addAll(c.accept(t.get(i)));
    }

    // When
    final List<OnlineEvent> afterW = c.accept(t.get(3));

    // Then: published first, then retracted by W (with the LATE_TRANSACTION finding), the read is
    // attributed to W after all and every level goes back from VIOLATED; the result is check's
    assertEquals(List.of("ThinAirRead [R]"), published(before));
    assertEquals(List.of("ThinAirRead [R] by W"), retracted(afterW));
    assertEquals(List.of("SSER VIOLATED->SATISFIED", "SER VIOLATED->SATISFIED", "SI VIOLATED->SATISFIED"),
        verdictChanges(afterW));
    assertEquals(List.of(), c.result().anomalies());
    assertTrue(c.result().findings().stream().anyMatch(f -> f.kind() == FindingKind.LATE_TRANSACTION));
    assertEquals(OnlineChecker.check(new History(t), OPTIONS).verdicts(), c.result().verdicts());
  }

  @Test
  void shouldReopenTheKeysOrderWhenARetractedThinAirReadWasAReadModifyWrite() {
    // Given: R reads x=5 and writes x=6 (its thin-air read left x's version order open); W comes late
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100));
    final List<Transaction> t = txns("""
        R s1 r(x,5) w(x,6) @10..20
        A s2 r(y,0) w(y,1) @30..150
        B s3 r(z,0) w(z,1) @200..300
        W s4 r(x,0) w(x,5) @5..15
        """);
    t.forEach(c::accept);

    // When
    final CheckResult r = c.result();

    // Then: nothing is left open, as check of the same history says
    assertEquals(List.of(), r.anomalies());
    assertEquals(Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        r.verdicts());
    assertEquals(OnlineChecker.check(new History(t), OPTIONS).verdicts(), r.verdicts());
  }

  @Test
  void shouldCheckTheRetractedReadAgainstItsLateWriterWhenThatWriterAborted() {
    // Given: the late writer of x=5 aborted, so R's read was not from thin air but an aborted read
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100));
    final List<Transaction> t = txns("""
        R s1 r(x,5) @10..20
        A s2 r(y,0) w(y,1) @30..150
        B s3 r(z,0) w(z,1) @200..300
        W s4 r(x,0) w(x,5) aborted @5..15
        """);
    for (int i = 0; i < 3; i++) {
      c.accept(t.get(i));
    }

    // When
    final List<OnlineEvent> afterW = c.accept(t.get(3));

    // Then
    assertEquals(List.of("ThinAirRead [R] by W"), retracted(afterW));
    assertEquals(List.of("AbortedRead [W, R]"), published(afterW));
    assertEquals(names(OnlineChecker.check(new History(t), OPTIONS)), names(c.result()));
  }

  @Test
  void shouldPublishNoThinAirReadWhenTheWriterArrivesWithinTheAbsenceBound() {
    // Given: grace 100 µs, absence bound 1000 µs; the same arrivals as above
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100).withAbsence(1_000));
    final List<Transaction> t = txns("""
        R s1 r(x,5) @10..20
        A s2 r(y,0) w(y,1) @30..150
        B s3 r(z,0) w(z,1) @200..300
        W s4 r(x,0) w(x,5) @5..15
        """);

    // When
    final List<OnlineEvent> events = new ArrayList<>();
    t.forEach(x -> events.addAll(c.accept(x)));

    // Then: R's read waited for the absence bound, so W found it still pending: nothing to take back
    assertEquals(List.of(), published(events));
    assertEquals(List.of(), retracted(events));
    assertEquals(Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        c.result().verdicts());
  }

  @Test
  void shouldPublishTheThinAirReadOnlyOnceTheAbsenceBoundHasPassedInTheProcessingOrder() {
    // Given: grace 100 µs, absence bound 1000 µs; nobody ever writes x=5
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100).withAbsence(1_000));
    final List<Transaction> t = txns("""
        R s1 r(x,5) @10..20
        A s2 r(y,0) w(y,1) @30..500
        B s3 r(z,0) w(z,1) @600..1010
        C s4 r(q,0) w(q,1) @1100..1200
        D s5 r(p,0) w(p,1) @1300..1400
        """);

    // When
    final List<List<OnlineEvent>> each = new ArrayList<>();
    t.forEach(x -> each.add(c.accept(x)));

    // Then: releasing A (500) or B (1010) does not pass 20 + 1000; releasing C (1200), on D's arrival, does
    assertEquals(List.of(), published(each.get(2)));
    assertEquals(List.of(), published(each.get(3)));
    assertEquals(List.of("ThinAirRead [R]"), published(each.get(4)));
  }

  @Test
  void shouldMoveTheWatermarkForGoodWhenAnEventWithoutArrivalTimeLiesFarAhead() {
    // Given: grace 1000 µs; R reads x=5, whose writer W (ending 5 µs after R) arrives after C, well
    // within the grace; but an event ten years ahead arrives first, through accept(), which knows
    // no arrival time
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(1_000));
    final List<Transaction> t = txns("""
        R s1 r(x,5) @10..20
        C s3 r(z,0) w(z,1) @1000..1022
        W s2 r(x,0) w(x,5) @5..25
        """);
    final Transaction future = shifted(txns("F s4 r(y,0) w(y,1) @30..40").get(0), TEN_YEARS_MICROS);

    // When
    c.accept(t.get(0));
    c.accept(future);
    final List<OnlineEvent> afterC = c.accept(t.get(1));
    final List<OnlineEvent> afterW = c.accept(t.get(2));

    // Then: the claim of issue 10 holds for accept(): C was released at once (its time is far
    // below the moved watermark), which took π past R's end plus the grace, so R's read became a
    // false ThinAirRead; W is late, and (since this issue) retracts it
    assertEquals(List.of("ThinAirRead [R]"), published(afterC));
    assertTrue(findings(afterW).contains(FindingKind.LATE_TRANSACTION));
    assertEquals(List.of("ThinAirRead [R] by W"), retracted(afterW));
  }

  @Test
  void shouldNotMoveTheWatermarkWhenAnEventLiesFarAheadOfItsArrival() {
    // Given: the same stream with arrival times (end + 2 µs) and a future bound of one hour
    final OnlineChecker c = new OnlineChecker(OPTIONS,
        OnlineOptions.streaming(1_000).withFutureBound(ONE_HOUR_MICROS));
    final List<Transaction> t = txns("""
        R s1 r(x,5) @10..20
        C s3 r(z,0) w(z,1) @1000..1022
        W s2 r(x,0) w(x,5) @5..25
        """);
    final Transaction future = shifted(txns("F s4 r(y,0) w(y,1) @30..40").get(0), TEN_YEARS_MICROS);

    // When
    final List<OnlineEvent> events = new ArrayList<>(c.acceptAt(t.get(0), 22));
    final List<OnlineEvent> afterF = c.acceptAt(future, 42);
    events.addAll(afterF);
    events.addAll(c.acceptAt(t.get(1), 1024));
    events.addAll(c.acceptAt(t.get(2), 1030));
    events.addAll(c.flush());

    // Then: a typed finding, no early release, no anomaly, no late transaction; the verdicts are
    // check's on the history with F's true times
    assertEquals(List.of(FindingKind.FUTURE_EVENT_TIME), findings(afterF));
    assertEquals(0, c.lateTransactions());
    assertEquals(List.of(), published(events));
    assertEquals(List.of(FindingKind.FUTURE_EVENT_TIME), findings(events));
    final List<Transaction> truth = new ArrayList<>(t);
    truth.add(shifted(future, -TEN_YEARS_MICROS));
    assertEquals(OnlineChecker.check(new History(truth), OPTIONS).verdicts(), c.result().verdicts());
  }

  @Test
  void shouldIgnoreTheRetryOfAFutureEventAsADuplicate() {
    // Given
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(100).withFutureBound(ONE_HOUR_MICROS));
    final Transaction future = shifted(txns("F s3 r(y,0) w(y,1) @30..40").get(0), TEN_YEARS_MICROS);

    // When: the agent's retry arrives later
    c.acceptAt(future, 42);
    final List<OnlineEvent> retry = c.acceptAt(future, 90);

    // Then
    assertEquals(List.of(), retry);
    assertEquals(1, c.duplicatesIgnored());
  }

  @Test
  void shouldChangeNoVerdictWhenOneEventOfAValidStreamLiesTenYearsAhead() {
    // Given: a valid generated history (every level SATISFIED), arriving shuffled within the grace,
    // each transaction 50 µs after its end; one transaction in the middle has its clock ten years ahead
    final History valid = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(3_000)
        .withKeys(50).withSessions(8).withSeed(10));
    final CheckResult expected = OnlineChecker.check(valid, OPTIONS);
    final long grace = 2_000;
    final List<Transaction> byEnd = new ArrayList<>(valid.transactions());
    byEnd.sort(Comparator.comparingLong(Transaction::end));
    final Transaction broken = byEnd.get(byEnd.size() / 2);
    final Random rnd = new Random(10);
    final List<long[]> arrivals = new ArrayList<>();
    for (int i = 0; i < byEnd.size(); i++) {
      // Arrival: end + 50 µs + up to half the grace of jitter, so arrivals interleave within the grace
      arrivals.add(new long[] {byEnd.get(i).end() + 50 + rnd.nextInt((int) grace / 2), i});
    }
    arrivals.sort(Comparator.comparingLong(a -> a[0]));
    final OnlineChecker c = new OnlineChecker(OPTIONS,
        OnlineOptions.streaming(grace).withFutureBound(ONE_HOUR_MICROS));
    final List<OnlineEvent> events = new ArrayList<>();

    // When
    for (final long[] a : arrivals) {
      final Transaction t = byEnd.get((int) a[1]);
      events.addAll(c.acceptAt(t == broken ? shifted(t, TEN_YEARS_MICROS) : t, a[0]));
    }
    events.addAll(c.flush());

    // Then
    assertEquals(Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        expected.verdicts());
    assertEquals(expected.verdicts(), c.result().verdicts());
    assertEquals(List.of(), c.result().anomalies());
    assertEquals(List.of(), published(events));
    assertEquals(0, c.lateTransactions());
    assertEquals(List.of(FindingKind.FUTURE_EVENT_TIME), findings(events).stream().distinct().toList());
  }

  @Test
  void shouldChangeNoVerdictOfAWholeHistoryCheckWhenOneEventLiesTenYearsAheadOfTheOtherSessions() {
    // Given: a valid generated history (every level SATISFIED); one transaction in the middle has its
    // clock ten years ahead (offline there is no arrival: the other sessions' times are the reference)
    final History valid = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(3_000)
        .withKeys(50).withSessions(8).withSeed(10));
    final CheckResult expected = OnlineChecker.check(valid, OPTIONS);
    final List<Transaction> txns = new ArrayList<>(valid.transactions());
    final Transaction broken = txns.get(txns.size() / 2);
    txns.set(txns.size() / 2, shifted(broken, TEN_YEARS_MICROS));
    final History withBroken = new History(txns);

    // When: checked as isowatch check does (default bound, 1 hour), and without the bound
    final CheckResult checked = WholeHistoryCheck.check(withBroken, OPTIONS);
    final CheckResult unbounded = WholeHistoryCheck.check(withBroken, OPTIONS, OnlineOptions.UNBOUNDED);

    // Then: the valid history's verdicts, no anomaly, one FUTURE_EVENT_TIME finding naming it; without
    // the bound the broken clock makes a false violation (which is why the test can fail)
    assertEquals(Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        expected.verdicts());
    assertEquals(expected.verdicts(), checked.verdicts());
    assertEquals(List.of(), checked.anomalies());
    assertEquals(List.of(FindingKind.FUTURE_EVENT_TIME),
        checked.findings().stream().map(f -> f.kind()).distinct().toList());
    assertTrue(checked.findings().get(0).txns().contains(broken.id()), checked.findings().toString());
    assertTrue(!unbounded.verdicts().equals(expected.verdicts()) || !unbounded.anomalies().isEmpty(),
        "the broken clock changed nothing: the case is too weak");
  }

  @Test
  void shouldFlagNothingInAWholeHistoryWhenEverySessionPausesForLongerThanTheBound() {
    // Given: a valid history whose second half, every session alike, comes two hours later
    final History valid = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(1_000)
        .withKeys(30).withSessions(6).withSeed(11));
    final List<Transaction> byEnd = new ArrayList<>(valid.transactions());
    byEnd.sort(Comparator.comparingLong(Transaction::end));
    final long cutEnd = byEnd.get(byEnd.size() / 2).end();
    final List<Transaction> paused = new ArrayList<>();
    for (final Transaction t : valid.transactions()) {
      paused.add(t.start() > cutEnd ? shifted(t, 2 * ONE_HOUR_MICROS) : t);
    }

    // When
    final CheckResult checked = WholeHistoryCheck.check(new History(paused), OPTIONS);

    // Then
    assertEquals(List.of(), checked.findings().stream().filter(f -> f.kind() == FindingKind.FUTURE_EVENT_TIME)
        .toList());
  }

  static Transaction shifted(final Transaction t, final long by) {
    return new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start() + by, t.end() + by, t.ops(),
        t.tenant(), t.level(), t.line());
  }
}
