package io.isowatch.core.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Checker;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Generated histories against the checker: valid ones pass, each injected pattern is found by
 * name. Runs on the batch {@link Checker} here and on the incremental engine in {@code
 * GeneratedHistoriesOnlineCheckTest}, which overrides {@link #engine}.
 */
class GeneratedHistoriesCheckTest {
  private static final CheckOptions ALL_LEVELS = CheckOptions.defaults();

  /** The engine under test. */
  CheckResult engine(final History history, final CheckOptions options) {
    return new Checker(options).check(history);
  }

  @ParameterizedTest
  @ValueSource(strings = {"uniform", "zipf:0.99", "hotspot", "exponential"})
  void shouldSatisfyEveryLevelWhenSimulatingSer(final String dist) {
    // Given
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(30_000)
        .withKeys(200).withDistribution(KeyDistribution.parse(dist)));

    // When
    final CheckResult r = engine(h, ALL_LEVELS);

    // Then
    assertEquals(Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        r.verdicts(), () -> r.anomalies().toString());
    assertEquals(List.of(), r.anomalies());
    assertEquals(30_000, r.stats().committed());
  }

  @Test
  void shouldSatisfySiButShowWriteSkewWhenSimulatingSiUnderContention() {
    // Given: 10 keys and 5 sessions, so snapshots often overlap on the same keys.
    final GeneratedHistory g = MtHistoryGenerator.generateWithSummary(GeneratorConfig.defaults()
        .withTransactions(30_000).withKeys(10).withSessions(5).withLevel(SimulatedLevel.SI));

    // When: a cap high enough that the cycle search is not cut short.
    final CheckResult r = engine(g.history(), ALL_LEVELS.withMaxAnomalies(10_000));

    // Then: first-committer-wins aborts, no SI anomaly, and SER falls to cycles SI allows only:
    // two adjacent anti-dependencies (G2-item), write skew among them.
    assertTrue(g.summary().aborted() > 0, "expected aborts");
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI), () -> r.anomalies().toString());
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER));
    assertFalse(r.stats().anomaliesTruncated());
    assertTrue(r.stats().anomaliesByName().containsKey("WriteSkew"), r.stats().anomaliesByName()::toString);
    for (final Anomaly a : r.anomalies()) {
      assertTrue(a.type().startsWith("G2-item"), () -> "unexpected " + a.type() + ": " + a.explanation());
      assertFalse(a.violates().contains(Level.SI), () -> "SI anomaly in an SI simulation: " + a.explanation());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"uniform", "zipf:0.99", "hotspot", "exponential"})
  void shouldSatisfySiWhenSimulatingSiWithAnyDistribution(final String dist) {
    // Given
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(30_000)
        .withKeys(100).withDistribution(KeyDistribution.parse(dist)).withLevel(SimulatedLevel.SI));

    // When
    final CheckResult r = engine(h, ALL_LEVELS.withLevels(Set.of(Level.SI)));

    // Then
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI), () -> r.anomalies().toString());
  }

  @Test
  void shouldLeaveSserUnknownAndSatisfyTheOthersWhenTimesAreOff() {
    // Given
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(5_000)
        .withTimestamps(false));

    // When
    final CheckResult r = engine(h, ALL_LEVELS);

    // Then
    assertEquals(Verdict.UNKNOWN, r.verdicts().get(Level.SSER));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI));
  }

  @ParameterizedTest
  @EnumSource(InjectedKind.class)
  void shouldDetectEachInjectedInstanceUnderItsNameWhenInjected(final InjectedKind kind) {
    // Given: a valid SER background with two instances of the pattern.
    final GeneratedHistory g = MtHistoryGenerator.generateWithSummary(GeneratorConfig.defaults()
        .withTransactions(5_000).withKeys(100).withInjections(List.of(new Injection(kind, 2))));

    // When
    final CheckResult r = engine(g.history(), ALL_LEVELS);

    // Then: exactly the injected anomalies, by name, on exactly the injected transactions.
    assertEquals(Map.of(kind.patternName(), 2L), r.stats().anomaliesByName(), () -> r.anomalies().toString());
    for (final InjectedAnomaly injected : g.summary().injected()) {
      final boolean found = r.anomalies().stream().anyMatch(a -> kind.patternName().equals(a.name())
          && injected.txnIds().containsAll(a.txnIds()) && a.violates().containsAll(Level.shown(kind.violates(), Level.CLASSIC)));
      assertTrue(found, () -> "no " + kind.patternName() + " on " + injected.txnIds() + " in " + r.anomalies());
    }
    final Map<Level, Verdict> expected = new EnumMap<>(Level.class);
    for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
      expected.put(level, kind.violates().contains(level) ? Verdict.VIOLATED : Verdict.SATISFIED);
    }
    assertEquals(expected, r.verdicts());
  }

  @Test
  void shouldDetectEveryKindAtOnceWhenInjectedTogetherIntoAnSiHistory() {
    // Given
    final GeneratedHistory g = MtHistoryGenerator.generateWithSummary(GeneratorConfig.defaults()
        .withTransactions(10_000).withLevel(SimulatedLevel.SI)
        .withInjections(Injection.parseList(MtHistoryGeneratorTest.allKinds())));

    // When
    final CheckResult r = engine(g.history(), ALL_LEVELS.withLevels(Set.of(Level.SI)));

    // Then: every SI-violating pattern is reported; write skew is allowed by SI.
    for (final InjectedAnomaly injected : g.summary().injected()) {
      final InjectedKind kind = injected.kind();
      final boolean found = r.anomalies().stream()
          .anyMatch(a -> kind.patternName().equals(a.name()) && injected.txnIds().containsAll(a.txnIds()));
      assertEquals(kind.violates().contains(Level.SI), found, () -> kind + " in " + r.anomalies());
    }
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SI));
  }
}
