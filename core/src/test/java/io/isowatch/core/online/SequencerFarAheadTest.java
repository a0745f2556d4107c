package io.isowatch.core.online;

import static io.isowatch.core.testkit.Outcomes.findings;
import static io.isowatch.core.testkit.Outcomes.published;
import static io.isowatch.core.testkit.Outcomes.txns;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The Sequencer's far-ahead rule (docs/streaming.md, "No false positive from time"): without an
 * arrival time to judge a clock by, a transaction whose time lies more than the future bound ahead
 * of every other session's latest time ({@link FarAheadEvents#farAhead}) is a FUTURE_EVENT_TIME
 * finding, checked as ending at the latest trusted time with its start unknown, and it does not
 * move the watermark.
 */
class SequencerFarAheadTest {
  private static final CheckOptions OPTIONS = CheckOptions.defaults();
  private static final long TEN_YEARS_MICROS = 10L * 365 * 24 * 3600 * 1_000_000L;
  private static final long HOUR = 3_600_000_000L;

  @Test
  void shouldNotMoveTheWatermarkWhenAnEventLiesFarAheadOfTheOtherSessions() {
    // Given: grace 1000 µs, future bound one hour; R reads x=5, whose writer W arrives after C,
    // within the grace; an event ten years ahead of the other sessions arrives first
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(1_000).withFutureBound(HOUR));
    final List<Transaction> t = txns("""
        R s1 r(x,5) @10..20
        C s3 r(z,0) w(z,1) @1000..1022
        W s2 r(x,0) w(x,5) @5..25
        """);
    final Transaction future = TimeSafetyTest.shifted(txns("F s4 r(y,0) w(y,1) @30..40").get(0), TEN_YEARS_MICROS);

    // When
    final List<OnlineEvent> events = new ArrayList<>(c.accept(t.get(0)));
    final List<OnlineEvent> afterF = c.accept(future);
    events.addAll(afterF);
    events.addAll(c.accept(t.get(1)));
    events.addAll(c.accept(t.get(2)));
    events.addAll(c.flush());

