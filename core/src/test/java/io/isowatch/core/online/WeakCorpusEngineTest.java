package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.corpus.WeakCorpus;
import io.isowatch.core.oracle.WeakLevel;
import java.util.EnumSet;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine on the weak-level golden corpus ({@code corpus-weak}: a minimal history per named
 * anomaly, with its verdict per level from the definitions): each decided verdict is the
 * expected one, UNKNOWN only where a blind write leaves a version order open (RR, PC, SI, SER), and
 * the named anomaly is among those reported, listing exactly the levels the definitions say its
 * minimal history violates (so a promise of any one of them is shown broken by it).
 */
class WeakCorpusEngineTest {
  private static final Map<Level, WeakLevel> LEVELS = Map.of(Level.PL2, WeakLevel.RC_ADYA, Level.RC, WeakLevel.RC,
      Level.RA, WeakLevel.RA, Level.CC, WeakLevel.CC, Level.PC, WeakLevel.PC, Level.SI, WeakLevel.SI,
      Level.RR, WeakLevel.RR, Level.SER, WeakLevel.SER);

  static Stream<String> cases() {
    return WeakCorpus.cases().stream().map(WeakCorpus.Case::name);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldDecideEachLevelAsTheCorpusSays(final String name) {
    // Given
    final WeakCorpus.Case c = WeakCorpus.load(name);
    final CheckOptions options = CheckOptions.defaults().withInitialValue(c.initialValue())
        .withLevels(EnumSet.complementOf(EnumSet.of(Level.MIXED)));

    // When
    final CheckResult r = WholeHistoryCheck.check(c.history(), options);

    // Then
    final boolean blind = r.findings().stream().anyMatch(f -> f.kind() == FindingKind.BLIND_WRITE);
    LEVELS.forEach((level, weak) -> {
      final Verdict v = r.verdicts().get(level);
      if (v == Verdict.UNKNOWN) {
        assertTrue(blind && Level.NEED_VERSION_ORDER.contains(level),
            () -> name + ": " + level + " UNKNOWN ("
            + r.reasons().get(level) + ")");
      } else {
        assertEquals(c.holds().get(weak) ? Verdict.SATISFIED : Verdict.VIOLATED, v, () -> name + ": " + level
            + "; anomalies " + r.anomalies());
      }
    });
    if (c.anomaly() != null && !c.anomaly().isEmpty()) {
      assertTrue(r.anomalies().stream().anyMatch(a -> c.anomaly().equals(a.displayName())),
          () -> name + ": no " + c.anomaly() + " in " + r.anomalies().stream().map(a -> a.displayName()).toList());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void shouldListOnTheNamedAnomalyEveryLevelItsMinimalHistoryViolates(final String name) {
    // Given
    final WeakCorpus.Case c = WeakCorpus.load(name);
    if (c.anomaly() == null || c.anomaly().isEmpty()) {
      return; // no anomaly: nothing is listed
    }
    final CheckOptions options = CheckOptions.defaults().withInitialValue(c.initialValue())
        .withLevels(EnumSet.complementOf(EnumSet.of(Level.MIXED)));

    // When
    final CheckResult r = WholeHistoryCheck.check(c.history(), options);

    // Then: among the levels decided by the engine, those the named anomaly lists are those violated
    final io.isowatch.core.check.Anomaly named = r.anomalies().stream()
        .filter(a -> c.anomaly().equals(a.displayName())).findFirst().orElseThrow();
    final EnumSet<Level> violated = EnumSet.noneOf(Level.class);
    final EnumSet<Level> listed = EnumSet.noneOf(Level.class);
    LEVELS.forEach((level, weak) -> {
      if (r.verdicts().get(level) != Verdict.UNKNOWN) {
        if (!c.holds().get(weak)) {
          violated.add(level);
        }
        if (named.violates().contains(level)) {
          listed.add(level);
        }
      }
    });
    assertEquals(violated, listed, () -> name + ": " + c.anomaly() + " lists " + named.violates());
  }
}
