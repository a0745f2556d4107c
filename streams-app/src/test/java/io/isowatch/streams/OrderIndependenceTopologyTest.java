package io.isowatch.streams;

import static io.isowatch.streams.testkit.PublishedAnomalies.expectedRecords;
import static io.isowatch.streams.testkit.PublishedAnomalies.fed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Checker;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.oracle.RandomHistories;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.processor.VerdictRecords;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import io.isowatch.streams.testkit.PublishedAnomalies;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The property of docs/streaming-design.md through the whole topology: whatever the arrival order
 * (shuffled across sessions, every transaction arriving within the grace period) and whatever the
 * duplicates, the anomalies published (by id and content) and the final verdicts equal {@code
 * OnlineChecker.check} on the same history; for proper mini-transaction histories the verdicts also
 * equal the batch {@link Checker}'s.
 */
class OrderIndependenceTopologyTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  /** Grace of the drivers here, µs; arrival delays are drawn below it. */
  private static final long GRACE_MICROS = 1_000L;
  private static final int RANDOM_HISTORIES = 60;

  @TempDir Path stateDir;

  private final Map<CheckOptions, CheckerDriver> drivers = new HashMap<>();

  @AfterEach
  void closeDrivers() {
    drivers.values().forEach(CheckerDriver::close);
  }

  @Test
  void shouldPublishWhatTheOnlineCheckReportsWhenRandomHistoriesArriveShuffledWithDuplicates() {
    // Given
    final Map<String, Case> cases = new TreeMap<>();
    for (long seed = 1; seed <= RANDOM_HISTORIES; seed++) {
      final RandomHistories.Generated g = RandomHistories.generate(seed);
      cases.put("random-" + seed, new Case(g.options(), g.history(), g.describe()));
    }
    // When
    final Map<String, CheckResult> online = feedAndCompare(cases, new Random(7));
    // Then: the comparison was about something (feedAndCompare asserted the equalities).
    assertTrue(withAnomalies(online) >= RANDOM_HISTORIES / 4, "histories with anomalies: " + withAnomalies(online));
  }

  private static long withAnomalies(final Map<String, CheckResult> results) {
    return results.values().stream().filter(r -> !r.anomalies().isEmpty()).count();
  }

  @Test
  void shouldAlsoMatchTheBatchVerdictsWhenMiniTransactionHistoriesArriveShuffledWithDuplicates() {
    // Given: MT histories from a simulated SER or SI database, with injected anomalies.
    final Map<String, Case> cases = new TreeMap<>();
    final String[] injections = {"LostUpdate:2", "WriteSkew:1,LongFork:1", "FracturedRead:1,CausalityViolation:1",
        "", "NonMonotonicRead:1,LostUpdate:1"};
    for (int i = 0; i < injections.length; i++) {
      final GeneratorConfig config = GeneratorConfig.defaults()
          .withSeed(100 + i).withTransactions(150).withSessions(6).withKeys(12)
          .withLevel(i % 2 == 0 ? SimulatedLevel.SER : SimulatedLevel.SI)
          .withInjections(Injection.parseList(injections[i]));
      final History h = MtHistoryGenerator.generateHistory(config);
      cases.put("mt-" + i, new Case(CheckOptions.defaults(), h, "generator " + config));
    }
    // When
    final Map<String, CheckResult> online = feedAndCompare(cases, new Random(11));
    // Then
    assertTrue(withAnomalies(online) >= 4, "histories with anomalies: " + withAnomalies(online));
    for (final Map.Entry<String, Case> e : cases.entrySet()) {
      final CheckResult batch = new Checker(e.getValue().options()).check(fed(e.getKey(), e.getValue().history()));
      assertEquals(batch.verdicts(), online.get(e.getKey()).verdicts(), e.getKey());
      assertEquals(batch.stats().anomaliesByName(), online.get(e.getKey()).stats().anomaliesByName(), e.getKey());
    }
  }

  private record Case(CheckOptions options, History history, String description) {}

  /** Feeds each case as its own tenant, flushes, and compares; returns each tenant's online check. */
  private Map<String, CheckResult> feedAndCompare(final Map<String, Case> cases, final Random rnd) {
    final Map<String, CheckResult> expected = new HashMap<>();
    for (final Map.Entry<String, Case> e : cases.entrySet()) {
      final String tenant = e.getKey();
      final Case c = e.getValue();
      final List<TransactionEvent> events = CheckerDriver.events(tenant, c.history());
      expected.put(tenant, OnlineChecker.check(fed(tenant, c.history()), c.options()));
      driver(c.options()).pipe(arrivalOrder(events, rnd));
    }
    final Map<String, List<Anomaly>> published = new HashMap<>();
    final Map<String, TenantVerdict> verdicts = new HashMap<>();
    for (final CheckerDriver d : drivers.values()) {
      d.flushIdleTenants();
      d.publishVerdicts();
      d.anomalies().forEach(a -> published.computeIfAbsent(a.getTenant(), t -> new ArrayList<>()).add(a));
      d.verdicts().forEach(v -> verdicts.put(v.getTenant(), v));
    }
    for (final Map.Entry<String, Case> e : cases.entrySet()) {
      final String tenant = e.getKey();
      final CheckResult want = expected.get(tenant);
      final String why = tenant + ": " + e.getValue().description();
      assertEquals(comparable(expectedRecords(tenant, want)),
          comparable(published.getOrDefault(tenant, List.of())), why);
      final TenantVerdict got = verdicts.get(tenant);
      final TenantVerdict wantVerdict = VerdictRecords.toAvro(tenant, want, 0, 0, 0, got.getAtMicros());
      assertEquals(levels(wantVerdict), levels(got), why);
      assertEquals(wantVerdict.getCounts().getAnomaliesByName(), got.getCounts().getAnomaliesByName(), why);
      assertEquals(wantVerdict.getCounts().getTransactionsChecked(), got.getCounts().getTransactionsChecked(), why);
      assertEquals(wantVerdict.getCounts().getFindingsByKind(), got.getCounts().getFindingsByKind(), why);
    }
    return expected;
  }

  private CheckerDriver driver(final CheckOptions options) {
    return drivers.computeIfAbsent(options, o -> new CheckerDriver(REGISTRY.url(),
        stateDir.resolve("driver-" + drivers.size()), Map.of(
            IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, Long.toString(GRACE_MICROS / 1_000L),
            IsoWatchStreamsConfig.CHECK_INITIAL_VALUE_CONFIG, String.valueOf(o.initialValue()),
            IsoWatchStreamsConfig.CHECK_RT_SKEW_US_CONFIG, Long.toString(o.rtSkewMicros()))));
  }

  /**
   * An arrival order within the grace: each transaction arrives at its end plus a random delay
   * below the grace (those without an end anywhere), so none arrives after the watermark passed
   * it; a fifth arrive a second time somewhere later.
   */
  private static List<TransactionEvent> arrivalOrder(final List<TransactionEvent> events, final Random rnd) {
    final List<Map.Entry<Double, TransactionEvent>> keyed = new ArrayList<>();
    final long maxEnd = events.stream().mapToLong(e -> e.getEndMicros() == null ? 0 : e.getEndMicros()).max().orElse(0);
    for (final TransactionEvent e : events) {
      final double at = e.getEndMicros() == null
          ? rnd.nextDouble() * (maxEnd + GRACE_MICROS)
          : e.getEndMicros() + rnd.nextDouble() * (GRACE_MICROS - 1);
      keyed.add(Map.entry(at, e));
      if (rnd.nextInt(5) == 0) {
        keyed.add(Map.entry(at + rnd.nextDouble() * 3 * GRACE_MICROS, e));
      }
    }
    keyed.sort(Map.Entry.comparingByKey());
    return keyed.stream().map(Map.Entry::getValue).toList();
  }

  /** Anomalies by id, without the detection time and latency (those are the checker's clock). */
  private static Map<String, Anomaly> comparable(final List<Anomaly> anomalies) {
    final Map<String, Anomaly> out = PublishedAnomalies.comparable(anomalies);
    for (final String id : out.keySet()) {
      assertFalse(id.startsWith(PublishedAnomalies.PUBLISHED_TWICE), id);
    }
    return out;
  }

  private static List<String> levels(final TenantVerdict v) {
    return v.getLevels().stream().sorted(Comparator.comparing(LevelVerdict::getLevel))
        .map(l -> l.getLevel() + "=" + l.getVerdict() + " (" + l.getReason() + ")").toList();
  }

}