    // Then: a typed finding naming F, no false ThinAirRead, nothing late; check's verdicts on the
    // history with F's true times
    assertEquals(List.of(FindingKind.FUTURE_EVENT_TIME), findings(afterF));
    assertEquals(List.of(FindingKind.FUTURE_EVENT_TIME), findings(events));
    assertEquals(List.of("F"), futureIds(c.result()));
    assertEquals(List.of(), published(events));
    assertEquals(0, c.lateTransactions());
    final List<Transaction> truth = new ArrayList<>(t);
    truth.add(TimeSafetyTest.shifted(future, -TEN_YEARS_MICROS));
    assertEquals(OnlineChecker.check(new History(truth), OPTIONS).verdicts(), c.result().verdicts());
    assertEquals(List.of(), c.result().anomalies());
  }

  @Test
  void shouldTrustTheOtherSessionsAgainWhenTheyResumeAfterPausingLongerThanTheBound() {
    // Given: s2 and s3 pause for two hours while s1 goes on; then they resume, and s1 after them
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(1_000).withFutureBound(HOUR));
    final long h2 = 2 * HOUR;
    final List<Transaction> t = txns("A1 s1 r(a,0) w(a,1) @10..20\n"
        + "B1 s2 r(b,0) w(b,1) @30..40\n"
        + "C1 s3 r(c,0) w(c,1) @50..60\n"
        + "A2 s1 r(a,1) w(a,2) @" + HOUR / 2 + ".." + (HOUR / 2 + 10) + "\n"
        + "A3 s1 r(a,2) w(a,3) @" + h2 + ".." + (h2 + 10) + "\n"
        + "A4 s1 r(a,3) w(a,4) @" + (h2 + 100) + ".." + (h2 + 110) + "\n"
        + "B2 s2 r(b,1) w(b,2) r(a,4) @" + (h2 + 200) + ".." + (h2 + 210) + "\n"
        + "C2 s3 r(c,1) w(c,2) @" + (h2 + 300) + ".." + (h2 + 310) + "\n"
        + "A5 s1 r(a,4) w(a,5) @" + (h2 + 400) + ".." + (h2 + 410) + "\n"
        + "B3 s2 r(b,2) w(b,3) @" + (h2 + 5_000) + ".." + (h2 + 5_010) + "\n");

    // When
    final List<OnlineEvent> events = new ArrayList<>();
    t.forEach(x -> events.addAll(c.accept(x)));
    final int bufferedBeforeFlush = c.buffered();
    events.addAll(c.flush());

    // Then: only what s1 did more than an hour beyond the others' latest time before they resumed
    // is flagged (a finding, no verdict changed); the resumed sessions are trusted again and move
    // the watermark, which released everything up to B3's end minus the grace
    assertEquals(List.of("A3", "A4"), futureIds(c.result()));
    assertEquals(1, bufferedBeforeFlush);
    assertEquals(0, c.lateTransactions());
    assertEquals(List.of(), published(events));
    assertEquals(Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        c.result().verdicts());
    assertEquals(OnlineChecker.check(new History(t), OPTIONS).verdicts(), c.result().verdicts());
  }

  @Test
  void shouldIgnoreTheRetryOfAnEventFarAheadOfTheOtherSessionsAsADuplicate() {
    // Given: F was taken as far ahead of the other sessions (its times replaced)
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(1_000).withFutureBound(HOUR));
    final List<Transaction> t = txns("""
        A1 s1 r(a,0) w(a,1) @10..20
        F s2 r(b,0) w(b,1) @30..40
        """);
    final Transaction future = TimeSafetyTest.shifted(t.get(1), TEN_YEARS_MICROS);
    c.accept(t.get(0));
    c.accept(future);

    // When: the agent's retry of it comes
    final List<OnlineEvent> retry = c.accept(future);

    // Then: ignored as a retry, not a DUPLICATE_TXN_ID finding
    assertEquals(List.of(), findings(retry));
    assertEquals(1, c.duplicatesIgnored());
  }

  @Test
  void shouldJudgeNoTimeWhileASingleSessionWasSeen() {
    // Given: the start of a stream, one session only: there is no other session to judge its clock by
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(1_000).withFutureBound(HOUR));
    final List<Transaction> t = txns("""
        A1 s1 r(a,0) w(a,1) @10..20
        A2 s1 r(a,1) w(a,2) @30..40
        """);

    // When
    c.accept(t.get(0));
    c.accept(TimeSafetyTest.shifted(t.get(1), TEN_YEARS_MICROS));

    // Then: nothing is flagged (as a whole history of one session flags nothing), and that time
    // moved the watermark: A1 was released
    assertEquals(List.of(), futureIds(c.result()));
    assertEquals(1, c.buffered());
  }

  @Test
  void shouldFlagNothingWithoutAFutureBound() {
    // Given: the rule is off (OnlineOptions.UNBOUNDED, as for replay --file)
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(1_000));
    final List<Transaction> t = txns("""
        A1 s1 r(a,0) w(a,1) @10..20
        B1 s2 r(b,0) w(b,1) @30..40
        """);

    // When
    c.accept(t.get(0));
    c.accept(TimeSafetyTest.shifted(t.get(1), TEN_YEARS_MICROS));

    // Then
    assertEquals(List.of(), futureIds(c.result()));
  }

  @Test
  void shouldTakeTheRuleOfTheWholeHistoryCheck() {
    // Then: one hour ahead is trusted, one µs more is not; no reference, no judgement
    assertEquals(false, FarAheadEvents.farAhead(100 + HOUR, 100, HOUR));
    assertEquals(true, FarAheadEvents.farAhead(101 + HOUR, 100, HOUR));
    assertEquals(false, FarAheadEvents.farAhead(TEN_YEARS_MICROS, Long.MIN_VALUE, HOUR));
    assertEquals(false, FarAheadEvents.farAhead(Long.MAX_VALUE, Long.MAX_VALUE - 1, HOUR));
  }

  private static List<String> futureIds(final CheckResult r) {
    return r.findings().stream().filter(f -> f.kind() == FindingKind.FUTURE_EVENT_TIME)
        .map(Finding::txns).flatMap(List::stream).toList();
  }
}
