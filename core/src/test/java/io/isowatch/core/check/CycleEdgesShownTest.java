package io.isowatch.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cycle is named by the edges its explanation shows (Elle's rule: the class follows the kinds of
 * the steps; Adya's G-single has exactly one anti-dependency, G2-item more). A step where an
 * anti-dependency and real time both hold, in a cycle every step of which holds in SER's graph, is
 * classified as its RW (real time dropped); it was shown as RT, so a cycle of one RW + RT was named
 * G2-item and claimed SER, which real time does not touch (issue 14, wording item 5).
 */
class CycleEdgesShownTest {
  @Test
  void shouldShowTheAntiDependencyOfAStepWhereRealTimeAlsoHoldsWhenTheCycleIsInSerGraph() {
    // Given: T1 read x=0 before T2 wrote x=1 (RW); T2 read y=0 before T3 wrote y=1 (RW) and ended
    // before T3 started (RT); T1 read z=1, which T3 wrote (WR)
    final History history = HistoryDsl.history("""
        T1 s1 r(x,0) r(z,1) @40..50
        T2 s2 r(x,0) w(x,1) r(y,0) @1..10
        T3 s3 r(y,0) w(y,1) w(z,1) @20..30
        """);
    // When
    final CheckResult r = WholeHistoryCheck.check(history,
        CheckOptions.defaults().withLevels(EnumSet.of(Level.SSER, Level.SER, Level.SI)));
    // Then: two adjacent anti-dependencies and a read dependency, as shown; SER violated, SI not
    assertEquals(1, r.anomalies().size(), r.anomalies().toString());
    final Anomaly a = r.anomalies().get(0);
    assertEquals("G2-item", a.type());
    assertEquals(List.of(new Edge("T1", "T2", EdgeKind.RW, "x", 0L), new Edge("T2", "T3", EdgeKind.RW, "y", 0L),
        new Edge("T3", "T1", EdgeKind.WR, "z", 1L)), a.cycle());
    assertEquals(EnumSet.of(Level.SSER, Level.SER), a.violates());
    assertTrue(a.explanation().contains("  - T2 < T3, because T2 read y=0, and T3 overwrote that version with y=1;"),
        a.explanation());
    assertFalse(a.explanation().contains("ended"), a.explanation());
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI));
  }

  @Test
  void shouldNameACycleThatNeedsRealTimeAfterItsOneAntiDependency() {
    // Given: the same, but T3 does not write z and T1 reads z=0: T3 < T1 only in real time
    final History history = HistoryDsl.history("""
        T1 s1 r(x,0) r(z,0) @40..50
        T2 s2 r(x,0) w(x,1) @1..10
        T3 s3 r(x,1) @20..30
        """);
    // When
    final CheckResult r = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(EnumSet.of(Level.SSER)));
    // Then: T1 read x=0, T2 overwrote it (RW), T2 ended before T1 started (RT): G-single-realtime, SSER only
    assertEquals(1, r.anomalies().size(), r.anomalies().toString());
    final Anomaly a = r.anomalies().get(0);
    assertEquals("G-single-realtime", a.type());
    assertEquals(1, a.cycle().stream().filter(e -> e.kind() == EdgeKind.RW).count(), a.cycle().toString());
    assertTrue(a.cycle().stream().anyMatch(e -> e.kind() == EdgeKind.RT), a.cycle().toString());
    assertEquals(EnumSet.of(Level.SSER), a.violates());
  }

  @Test
  void shouldReportElleGNonadjacentAsG2ItemViolatingSiAndAdjacentAntiDependenciesAsG2ItemAllowedBySi() {
    // Given: a long fork (two RW steps, not adjacent: Elle's G-nonadjacent) and a write skew (two
    // adjacent RW steps: Elle's G2-item)
    final History longFork = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(y,0) w(y,1)
        T3 s3 r(x,1) r(y,0)
        T4 s4 r(x,0) r(y,1)
        """);
    final History writeSkew = HistoryDsl.history("""
        T1 s1 r(x,0) r(y,0) w(x,1)
        T2 s2 r(x,0) r(y,0) w(y,1)
        """);
    final CheckOptions classic = CheckOptions.defaults().withLevels(EnumSet.of(Level.SSER, Level.SER, Level.SI));
    // When
    final Anomaly fork = WholeHistoryCheck.check(longFork, classic).anomalies().get(0);
    final Anomaly skew = WholeHistoryCheck.check(writeSkew, classic).anomalies().get(0);
    // Then: both keep the type G2-item (docs/anomalies.md: IsoWatch does not add G-nonadjacent);
    // which one Elle calls G-nonadjacent is told by SI in violates, which the shown edges give
    assertEquals("G2-item", fork.type());
    assertEquals("LongFork", fork.name());
    assertFalse(adjacentAntiDependencies(fork.cycle()), fork.cycle().toString());
    assertTrue(fork.violates().contains(Level.SI), fork.violates().toString());
    assertEquals("G2-item", skew.type());
    assertEquals("WriteSkew", skew.name());
    assertTrue(adjacentAntiDependencies(skew.cycle()), skew.cycle().toString());
    assertFalse(skew.violates().contains(Level.SI), skew.violates().toString());
  }

  /** True when two consecutive steps of the cycle (the last and the first included) are both RW. */
  private static boolean adjacentAntiDependencies(final List<Edge> cycle) {
    for (int i = 0; i < cycle.size(); i++) {
      if (cycle.get(i).kind() == EdgeKind.RW && cycle.get((i + 1) % cycle.size()).kind() == EdgeKind.RW) {
        return true;
      }
    }
    return false;
  }
}
