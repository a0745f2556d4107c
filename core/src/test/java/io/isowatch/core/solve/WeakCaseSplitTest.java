package io.isowatch.core.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Issue 14, item 3: PL2, RC, RA and CC of histories with values written twice, decided by cases of writers. */
class WeakCaseSplitTest {
  private static final Set<Level> WEAK = EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.CC);

  @Test
  void shouldSatisfyRaWhenOneWriterOfTheRepeatedValueExplainsTheReads() {
    // Given: x=1 written by T1 (with y=1) and by T2 alone; T3 read x=1 and y=0: from T1 a fractured
    // read, from T2 nothing wrong
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1) w(y,1)
        T2 s2 w(x,1)
        T3 s3 r(x,1) r(y,0)
        """);

    // When
    final CheckResult r = WholeHistoryCheck.check(h, CheckOptions.defaults().withLevels(WEAK));

    // Then
    for (final Level level : WEAK) {
      assertEquals(Verdict.SATISFIED, r.verdicts().get(level), () -> level + " " + r.reasons());
    }
  }

  @Test
  void shouldViolateRaAndStateEachWriterAsACaseWhenEveryWriterLeavesAFracturedRead() {
    // Given: as above, but T2 also wrote z=1, which T3 read as 0: whichever writer of x=1 T3 read,
    // it missed that writer's other write
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1) w(y,1)
        T2 s2 w(x,1) w(z,1)
        T3 s3 r(y,0) r(z,0) r(x,1)
        """);

    // When
    final Set<Level> levels = EnumSet.of(Level.PC);
    levels.addAll(WEAK);
    final CheckResult r = WholeHistoryCheck.check(h, CheckOptions.defaults().withLevels(levels));

    // Then: RC holds (T3 read y and z before x), RA and CC fail in both cases
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.RC), () -> r.reasons().toString());
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.RA), () -> r.reasons().toString());
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.CC));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.PC), "a violation of RA in every case is one of PC");
    final Anomaly a = r.anomalies().stream().filter(x -> x.violates().contains(Level.RA)).findFirst().orElseThrow();
    assertTrue(a.explanation().startsWith("A value read here is written by more than one transaction"), a.explanation());
    assertTrue(a.explanation().contains("each of the 2 way(s) to attribute such reads was checked, and none satisfies RA"),
        a.explanation());
    assertTrue(a.explanation().contains("If T3 read x=1 from T1:\nLet:"), a.explanation());
    assertTrue(a.explanation().contains("If T3 read x=1 from T2:\nLet:"), a.explanation());
    assertTrue(a.explanation().contains("T2 = [w(x,1) w(z,1)]"), "the history's own values: " + a.explanation());
    assertFalse(a.explanation().matches("(?s).*\\d{19}.*"), "no renumbered value shows: " + a.explanation());
    assertTrue(a.transactions().stream().allMatch(t -> h.transactions().contains(t)), "the history's own transactions");
    assertTrue(a.cycle().stream().allMatch(e -> e.value() == null || e.value() < 10), () -> a.cycle().toString());
  }
}
