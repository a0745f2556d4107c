package io.isowatch.streams;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.Verdict;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * No false positive from time (issue 10, item 2) through the topology: a ThinAirRead whose writer
 * arrives beyond every bound is retracted on the anomalies topic, in the verdict and in the
 * metrics; an event ten years ahead of its record changes no verdict.
 */
class TimeSafetyTopologyTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String TENANT = "acme";
  private static final long TEN_YEARS_MICROS = 10L * 365 * 24 * 3600 * 1_000_000L;
  private static final String[] ANOMALY_LABELS = {"tenant", "type", "name", "level"};

  @TempDir Path stateDir;

  @Test
  void shouldRetractThePublishedThinAirReadWhenItsWriterArrivesBeyondEveryBound() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given: grace 0; A's and B's arrivals take π past R's end, so R's read of x=5 is published
      // as a ThinAirRead and the verdict is VIOLATED
      final List<TransactionEvent> events = CheckerDriver.events(TENANT, history("""
          R s1 r(x,5) @10..20
          A s2 r(y,0) w(y,1) @30..150
          B s3 r(z,0) w(z,1) @200..300
          W s4 r(x,0) w(x,5) @5..15
          """));
      checker.pipe(events.subList(0, 3));
      checker.publishVerdicts();
      final List<Anomaly> before = checker.anomalies();
      final TenantVerdict violated = last(checker.verdicts());

      // When: x=5's writer arrives, later than every bound
      checker.pipe(events.subList(3, 4));
      checker.publishVerdicts();

      // Then: the same record again, retraction set; the verdict and the metrics take it back
      assertEquals(1, before.size());
      assertEquals("ThinAirRead", before.get(0).getName());
      assertNull(before.get(0).getRetraction());
      assertTrue(violated.getLevels().stream().allMatch(l -> l.getVerdict() == Verdict.VIOLATED), violated.toString());
      final List<Anomaly> after = checker.anomalies();
      assertEquals(1, after.size());
      final Anomaly retraction = after.get(0);
      assertNotNull(retraction.getRetraction());
      assertEquals("W", retraction.getRetraction().getCauseTxn());
      assertEquals(before.get(0).getAnomalyId(), retraction.getAnomalyId());
      assertEquals(before.get(0).getUniqueId(), retraction.getUniqueId());
      // published-anomalies keeps the anomaly's input position, not its detection time (it is
      // trimmed by position): the retraction carries its own time there (schemas/README.md)
      assertEquals(retraction.getRetraction().getRetractedAtMicros(), retraction.getDetectedAtMicros());
      assertEquals(before.get(0).getExplanation(), retraction.getExplanation());
      final TenantVerdict satisfied = last(checker.verdicts());
      assertTrue(satisfied.getLevels().stream().allMatch(l -> l.getVerdict() == Verdict.SATISFIED), satisfied.toString());
      assertEquals(List.of(), satisfied.getReport().getListedAnomalyIds());
      assertEquals(Map.of(), satisfied.getCounts().getAnomaliesByName());
      assertEquals(1.0, checker.metrics().sample(MetricNames.ANOMALIES_TOTAL, ANOMALY_LABELS,
          new String[] {TENANT, "thin-air", "ThinAirRead", "SER"}));
      assertEquals(1.0, checker.metrics().sample(MetricNames.ANOMALIES_RETRACTED_TOTAL, ANOMALY_LABELS,
          new String[] {TENANT, "thin-air", "ThinAirRead", "SER"}));
      assertEquals(1.0, checker.metrics().sample(MetricNames.LEVEL_VERDICT, new String[] {"tenant", "level", "verdict"},
          new String[] {TENANT, "SER", "SATISFIED"}));
    }
  }

  @Test
  void shouldChangeNoVerdictWhenOneEventLiesTenYearsAheadOfItsRecord() {
    // Given: a valid generated history (every level SATISFIED) in end-time order, each record
    // stamped a millisecond after its transaction's end; one transaction in the middle has its
    // clock ten years ahead (its record is stamped by the right clock)
    final History valid = validHistory();
    final List<TransactionEvent> events = eventsByEnd(valid);
    final List<Instant> stamps = stampedAfterEnd(events);
    shift(events.get(events.size() / 2), TEN_YEARS_MICROS);

    // When: checked with the default future bound (1 hour), and with it off
    final Map<String, Verdict> withBound = verdictsOf(events, stamps, Map.of(), stateDir.resolve("bound"));
    final Map<String, Verdict> withoutBound = verdictsOf(events, stamps,
        Map.of(IsoWatchStreamsConfig.CHECK_FUTURE_MS_CONFIG, "-1"), stateDir.resolve("off"));

    // Then: the verdicts are those of the valid history; without the bound the broken clock makes
    // a false violation (which is why the test can fail)
    final Map<String, Verdict> truth = everyLevelSatisfied(valid);
    assertEquals(truth, withBound);
    assertNotEquals(truth, withoutBound);
  }

  @Test
  void shouldChangeNoVerdictWhenOneProducerClockRunsTenYearsAheadOfTheOthers() {
    // Given: a valid generated history that ended an hour before the checker's clock (the driver's
    // wall clock, CheckerDriver.START), each record stamped a millisecond after its transaction's end;
    // one transaction in the middle comes from a producer whose clock runs ten years ahead: its times
    // and its record's timestamp (CreateTime, set by that producer) are ten years ahead alike
    final History valid = validHistory();
    final List<TransactionEvent> events = eventsByEnd(valid);
    final long startMicros = CheckerDriver.START.toEpochMilli() * 1_000L;
    final long base = startMicros - 3_600_000_000L - events.get(events.size() - 1).getEndMicros();
    events.forEach(e -> shift(e, base));
    shift(events.get(events.size() / 2), TEN_YEARS_MICROS);
    final List<Instant> stamps = stampedAfterEnd(events);

    // When: checked with the default future bound (1 hour)
    final Map<String, Verdict> withBound = verdictsOf(events, stamps, Map.of(), stateDir.resolve("bound"));

    // Then: the record's timestamp does not vouch for the broken clock (the arrival is never later than
    // the checker's clock): one FUTURE_EVENT_TIME finding, no anomaly, no transaction late (verdictsOf;
    // had the event moved the watermark, every later one would be), and the valid history's verdicts
    final Map<String, Verdict> truth = everyLevelSatisfied(valid);
    assertEquals(truth, withBound);
  }

  @Test
  void shouldJudgeTimesByTheOtherSessionsOnlyWhenTheRecordsAreNotTheHistorysClock() {
    // Given: as replay --file publishes a file: check.future.arrival=false, every record stamped by the
    // replay's clock, here two hours before the history's first time (each time would lie far ahead of
    // its record); one transaction in the middle is ten years ahead of the other sessions
    final History valid = validHistory();
    final List<TransactionEvent> events = eventsByEnd(valid);
    events.forEach(e -> shift(e, 2 * 3_600_000_000L));
    shift(events.get(events.size() / 2), TEN_YEARS_MICROS);
    final Instant replayClock = Instant.EPOCH.plusMillis(1);

    // When
    final TenantVerdict v;
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir, Map.of(
        IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "50",
        IsoWatchStreamsConfig.CHECK_FUTURE_ARRIVAL_CONFIG, "false"))) {
      events.forEach(e -> checker.pipe(e, replayClock));
      checker.flushIdleTenants();
      checker.publishVerdicts();
      assertEquals(List.of(), checker.anomalies());
      v = last(checker.verdicts());
    }

    // Then: only the broken clock is a FUTURE_EVENT_TIME finding, nothing is late, and the verdicts are
    // the valid history's
    assertEquals(1L, v.getCounts().getFindingsByKind().get("FUTURE_EVENT_TIME"), v.toString());
    assertEquals(null, v.getCounts().getFindingsByKind().get("LATE_TRANSACTION"), v.toString());
    final Map<String, Verdict> truth = everyLevelSatisfied(valid);
    final Map<String, Verdict> got = new TreeMap<>();
    v.getLevels().forEach(l -> got.put(l.getLevel().name(), l.getVerdict()));
    assertEquals(truth, got);
  }

  /** A valid generated history of 600 transactions (every level SATISFIED). */
  private static History validHistory() {
    return MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(600)
        .withKeys(20).withSessions(6).withSeed(10));
  }

  /** The events of {@code history} in end-time order. */
  private static List<TransactionEvent> eventsByEnd(final History history) {
    final List<Transaction> byEnd = new ArrayList<>(history.transactions());
    byEnd.sort(Comparator.comparingLong(Transaction::end));
    return CheckerDriver.events(TENANT, new History(byEnd));
  }

  /** Each event's record timestamp: a millisecond after its transaction's end. */
  private static List<Instant> stampedAfterEnd(final List<TransactionEvent> events) {
    return events.stream().map(e -> Instant.EPOCH.plus(e.getEndMicros() + 1_000,
        java.time.temporal.ChronoUnit.MICROS)).toList();
  }

  /** Moves an event's times by {@code micros}, as a producer clock that far off would. */
  private static void shift(final TransactionEvent e, final long micros) {
    e.setStartMicros(e.getStartMicros() + micros);
    e.setEndMicros(e.getEndMicros() + micros);
  }

  /** The whole-history verdicts of {@code valid} by level name, checked to be all SATISFIED. */
  private static Map<String, Verdict> everyLevelSatisfied(final History valid) {
    final Map<String, Verdict> truth = new TreeMap<>();
    OnlineChecker.check(valid, CheckOptions.defaults()).verdicts()
        .forEach((level, v) -> truth.put(level.name(), Verdict.valueOf(v.name())));
    assertEquals(Map.of("SSER", Verdict.SATISFIED, "SER", Verdict.SATISFIED, "SI", Verdict.SATISFIED), truth);
    return truth;
  }

  /** The levels of the tenant's last verdict after the events, an idle flush and the verdict punctuator. */
  private static Map<String, Verdict> verdictsOf(final List<TransactionEvent> events, final List<Instant> stamps,
      final Map<String, String> config, final Path state) {
    final Map<String, String> overrides = new java.util.HashMap<>(config);
    overrides.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "50");
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), state, overrides)) {
      for (int i = 0; i < events.size(); i++) {
        checker.pipe(events.get(i), stamps.get(i));
      }
      checker.flushIdleTenants();
      checker.publishVerdicts();
      final TenantVerdict v = last(checker.verdicts());
      if (config.isEmpty()) {
        assertEquals(List.of(), checker.anomalies());
        assertEquals(1L, v.getCounts().getFindingsByKind().get("FUTURE_EVENT_TIME"), v.toString());
        assertEquals(null, v.getCounts().getFindingsByKind().get("LATE_TRANSACTION"), v.toString());
      }
      final Map<String, Verdict> out = new TreeMap<>();
      for (final LevelVerdict l : v.getLevels()) {
        out.put(l.getLevel().name(), l.getVerdict());
      }
      return out;
    }
  }

  private static TenantVerdict last(final List<TenantVerdict> verdicts) {
    assertTrue(!verdicts.isEmpty(), "no verdict published");
    return verdicts.get(verdicts.size() - 1);
  }
}
