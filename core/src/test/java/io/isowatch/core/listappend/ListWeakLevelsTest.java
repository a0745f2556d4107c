package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.oracle.ListAppendOracle;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** RC, RA, CC and PC on list-append histories ({@link ListWeakLevels}, docs/list-append.md "Levels"). */
class ListWeakLevelsTest {
  private static final Set<Level> CHAIN = EnumSet.of(Level.SER, Level.SI, Level.PC, Level.CC, Level.RA, Level.RC);

  private static CheckResult check(final History h) {
    return WholeHistoryCheck.check(h, CheckOptions.defaults().withLevels(CHAIN));
  }

  private static String weak(final CheckResult r) {
    final StringBuilder sb = new StringBuilder();
    for (final Level l : List.of(Level.RC, Level.RA, Level.CC, Level.PC)) {
      sb.append(sb.length() == 0 ? "" : "/").append(r.verdicts().get(l).name().charAt(0));
    }
    return sb.toString();
  }

  @Test
  void shouldFindAFracturedReadOfListsUnderRaButNotRc() {
    // Given: T1 appends to x and y; T2 reads y before T1's append, then x after it
    final History h = HistoryDsl.history("""
        T1 s1 a(x,1) a(y,1)
        T2 s2 r(y,[]) r(x,[1])
        """);
    // When
    final CheckResult r = check(h);
    // Then: RC holds (the read of y comes before the read of x, and RC looks only at earlier reads), RA does not
    assertEquals("S/V/V/V", weak(r));
    final Anomaly a = r.anomalies().stream().filter(x -> x.violates().contains(Level.RA)).findFirst().orElseThrow();
    assertFalse(a.violates().contains(Level.RC), a.toString());
    assertTrue(a.explanation().startsWith("Let:\n") && a.explanation().contains("Then:\n"), a.explanation());
    assertTrue(a.explanation().contains("T2 read y=[], the empty list, although it had seen T1"), a.explanation());
    // And: the oracle agrees
    for (final Level l : List.of(Level.RC, Level.RA, Level.CC, Level.PC)) {
      assertEquals(r.verdicts().get(l) == Verdict.SATISFIED, ListAppendOracle.holds(h, l, 0), l::name);
    }
  }

