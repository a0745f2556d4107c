package io.isowatch.streams;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.avro.AnomalyRecords;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The weak levels through the checker's topology (issue 12, item 1 online): check.levels names
 * them, the published verdicts carry them, the anomalies list them, and every anomaly a verdict
 * lists is on the anomalies topic, as {@code isowatch check} reports them.
 */
class WeakLevelsTopologyTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String TENANT = "acme";
  /** MTC (j): T2 sees T1's y but not its x. Violates RA and stronger, not RC (docs/levels.md). */
  private static final String FRACTURED_READ = """
      T1 s1 r(x,0) w(x,1) r(y,0) w(y,1) @1000..2000
      T2 s2 r(x,0) r(y,1) @3000..4000
      """;

  @TempDir Path stateDir;

  @Test
  void shouldPublishAFracturedReadViolatingRaAndSiButNotRcWhenTheLevelsAreRcRaSi() {
    // Given: a checker deciding RC, RA and SI
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir, Map.of(
        IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, "RC,RA,SI"))) {
      // When
      checker.pipe(CheckerDriver.events(TENANT, history(FRACTURED_READ)));
      checker.flushIdleTenants();
      checker.publishVerdicts();

      // Then: the verdict, strongest first: SI and RA violated, RC satisfied
      final List<TenantVerdict> verdicts = checker.verdicts();
      final TenantVerdict verdict = verdicts.get(verdicts.size() - 1);
      assertEquals(List.of("SI=VIOLATED", "RA=VIOLATED", "RC=SATISFIED"), levels(verdict));
      // Then: a FracturedRead that lists RA and SI (and SER, SSER, always shown), never RC
      final List<Anomaly> anomalies = checker.anomalies();
      final Anomaly fractured = anomalies.stream().filter(a -> "FracturedRead".equals(a.getName())).findFirst()
          .orElseThrow(() -> new AssertionError("no FracturedRead in " + anomalies));
      assertEquals(List.of(Level.SSER, Level.SER, Level.SI, Level.RA), fractured.getViolates());
      // Then: what check reports, and every anomaly the verdict lists is on the topic
      final CheckOptions options = new IsoWatchStreamsConfig(Map.of(
          IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, "RC,RA,SI")).checkOptions();
      final CheckResult check = OnlineChecker.check(fed(FRACTURED_READ), options);
      assertEquals(uniqueIds(check), anomalies.stream().map(Anomaly::getUniqueId).collect(Collectors.toSet()));
      assertEquals(uniqueIds(check), Set.copyOf(verdict.getReport().getListedUniqueIds()));
      // Then: the metrics label the weak levels
      assertEquals(1.0, checker.metrics().sample(MetricNames.LEVEL_VERDICT,
          new String[] {"tenant", "level", "verdict"}, new String[] {TENANT, "RA", "VIOLATED"}));
      assertEquals(1.0, checker.metrics().sample(MetricNames.LEVEL_VERDICT,
          new String[] {"tenant", "level", "verdict"}, new String[] {TENANT, "RC", "SATISFIED"}));
    }
  }

  @Test
  void shouldPublishTheWeakCounterexampleOnceWhenOnlyAWeakLevelIsViolated() {
    // Given: a read that goes back within one transaction: RC violated, PL2 satisfied; a checker
    // deciding PL2 and RC only, publishing verdicts twice
    final String readGoesBack = """
        T1 s1 r(x,0) w(x,1) @1000..2000
        T2 s2 r(x,1) r(x,0) @3000..4000
        """;
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir, Map.of(
        IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, "PL2,RC"))) {
      // When
      checker.pipe(CheckerDriver.events(TENANT, history(readGoesBack)));
      checker.flushIdleTenants();
      checker.publishVerdicts();
      checker.pipe(CheckerDriver.events("other", history("T9 s9 r(z,0) w(z,1) @5000..6000")));
      checker.publishVerdicts();

      // Then: RC violated by an anomaly published once, which the verdict lists
      final List<TenantVerdict> verdicts = checker.verdicts().stream().filter(v -> TENANT.equals(v.getTenant()))
          .toList();
      assertEquals(List.of("RC=VIOLATED", "PL2=SATISFIED"), levels(verdicts.get(verdicts.size() - 1)));
      final List<Anomaly> anomalies = checker.anomalies().stream().filter(a -> TENANT.equals(a.getTenant())).toList();
      final CheckResult check = OnlineChecker.check(fed(readGoesBack), CheckOptions.defaults()
          .withLevels(EnumSet.of(io.isowatch.core.check.Level.PL2, io.isowatch.core.check.Level.RC)));
      assertEquals(uniqueIds(check), anomalies.stream().map(Anomaly::getUniqueId).collect(Collectors.toSet()));
      assertEquals(anomalies.size(), Set.copyOf(anomalies).size(), "published twice: " + anomalies);
      // (NonRepeatableReads, the engine's, lists SSER, SER and SI; RC and PL2 allow it: docs/levels.md)
      assertEquals(List.of("NonRepeatableReads=[SSER, SER, SI]", "NonMonotonicRead=[SSER, SER, SI, RC]"),
          anomalies.stream().map(a -> a.getName() + "=" + a.getViolates()).toList());
      assertEquals(List.copyOf(verdicts.get(verdicts.size() - 1).getReport().getListedUniqueIds()),
          check.anomalies().stream().map(a -> AnomalyRecords.uniqueId(TENANT, a)).toList());
    }
  }

  private static io.isowatch.core.history.History fed(final String dsl) {
    return new io.isowatch.core.history.History(CheckerDriver.events(TENANT, history(dsl)).stream()
        .map(io.isowatch.schemas.avro.TransactionEvents::toCore).toList());
  }

  private static Set<String> uniqueIds(final CheckResult r) {
    return r.anomalies().stream().map(a -> AnomalyRecords.uniqueId(TENANT, a)).collect(Collectors.toSet());
  }

  private static List<String> levels(final TenantVerdict v) {
    return v.getLevels().stream().map(l -> l.getLevel() + "=" + l.getVerdict()).toList();
  }
}
