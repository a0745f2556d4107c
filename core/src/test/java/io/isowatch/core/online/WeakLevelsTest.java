package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The weak levels on minimal histories (docs/levels.md): each history is the smallest that
 * separates two neighbouring levels, and its verdicts are the whole chain, weakest first.
 */
class WeakLevelsTest {
  private static final CheckOptions ALL = CheckOptions.defaults().withLevels(EnumSet.complementOf(EnumSet.of(Level.MIXED)));

  private static CheckResult check(final String text) {
    return WholeHistoryCheck.check(HistoryDsl.history(text), ALL);
  }

  /** The verdicts as {@code "PL2 S, RC S, ..."}, weakest first, S/V/U. */
  private static String chain(final CheckResult r) {
    return Level.weakestFirst(r.verdicts().keySet()).stream()
        .map(l -> l + " " + r.verdicts().get(l).name().charAt(0)).collect(Collectors.joining(", "));
  }

  @Test
  void shouldSatisfyEveryLevelWhenTheHistoryIsSerial() {
    // Given: a serial read-modify-write history
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1) w(x,2) r(y,0) w(y,1)
        T3 s1 r(x,2) r(y,1)
        """);
    // Then
    assertEquals("PL2 S, RC S, RA S, CC S, PC S, SI S, RR S, SER S, SSER U", chain(r));
  }

  @Test
  void shouldViolateRaButNotRcWhenAReadIsFractured() {
    // Given: T2 reads the old x, then T1's y: it sees only part of T1
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1) r(y,0) w(y,1)
        T2 s2 r(x,0) r(y,1)
        """);
    // Then
    assertEquals("PL2 S, RC S, RA V, CC V, PC V, SI V, RR V, SER V, SSER V", chain(r));
    final Anomaly a = anomalyViolating(r, Level.RA);
    assertEquals("FracturedRead", a.name());
    assertTrue(!a.violates().contains(Level.RC) && a.violates().contains(Level.CC), a.violates().toString());
  }

  @Test
  void shouldViolateRcButNotPl2WhenReadsGoBackInTime() {
    // Given: T2 reads T1's new y first, then the x older than T1's
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1) r(y,0) w(y,1)
        T2 s2 r(y,1) r(x,0)
        """);
    // Then: the axiom of RC forbids it, Adya's PL-2 (no G1) allows it
    assertEquals("PL2 S, RC V, RA V, CC V, PC V, SI V, RR V, SER V, SSER V", chain(r));
    assertEquals("NonMonotonicRead", anomalyViolating(r, Level.RC).name());
  }

  @Test
  void shouldViolateCcButNotRaWhenACauseIsMissed() {
    // Given: T3 sees T2, which saw T1, but misses T1's write of x
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1) r(y,0) w(y,1)
        T3 s3 r(y,1) r(x,0)
        """);
    // Then
    assertEquals("PL2 S, RC S, RA S, CC V, PC V, SI V, RR V, SER V, SSER V", chain(r));
    final Anomaly a = anomalyViolating(r, Level.CC);
    assertEquals("CausalityViolation", a.name());
  }

  @Test
  void shouldViolatePcButNotCcOnALongFork() {
    // Given: two readers see two independent writes in opposite orders
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(y,0) w(y,1)
        T3 s3 r(x,1) r(y,0)
        T4 s4 r(y,1) r(x,0)
        """);
    // Then
    assertEquals("PL2 S, RC S, RA S, CC S, PC V, SI V, RR V, SER V, SSER V", chain(r));
    assertEquals("LongFork", anomalyViolating(r, Level.SI).name());
  }

  @Test
  void shouldLeaveEveryLevelUpToCcSatisfiedOnALostUpdate() {
    // Given: T1 and T2 both overwrite x=0
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,0) w(x,2)
        """);
    // Then: PC allows lost updates: decided by its definition, it holds
    assertEquals("PL2 S, RC S, RA S, CC S, PC S, SI V, RR V, SER V, SSER V", chain(r));
    assertEquals(EnumSet.of(Level.SI, Level.RR, Level.SER, Level.SSER), anomalyViolating(r, Level.SI).violates());
  }

  @Test
  void shouldViolatePcOnALongForkNextToALostUpdate() {
    // Given: a lost update on x (which PC allows) and a long fork on y and z (which it forbids)
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,0) w(x,2)
        T3 s3 r(y,0) w(y,1)
        T4 s4 r(z,0) w(z,1)
        T5 s5 r(y,1) r(z,0)
        T6 s6 r(y,0) r(z,1)
        """);
    // Then: PC is VIOLATED, not UNKNOWN, and CC holds
    assertEquals("PL2 S, RC S, RA S, CC S, PC V, SI V, RR V, SER V, SSER V", chain(r));
  }

  @Test
  void shouldViolateSerAndRrButNotSiOnAWriteSkew() {
    final CheckResult r = check("""
        T1 s1 r(x,0) r(y,0) w(x,1)
        T2 s2 r(x,0) r(y,0) w(y,1)
        """);
    assertEquals("PL2 S, RC S, RA S, CC S, PC S, SI S, RR V, SER V, SSER V", chain(r));
  }

  @Test
  void shouldViolatePl2OnACycleOfReads() {
    // Given: each reads the other's write (G1c)
    final CheckResult r = check("""
        T1 s1 r(y,1) w(x,1)
        T2 s2 r(x,1) w(y,1)
        """);
    assertEquals("PL2 V, RC V, RA V, CC V, PC V, SI V, RR V, SER V, SSER V", chain(r));
  }

  @Test
  void shouldDecideWeakLevelsDespiteBlindWrites() {
    // Given: blind writes leave the version order of x open, but RC..CC need none; the search of
    // version orders (issue 14) finds x=1 then x=2 acyclic for SER, which settles PC, SI and RR too
    final CheckResult r = check("""
        T1 s1 w(x,1)
        T2 s2 w(x,2)
        T3 s3 r(x,1)
        """);
    assertEquals("PL2 S, RC S, RA S, CC S, PC S, SI S, RR S, SER S, SSER U", chain(r));
  }

  @Test
  void shouldViolateRaWhenASessionMissesItsOwnBlindWrite() {
    // Given: s1 writes x=1 blindly, then reads the initial x
    final CheckResult r = check("""
        T1 s1 w(x,1)
        T2 s1 r(x,0)
        """);
    // Then: Adya's levels have no session order, and the blind write leaves x's order open for RR
    assertEquals("PL2 S, RC S, RA V, CC V, PC V, SI V, RR U, SER V, SSER V", chain(r));
    assertEquals("SessionGuaranteeViolation", anomalyViolating(r, Level.RA).name());
  }

  @Test
  void shouldAllowNonRepeatableReadsAtRcOnly() {
    // Given: T3 reads x twice and sees T1's, then T2's version
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1) w(x,2)
        T3 s3 r(x,1) r(x,2)
        """);
    assertEquals("PL2 S, RC S, RA V, CC V, PC V, SI V, RR V, SER V, SSER V", chain(r));
  }

  @Test
  void shouldExplainAWitnessWithLetAndThen() {
    final CheckResult r = check("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1) r(y,0) w(y,1)
        T3 s3 r(y,1) r(x,0)
        """);
    final Anomaly a = anomalyViolating(r, Level.CC);
    assertTrue(a.explanation().startsWith("Let:\n"), a.explanation());
    assertTrue(a.explanation().contains("Then:\n"), a.explanation());
    final Edge0 first = new Edge0(a.cycle().get(0).from(), a.cycle().get(a.cycle().size() - 1).to());
    assertEquals(first.from(), first.to(), "the counterexample is a closed cycle: " + a.cycle());
  }

  private record Edge0(String from, String to) {}

  private static Anomaly anomalyViolating(final CheckResult r, final Level level) {
    final Map<String, Anomaly> names = new LinkedHashMap<>();
    for (final Anomaly a : r.anomalies()) {
      if (a.violates().contains(level)) {
        return a;
      }
      names.put(a.displayName(), a);
    }
    throw new AssertionError("no anomaly violates " + level + " among " + names.keySet());
  }

  @Test
  void shouldListVerdictsWeakestFirst() {
    assertEquals(Verdict.SATISFIED, check("T1 s1 r(x,0)").verdicts().get(Level.RC));
    assertEquals(java.util.List.of(Level.PL2, Level.RC, Level.SI, Level.SSER),
        Level.weakestFirst(EnumSet.of(Level.SSER, Level.SI, Level.RC, Level.PL2)));
  }
}