  @Test
  void shouldJudgeAReadOfOwnAppendsByTheVersionTheyBuildOn() {
    // Given: T2 appends 3 to y and reads [3]: it built on the empty list, which T1's append follows in y=[2,3]
    final History h = HistoryDsl.history("""
        T1 s1 a(y,2)
        T2 s2 a(y,3) r(y,[3])
        T3 s3 r(y,[2,3])
        """);
    // When
    final CheckResult r = check(h);
    // Then: SER and SI violated (IncompatibleOrder), the four weak levels hold, and no anomaly claims them
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SI));
    assertEquals("S/S/S/S", weak(r));
    for (final Anomaly a : r.anomalies()) {
      assertTrue(a.violates().stream().noneMatch(ListWeakLevels.DECIDED::contains), a.toString());
      assertFalse(a.explanation().matches("(?s).*This violates[^.]*\\bRC\\b.*"), a.explanation());
    }
    for (final Level l : List.of(Level.RC, Level.RA, Level.CC, Level.PC, Level.SER)) {
      assertEquals(r.verdicts().get(l) == Verdict.SATISFIED, ListAppendOracle.holds(h, l, 0), l::name);
    }
  }

  @Test
  void shouldDecideWhateverTheOrderOfAppendsNoReadShows() {
    // Given: two appends to x no read shows, and a causality violation through x
    final History h = HistoryDsl.history("""
        T1 s1 a(x,1)
        T2 s2 r(x,[1]) a(y,1)
        T3 s3 r(y,[1]) r(x,[])
        T4 s4 a(x,7)
        T5 s5 a(x,8)
        """);
    // When
    final CheckResult r = check(h);
    // Then: RC and RA hold, CC and PC do not, decided although the order of 7 and 8 is open
    assertEquals("S/S/V/V", weak(r));
    assertTrue(r.anomalies().stream().anyMatch(a -> "CausalityViolation".equals(a.name())
        && a.violates().contains(Level.CC)), r.anomalies().toString());
    for (final Level l : List.of(Level.RC, Level.RA, Level.CC, Level.PC)) {
      assertEquals(r.verdicts().get(l) == Verdict.SATISFIED, ListAppendOracle.holds(h, l, 0), l::name);
    }
  }

  @Test
  void shouldFindALongForkUnderPcOnly() {
    // Given: two readers see the appends to x and y in opposite orders
    final History h = HistoryDsl.history("""
        T1 s1 a(x,1)
        T2 s2 a(y,1)
        T3 s3 r(x,[1]) r(y,[])
        T4 s4 r(y,[1]) r(x,[])
        """);
    // When
    final CheckResult r = check(h);
    // Then
    assertEquals("S/S/S/V", weak(r));
    final Anomaly a = r.anomalies().stream().filter(x -> x.violates().contains(Level.PC)).findFirst().orElseThrow();
    assertEquals("LongFork", a.name());
    assertFalse(a.violates().contains(Level.CC), a.toString());
    assertEquals(false, ListAppendOracle.holds(h, Level.PC, 0));
    assertEquals(true, ListAppendOracle.holds(h, Level.CC, 0));
  }

  @Test
  void shouldLeaveCcUnknownWithAReasonWhenItsClocksWouldNotFit() {
    // Given: 6,000 correct transactions, each in a session of its own: 3.6e7 clock cells, past the bound
    final List<Transaction> txns = new ArrayList<>();
    for (int i = 0; i < 6_000; i++) {
      txns.add(new Transaction("T" + i, "s" + i, Transaction.NO_SEQ, TxnStatus.COMMITTED, Transaction.NO_TIME,
          Transaction.NO_TIME, List.of(Op.append("k" + (i % 50), (long) i), Op.readList("r" + (i % 7), List.of())), null,
          null, i + 1));
    }
    // When
    final CheckResult r = WholeHistoryCheck.check(new History(txns),
        CheckOptions.defaults().withLevels(EnumSet.of(Level.RC, Level.CC)));
    // Then: RC is decided (its reads are of keys nobody appends to), CC is not
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.RC));
    assertEquals(Verdict.UNKNOWN, r.verdicts().get(Level.CC));
    assertTrue(r.reasons().get(Level.CC).contains("at most " + ListWeakLevels.CLOCK_CELLS + " transactions × sessions"),
        r.reasons().toString());
  }

  @Test
  void shouldNameInEachExplanationOnlyTheLevelsItsAnomalyViolatesWhenTheTranslationFindsAnRcCycle() {
    // Given: MariaDB REPEATABLE READ (corpus/list-append/mariadb-rr-update-then-read): T1's read of y
    // after its own append shows T2's append, its later read of x the snapshot before T2
    final History h = HistoryDsl.history("""
        T1 s1 r(z,[]) a(y,2) r(y,[1,2]) r(x,[])
        T2 s2 a(y,1) a(x,1)
        """);
    // When
    final CheckResult r = WholeHistoryCheck.check(h, CheckOptions.defaults().withLevels(EnumSet.of(Level.PL2, Level.RC)));
    // Then: RC is violated, and every explanation's closing sentence lists the levels its anomaly
    // violates, no more (the translation's cycle is listed with SER only, ListWeakLevels' with RC)
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.RC));
    assertTrue(r.anomalies().size() >= 2, r.anomalies()::toString);
    for (final Anomaly a : r.anomalies()) {
      final java.util.regex.Matcher m = java.util.regex.Pattern.compile("This violates ([A-Z0-9]+(?:(?:, | and )[A-Z0-9]+)*)")
          .matcher(a.explanation());
      assertTrue(m.find(), a.explanation());
      final Set<String> told = new java.util.TreeSet<>(List.of(m.group(1).split(", | and ")));
      final Set<String> violated = new java.util.TreeSet<>(a.violates().stream().map(Level::name).toList());
      assertEquals(violated, told, a.explanation());
    }
  }

  @Test
  void shouldCountEveryListedAnomalyWhenTheRcCounterexampleIsListed() throws Exception {
    // Given: the golden case mariadb-rr-update-then-read, checked at RC and PL2
    final String text;
    try (java.io.InputStream in = getClass().getResourceAsStream("/corpus/list-append/mariadb-rr-update-then-read.hist")) {
      text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    // When
    final CheckResult r = WholeHistoryCheck.check(HistoryDsl.history(text),
        CheckOptions.defaults().withLevels(EnumSet.of(Level.PL2, Level.RC)));
    // Then: the summary counts what is listed, the RC counterexample included
    assertFalse(r.stats().anomaliesTruncated());
    final java.util.Map<String, Long> listed = new java.util.TreeMap<>();
    r.anomalies().forEach(a -> listed.merge(a.displayName(), 1L, Long::sum));
    assertTrue(r.anomalies().size() >= 2, r.anomalies()::toString);
    assertEquals(listed, new java.util.TreeMap<>(r.stats().anomaliesByName()));
  }
}
