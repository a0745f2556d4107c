package io.isowatch.core.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PromiseJudgementTest {
  /** Two sessions read x=0 and both write it: a lost update. */
  private static final String LOST_UPDATE = """
      T1 s1 r(x,0) w(x,1)
      T2 s2 r(x,0) w(x,2)
      """;

  private static CheckResult check(final String history, final Promise p) {
    return WholeHistoryCheck.check(HistoryDsl.history(history), CheckOptions.defaults().withLevels(p.levelsToCheck()));
  }

  @Test
  void shouldCallALostUpdateBrokenWhenPostgresRepeatableReadIsPromised() {
    // Given
    final Promise p = DatabaseProfiles.parse("postgres:repeatable-read");
    // When
    final CheckResult r = check(LOST_UPDATE, p);
    final PromiseJudgement j = PromiseJudgement.of(p, r.verdicts());
    // Then
    assertEquals(PromiseJudgement.Outcome.BROKEN, j.outcome());
    assertEquals(EnumSet.of(Level.SI), j.broken());
    assertEquals(Optional.empty(), j.weakerThan());
    final Anomaly lost = r.anomalies().stream().filter(a -> "LostUpdate".equals(a.name())).findFirst().orElseThrow();
    assertTrue(j.breaks(lost));
  }

  @Test
  void shouldCallALongForkBrokenByAnAnomalyWhenPcAloneIsPromised() {
    // Given: the corpus long fork, and a bare promise of PC (without SI)
    final Promise p = Promise.ofLevels(EnumSet.of(Level.PC));
    // When
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(y,0) w(y,1)
        T3 s3 r(x,1) r(y,0)
        T4 s4 r(y,1) r(x,0)
        """, p);
    final PromiseJudgement j = PromiseJudgement.of(p, r.verdicts());
    // Then: BROKEN, and the LongFork is what breaks it
    assertEquals(PromiseJudgement.Outcome.BROKEN, j.outcome());
    assertEquals(EnumSet.of(Level.PC), j.broken());
    final Anomaly fork = r.anomalies().stream().filter(a -> "LongFork".equals(a.name())).findFirst().orElseThrow();
    assertTrue(j.breaks(fork), fork.violates().toString());
  }

  @Test
  void shouldCallTheSameLostUpdateAllowedWhenPostgresReadCommittedIsPromised() {
    // Given
    final Promise p = DatabaseProfiles.parse("postgres:read-committed");
    // When
    final CheckResult r = check(LOST_UPDATE, p);
    final PromiseJudgement j = PromiseJudgement.of(p, r.verdicts());
    // Then: RC holds; SI and SER are violated, weaker than SI but allowed
    assertEquals(PromiseJudgement.Outcome.KEPT, j.outcome());
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.RC));
    assertEquals(EnumSet.of(Level.SI, Level.SER), j.allowed());
    assertEquals(Optional.of(Level.SI), j.weakerThan());
    final Anomaly lost = r.anomalies().stream().filter(a -> "LostUpdate".equals(a.name())).findFirst().orElseThrow();
    assertFalse(j.breaks(lost));
  }

  @Test
  void shouldBeUndecidedWhenAPromisedLevelIsUnknownAndNoneIsViolated() {
    // When
    final PromiseJudgement j = PromiseJudgement.of(Promise.ofLevel(Level.SI),
        Map.of(Level.SI, Verdict.UNKNOWN, Level.RC, Verdict.SATISFIED, Level.SER, Verdict.VIOLATED));
    // Then
    assertEquals(PromiseJudgement.Outcome.UNDECIDED, j.outcome());
    assertEquals(EnumSet.of(Level.SI), j.undecided());
    assertEquals(EnumSet.of(Level.SER), j.allowed());
  }

  @Test
  void shouldListPromisedLevelsTheCheckDidNotDecideAsUncheckedNotKept() {
    // Given: the streaming checker decides SSER, SER and SI only; read committed is promised
    final Promise p = DatabaseProfiles.parse("postgres:read-committed");
    // When
    final PromiseJudgement j = PromiseJudgement.of(p,
        Map.of(Level.SSER, Verdict.VIOLATED, Level.SER, Verdict.VIOLATED, Level.SI, Verdict.VIOLATED));
    // Then
    assertEquals(EnumSet.of(Level.PL2, Level.RC), j.unchecked());
    assertEquals(PromiseJudgement.Outcome.KEPT, j.outcome());
    assertEquals(Optional.of(Level.SI), j.weakerThan());
  }

  @Test
  void shouldAllowEverythingWhenThePromiseHoldsNoLevel() {
    // When
    final PromiseJudgement j = PromiseJudgement.of(DatabaseProfiles.parse("mysql:read-uncommitted"),
        Map.of(Level.PL2, Verdict.VIOLATED, Level.SER, Verdict.VIOLATED));
    // Then
    assertEquals(PromiseJudgement.Outcome.KEPT, j.outcome());
    assertEquals(Optional.of(Level.PL2), j.weakerThan());
  }
}
