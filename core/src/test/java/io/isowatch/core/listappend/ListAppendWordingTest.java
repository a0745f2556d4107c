package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.oracle.ListAppendHistories;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Two wording defects of list-append explanations (issue 14, item 2): an anomaly named by the
 * engine's edges where the lists turn one of them into WW (its name must follow the edges the
 * explanation shows), and "x=null, the initial value" where the history read the empty list.
 */
class ListAppendWordingTest {
  private static final java.util.Set<Level> CLASSIC = EnumSet.of(Level.SSER, Level.SER, Level.SI);

  @Test
  void shouldNameACycleByTheWriteDependencyTheListsShowWhereTheEngineHadAnAntiDependency() {
    // Given: T1 then T2 in session s1; a read shows x=[5] (T2's), so T1's 2 and T3's 9, which no
    // read shows, come after 5: T2 < T1 by the lists' WW, T1 < T2 by session order
    final History history = HistoryDsl.history("""
        T1 s1 a(x,2)
        T2 s1 a(x,5) r(x,[5])
        T3 s2 a(x,9)
        """);
    // When
    final CheckResult r = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(CLASSIC));
    // Then: the engine's RW (the stand-in read of the unobserved appends) is told as WW, and the
    // cycle is named G0-process, not G-single-process / SessionGuaranteeViolation
    assertEquals(1, r.anomalies().size(), r.anomalies().toString());
    final Anomaly a = r.anomalies().get(0);
    assertEquals("G0-process", a.type());
    assertNull(a.name());
    assertEquals(List.of(new Edge("T2", "T1", EdgeKind.WW, "x", 5L), new Edge("T1", "T2", EdgeKind.SO, null, null)),
        a.cycle());
    assertEquals("""
        Let:
          T2 = [a(x,5) r(x,[5])] (session s1, committed, line 2)
          T1 = [a(x,2)] (session s1, committed, line 1)
        Then:
          - T2 < T1, because T1 appended 2 to x, which no read shows: x=[5] is the latest version of x any read shows, \
        ending in T2's 5, and every append no read shows comes after it;
          - T1 < T2, because both ran in session s1 and T1 came first.
        However, that makes T2 precede itself: a cycle, so no order of these transactions explains the lists the reads \
        returned. This violates SSER, SER and SI. (G0-process)
        (List-append: k=[...] is the version of k that list shows, k=[] the empty list; an append of v builds on the \
        version before v. docs/list-append.md)""", a.explanation());
    // And: the counts name it as the list does
    assertEquals(java.util.Map.of("G0-process", 1L), r.stats().anomaliesByName());
  }

  @Test
  void shouldNameAnRrCycleWithOneAntiDependencyGSingleAsItsEdgesShow() {
    // Given: Elle's G-single: T2 appended 2 to x right after T1's 1 (WW) but read y=[] before T1's
    // append of 1 to y (RW)
    final History history = HistoryDsl.history("""
        T1 p1 a(x,1) a(y,1)
        T2 p2 a(x,2) r(y,[])
        T3 p3 r(x,[1,2])
        """);
    // When
    final CheckResult r = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(EnumSet.of(Level.RR)));
    // Then: one RW among its edges: G-single (Adya, Elle), not G2-item; RR violated
    final Anomaly a = rrCycle(r);
    assertEquals("G-single", a.type());
    assertEquals(1, a.cycle().stream().filter(e -> e.kind() == EdgeKind.RW).count(), a.cycle().toString());
    assertEquals(EnumSet.of(Level.RR), a.violates());
    assertTrue(a.explanation().contains("exactly one anti-dependency (Adya's G-single, an item cycle RR forbids as "
        + "G2-item)"), a.explanation());
    assertTrue(a.explanation().endsWith("This violates RR (G-single)."), a.explanation());
  }

  @Test
  void shouldNameAnRrCycleWithTwoAntiDependenciesG2ItemAndTellAnAppendNoReadShowsAsComingAfterTheOrder() {
    // Given: Elle's G2: each read the empty list of the key the other appends to, and no read shows
    // either append
    final History history = HistoryDsl.history("""
        T1 p1 a(x,1) r(y,[])
        T2 p2 a(y,1) r(x,[])
        """);
    // When
    final CheckResult r = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(EnumSet.of(Level.RR)));
    // Then
    final Anomaly a = rrCycle(r);
    assertEquals("G2-item", a.type());
    assertEquals(2, a.cycle().stream().filter(e -> e.kind() == EdgeKind.RW).count(), a.cycle().toString());
    assertTrue(a.explanation().contains(", the whole order every read of y is a prefix of, and T2 appended an element "
        + "no committed read shows, which comes after that order;"), a.explanation());
    assertFalse(a.explanation().contains("the element after it"), a.explanation());
  }

  @Test
  void shouldNameEveryRrCycleByTheNumberOfAntiDependenciesItShowsOnRandomHistories() {
    // Given: random list-append histories
    final Random random = new Random(Long.getLong("seed", 23));
    final java.util.Map<String, Integer> seen = new java.util.TreeMap<>();
    for (int n = 0; n < Integer.getInteger("histories", 3000); n++) {
      final History h = ListAppendHistories.random(random);
      // When
      final CheckResult r = WholeHistoryCheck.check(h, CheckOptions.defaults().withLevels(EnumSet.of(Level.RR)));
      for (final Anomaly a : r.anomalies()) {
        if (a.cycle().isEmpty() || !a.violates().equals(EnumSet.of(Level.RR))) {
          continue; // not ListDependencyCycles' counterexample (the engine's: the test above)
        }
        // Then: G-single with one RW, G2-item with more, G0/G1c with none
        final long rw = a.cycle().stream().filter(e -> e.kind() == EdgeKind.RW).count();
        final boolean onlyWw = a.cycle().stream().allMatch(e -> e.kind() == EdgeKind.WW);
        final String expected = rw == 1 ? "G-single" : rw > 1 ? "G2-item" : onlyWw ? "G0" : "G1c";
        assertEquals(expected, a.type(), () -> HistoryDsl.format(h) + a.explanation());
        seen.merge(a.type(), 1, Integer::sum);
      }
    }
    // And: both classes with anti-dependencies occurred
    assertTrue(seen.getOrDefault("G-single", 0) > 20 && seen.getOrDefault("G2-item", 0) > 20, seen.toString());
  }

  @Test
  void shouldSayTheEmptyListWhereAListReadReturnedIt() {
    // Given: T1 read x=[] and then x=[1]
    final History history = HistoryDsl.history("""
        T1 s1 r(x,[]) r(x,[1])
        T2 s2 a(x,1)
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(CLASSIC))
        .anomalies().get(0);
    // Then
    assertEquals("NonRepeatableReads", a.name());
    assertTrue(a.explanation().contains("  - T1 read x=[] and later x=[1] without writing x in between"), a.explanation());
    assertFalse(a.explanation().contains("x=null"), a.explanation());
  }

  @Test
  void shouldShowBothListsOfANonRepeatableReadWithTheAbortedElementsItsVersionLeavesOut() {
    // Given: T1 read y=[1] and then y=[1,4,5], where 5 was appended by T3, which aborted
    final History history = HistoryDsl.history("""
        T1 s1 r(y,[1]) r(y,[1,4,5])
        T2 s2 a(y,1)
        T4 s4 a(y,4)
        T3 s3 a(y,5) aborted
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(CLASSIC)).anomalies().stream()
        .filter(x -> "NonRepeatableReads".equals(x.name())).findFirst().orElseThrow();
    // Then: lists, not the translation's register values 1 and 4
    assertTrue(a.explanation().contains("  - T1 read y=[1] and later y=[1,4,5], where 5 was appended by T3, which aborted "
        + "(G1a); without it, it shows y=[1,4] without writing y in between"), a.explanation());
    assertFalse(a.explanation().contains("later y=4"), a.explanation());
  }

  @Test
  void shouldTellAnAntiDependencyFromAListEndingInAnAbortedAppendAsAnAppendNotAsANullOverwritten() {
    // Given: T3 read z=[1], whose 1 T1 appended and aborted; T2, earlier in T3's session, appended 3
    final History history = HistoryDsl.history("""
        T1 s1 a(z,1) aborted
        T2 s0 a(z,3)
        T3 s0 r(z,[1])
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(CLASSIC)).anomalies().stream()
        .filter(x -> !x.cycle().isEmpty()).findFirst().orElseThrow();
    // Then: the list as read, the aborted append named (G1a), and T2's append, not an overwrite of z=null
    assertTrue(a.explanation().contains("  - T3 < T2, because T3 read z=[1], where 1 was appended by T1, which aborted "
        + "(G1a); without it, it shows z=[], and T2 appended 3, which no read shows"), a.explanation());
    assertFalse(a.explanation().contains("z=null"), a.explanation());
    assertFalse(a.explanation().contains("overwrote"), a.explanation());
  }

  @Test
  void shouldTellAReadDependencyFromAListEndingInAnAbortedAppend() {
    // Given: T3 read z=[1,2], whose 2 T2 appended and aborted; T1, later in T3's session, appended 1
    final History history = HistoryDsl.history("""
        T3 s1 r(z,[1,2])
        T1 s1 a(z,1)
        T2 s2 a(z,2) aborted
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(CLASSIC)).anomalies().stream()
        .filter(x -> !x.cycle().isEmpty()).findFirst().orElseThrow();
    // Then
    assertTrue(a.explanation().contains("  - T1 < T3, because T3 read z=[1,2], where 2 was appended by T2, which aborted "
        + "(G1a); without it, it shows z=[1], which ends in 1, appended by T1;"), a.explanation());
  }

  @Test
  void shouldNameEveryCycleByItsShownEdgesAndNeverShowNullForAnEmptyListOnRandomHistories() {
    // Given: random list-append histories with stale snapshots, aborts and unobserved appends
    final Random random = new Random(Long.getLong("seed", 21));
    int cycles = 0;
    int renamed = 0;
    for (int n = 0; n < Integer.getInteger("histories", 3000); n++) {
      final History h = ListAppendHistories.random(random);
      // When
      final CheckResult r = WholeHistoryCheck.check(h, CheckOptions.defaults().withLevels(CLASSIC));
      for (final Anomaly a : r.anomalies()) {
        final String context = "history " + n + "\n" + HistoryDsl.format(h) + a.explanation();
        // Then: no "k=null" about a transaction that read the empty list of k (and no null register read)
        assertFalse(nullForEmpty(h, a.explanation()), context);
        if (a.cycle().isEmpty() || a.cycle().stream().anyMatch(e -> e.kind() == EdgeKind.RT)) {
          continue;
        }
        cycles++;
        // And: a cycle's Adya class is the one its shown edges give
        final long rw = a.cycle().stream().filter(e -> e.kind() == EdgeKind.RW).count();
        final boolean writeOrder = a.cycle().stream().allMatch(e -> e.kind() == EdgeKind.WW || e.kind() == EdgeKind.SO);
        final boolean ww = a.cycle().stream().anyMatch(e -> e.kind() == EdgeKind.WW);
        final String base = writeOrder && ww ? "G0" : rw == 0 ? "G1c" : rw == 1 ? "G-single" : "G2-item";
        assertTrue(a.type().equals(base) || a.type().equals(base + "-process"), a.type() + " vs " + base + ": " + context);
        renamed += a.type().startsWith("G0") && a.name() == null ? 1 : 0;
      }
    }
    // And: the comparison meant something
    assertTrue(cycles > 300 && renamed > 10, cycles + " cycles, " + renamed + " G0");
  }

  @Test
  void shouldNeverTellAListAppendHistoryWithRegisterWordsOnRandomHistoriesAtEveryLevel() {
    // Given: random list-append histories (appends and list reads only), checked at every level
    final Random random = new Random(Long.getLong("seed", 29));
    final Pattern register = Pattern.compile("overwrot|overwriting|\\bwrote [^\\s=]+=|and later [^\\s=]+=(-?\\d|null)");
    int lines = 0;
    for (int n = 0; n < Integer.getInteger("histories", 2000); n++) {
      final History h = ListAppendHistories.random(random);
      // When
      final CheckResult r = WholeHistoryCheck.check(h, CheckOptions.defaults().withLevels(EnumSet.allOf(Level.class)));
      for (final Anomaly a : r.anomalies()) {
        if (a.explanation() == null) {
          continue;
        }
        for (final String line : a.explanation().split("\n")) {
          if (line.startsWith("  - ")) {
            lines++;
            // Then: no overwrite, no written register value, no later read of a register value
            assertFalse(register.matcher(line).find(), () -> HistoryDsl.format(h) + a.explanation());
          }
        }
      }
    }
    // And: the comparison meant something
    assertTrue(lines > 1000, lines + " lines");
  }

  @Test
  void shouldTellAnAppendAfterAbortedElementsAsSuchNotAsAReadOfTheVersionBeforeThem() {
    // Given: z's order [8,5,4,3,2,1], where T6 appended 4 and 5 and aborted: T5's 3 builds on T8's 8
    // (the translation reads z=8 before it), but no read shows 3 right after 8
    final History history = HistoryDsl.history("""
        T1 s2 r(x,[]) r(y,[]) r(x,[]) unknown
        T2 s0 r(y,[])
        T3 s3 r(y,[]) a(z,1)
        T4 s2 r(x,[]) a(z,2)
        T5 s1 a(z,3) r(y,[])
        T6 s3 r(x,[]) a(z,4) a(z,5) aborted
        T7 s0 r(y,[]) a(x,6) a(y,7)
        T8 s3 r(y,[7]) a(z,8) r(x,[6])
        T9 s1 r(x,[6]) r(x,[6])
        T10 s0 r(x,[6]) r(y,[7]) r(z,[8,5,4,3,2,1])
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(EnumSet.allOf(Level.class)))
        .anomalies().stream().filter(x -> "G1c-process".equals(x.type())).findFirst().orElseThrow();
    // Then: the append, the aborted elements between, and the version it builds on without them
    assertTrue(a.explanation().contains("  - T5 appended 3 to z right after 4 (the order of z every read is a prefix of: "
        + "[8,5,4,3]), where 5 was appended by T6, which aborted (G1a) and 4 was appended by T6, which aborted (G1a); "
        + "without them, it builds on z=[8], which ends in 8, appended by T8;"), a.explanation());
    assertFalse(a.explanation().contains("T5 read z="), a.explanation());
    assertFalse(a.explanation().contains("which T8 wrote"), a.explanation());
  }

  @Test
  void shouldShowTheHistorysListOpsInTheLetLinesOfAWeakLevelReadAnomalyAndOfAPcJudgement() {
    // Given: T5 read x=[3] after x=[3,4] (T2 appended 3 and then 4: an intermediate read), and a
    // history whose PC counterexample is the mixed check's, every reader judged at PC
    final History intermediate = HistoryDsl.history("""
        T1 s3 a(x,1) a(y,2) r(z,[]) unknown @1..
        T2 s0 a(x,3) r(z,[]) a(x,4) @6..15
        T3 s2 a(z,5) a(z,6) @16..25
        T4 s3 r(x,[3,4]) a(y,7) @26..35
        T5 s3 r(x,[3,4]) a(z,8) r(x,[3]) @36..45
        T6 s1 a(z,9) a(x,10) @46..55
        T7 s0 a(y,11) a(y,12) aborted @6..65
        T8 s1 a(y,13) r(y,[7,13]) a(y,14) @66..75
        T9 s2 a(y,15) r(y,[7,13,14,15]) r(z,[5,6,8,9]) @76..85
        T10 s3 r(y,[7]) @66..95
        T11 s2 a(y,16) r(x,[3,4]) r(z,[5,6]) @36..105
        T12 s1 a(z,17) a(z,18) @106..115
        """);
    final History pc = HistoryDsl.history("""
        T1 s0 r(y,[]) r(x,[]) a(z,1) @1..5
        T2 s2 a(y,2) @6..15
        T3 s3 r(y,[]) a(z,3) a(z,4) unknown @1..
        T4 s0 a(x,5) a(y,6) r(x,[5]) @26..35
        T5 s2 r(y,[2,6]) a(y,7) r(z,[1]) @36..45
        T6 s0 a(y,8) a(z,9) @46..55
        T7 s1 r(z,[1,9]) r(x,[5]) r(y,[2,6,7,8]) @56..65
        T8 s1 r(z,[1]) a(z,10) r(z,[1,10]) @36..75
        T9 s1 a(x,11) a(y,12) r(z,[1,9,10]) aborted @76..85
        T10 s1 r(y,[2,6,7,8,12]) a(y,13) @86..95
        T11 s2 r(x,[5,11]) r(y,[2,6,7,8,12,13]) r(z,[1,9,10]) @96..105
        """);
    // When
    final Anomaly read = WholeHistoryCheck.check(intermediate, CheckOptions.defaults().withLevels(EnumSet.allOf(Level.class)))
        .anomalies().stream().filter(x -> "IntermediateRead".equals(x.name())).findFirst().orElseThrow();
    final List<Anomaly> judged = WholeHistoryCheck.check(pc, CheckOptions.defaults().withLevels(EnumSet.allOf(Level.class)))
        .anomalies().stream().filter(x -> x.explanation() != null && x.explanation().contains("judged at PC")).toList();
    // Then: the Let lines show the transactions' appends and list reads, not the translation's register ops
    assertTrue(read.explanation().contains("\n  T5 = [r(x,[3,4]) a(z,8) r(x,[3])]\n"), read.explanation());
    assertFalse(judged.isEmpty());
    final Pattern register = Pattern.compile("(?m)^  \\S+ = .*\\b[rw]\\([^\\[\\],]+,(-?\\d+|null)\\)");
    for (final Anomaly a : concat(List.of(read), judged)) {
      assertFalse(register.matcher(a.explanation()).find(), a.explanation());
    }
    assertTrue(judged.get(0).explanation().contains("  T6 = [a(y,8) a(z,9)] (session s0, committed, judged at PC, line 6)"),
        judged.get(0).explanation());
  }

  @Test
  void shouldTellAWeakLevelReadEndingInTheReadersOwnAppendAsTheListItRead() {
    // Given: T11 appended 5 to z and then read z=[5]: past its own append it reads the empty list;
    // T10, before it in its session, appended 4 to z
    final History history = HistoryDsl.history("""
        T10 s0 r(z,[]) a(z,4)
        T11 s0 a(z,5) r(z,[5]) r(y,[])
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(EnumSet.of(Level.RA))).anomalies()
        .stream().filter(x -> x.violates().contains(Level.RA)).findFirst().orElseThrow();
    // Then: the list T11 read, and what it reads from past its own append
    assertTrue(a.explanation().contains("T11 read z=[5], ending in its own append 5, after z=[], the empty list, although "
        + "it had seen T10"), a.explanation());
  }

  @Test
  void shouldNameTheTransactionsOfAListsAbortedReadByTheirIds() {
    // Given: T7 read z=[2], whose 2 only T4 appended, and T4 aborted
    final History history = HistoryDsl.history("""
        T4 s1 a(z,2) aborted
        T7 s2 r(z,[2])
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults()).anomalies().stream()
        .filter(x -> "AbortedRead".equals(x.name())).findFirst().orElseThrow();
    // Then: the ids of the history, and the aborted element told as the lists' G1a clauses tell it
    assertEquals("""
        Let:
          T4 = [a(z,2)] (session s1, aborted, line 1)
          T7 = [r(z,[2])] (session s2, committed, line 2)
        Then:
          - T7 read z=[2], where 2 was appended by T4 alone, which aborted: an aborted write must never be visible \
        (Adya G1a).
        No dependency graph exists for such a history. This violates SSER, SER and SI. (G1a, AbortedRead)""",
        a.explanation());
  }

  /** T2 reads y after T1's append and x before it; T3 and T1 append to x after T0's 0 (x=[0,3,1]). */
  private static final String NON_MONOTONIC = """
      T0 s0 a(x,0)
      T1 s1 a(x,1) a(y,1)
      T3 s3 a(x,3)
      T2 s2 r(y,[1]) r(x,[0])
      T4 s4 r(x,[0,3,1])
      """;

  @Test
  void shouldTellAnRcPremiseOfListsAsAppendsThatBelongInTheListRead() {
    // Given
    final History history = HistoryDsl.history(NON_MONOTONIC);
    // When: RC decided on the lists (ListWeakLevels)
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(EnumSet.of(Level.RC))).anomalies()
        .stream().filter(x -> x.violates().contains(Level.RC)).findFirst().orElseThrow();
    // Then: how T2 had seen T1, the reader among the Let lines, and the premise as the list T2 read
    assertEquals("""
        Let:
          T0 = [a(x,0)] (session s0, line 1)
          T1 = [a(x,1) a(y,1)] (session s1, line 2)
          T3 = [a(x,3)] (session s3, line 3)
          T2 = [r(y,[1]) r(x,[0])] (session s2, line 4)
        Then:
          - T3's appends to x follow T0's in x=[0,3,1];
          - T1's appends to x follow T3's in x=[0,3,1];
          - T1 must commit before T0, because T2 read x=[0], whose last element T0 appended, although it had seen T1 \
        (T2 read y=[1], whose last element T1 appended), which also appended to x: under RC a read sees every commit an \
        earlier read of its transaction saw, so T1's appends to x belong in x=[0], before T0's 0;
        No commit order of these transactions satisfies all of it. This violates RC (G-single, NonMonotonicRead)""",
        a.explanation());
  }

  @Test
  void shouldTellTheRegisterExplainersRcAxiomForListsOnAListAppendHistory() {
    // Given
    final History history = HistoryDsl.history(NON_MONOTONIC);
    // When: the engine's weak-level explainer on the translation (its anomaly claims SSER, SER, SI)
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(
        EnumSet.of(Level.SER, Level.RC))).anomalies().stream()
        .filter(x -> x.explanation().contains("T1 must commit before T0;")).findFirst().orElseThrow();
    // Then: the axiom told as what the list T2 read must hold, the order of x as the appends give it
    assertEquals("""
        Let:
          T2 = [r(y,[1]) r(x,[0])] (session s2, committed, line 4)
          T1 = [a(x,1) a(y,1)] (session s1, committed, line 2)
          T0 = [a(x,0)] (session s0, committed, line 1)
          T3 = [a(x,3)] (session s3, committed, line 3)
        Then:
          - T2 read x=[0], which ends in 0, appended by T0, although it had seen T1, which also appended to x (T2 read \
        y=[1], which ends in 1, appended by T1);
          - so under Read Committed the list a read returns holds the appends to its key of every transaction an earlier \
        read of the reader read from, ahead of the appends of the transaction whose element ends that list: T1 must \
        commit before T0;
          - but T0 commits before T1: T3 appended 3 to x right after 0, building on x=[0], which ends in 0, appended by \
        T0, T1 appended 1 to x right after 3, building on x=[0,3], which ends in 3, appended by T3.
        No commit order satisfies these constraints. This violates SSER, SER and SI (G-single, NonMonotonicRead)
        (List-append: k=[...] is the version of k that list shows, k=[] the empty list; an append of v builds on the \
        version before v. docs/list-append.md)""", a.explanation());
  }

  @Test
  void shouldNameInTheLetLinesEveryTransactionOnTheCausalPathOfACcPremise() {
    // Given: T2 saw T1 only through T5, after T1 in session s1
    final History history = HistoryDsl.history("""
        T0 s0 a(x,0)
        T1 s1 a(x,1)
        T5 s1 a(z,5)
        T2 s2 r(z,[5]) r(x,[0])
        T4 s4 r(x,[0,1])
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(EnumSet.of(Level.CC))).anomalies()
        .stream().filter(x -> x.violates().contains(Level.CC)).findFirst().orElseThrow();
    // Then
    assertEquals("""
        Let:
          T0 = [a(x,0)] (session s0, line 1)
          T1 = [a(x,1)] (session s1, line 2)
          T5 = [a(z,5)] (session s1, line 3)
          T2 = [r(z,[5]) r(x,[0])] (session s2, line 4)
        Then:
          - T1's appends to x follow T0's in x=[0,1];
          - T1 must commit before T0, because T2 read x=[0], whose last element T0 appended, although it had seen T1 \
        (T1 precedes T5 in its session, T2 read z=[5], whose last element T5 appended), which also appended to x: under \
        CC a transaction sees every commit that precedes it causally, so T1's appends to x belong in x=[0], before T0's 0;
        No commit order of these transactions satisfies all of it. This violates CC (G-single, CausalityViolation)""",
        a.explanation());
  }

  @Test
  void shouldTellAnRcPremiseOnTheEmptyListAsAppendsTheInitialVersionCannotHold() {
    // Given
    final History history = HistoryDsl.history("""
        T1 s1 a(x,1) a(y,1)
        T2 s2 r(y,[1]) r(x,[])
        T3 s3 r(x,[1])
        """);
    // When
    final Anomaly a = WholeHistoryCheck.check(history, CheckOptions.defaults().withLevels(EnumSet.of(Level.RC))).anomalies()
        .stream().filter(x -> x.violates().contains(Level.RC)).findFirst().orElseThrow();
    // Then
    assertEquals("""
        Let:
          T1 = [a(x,1) a(y,1)] (session s1, line 1)
          T2 = [r(y,[1]) r(x,[])] (session s2, line 2)
        Then:
          - T2 read y=[1], whose last element T1 appended;
          - T2 read x=[], the empty list, although it had seen T1, which also appended to x: under RC a read sees every \
        commit an earlier read of its transaction saw, so T1's appends to x belong in x=[], but the empty list, x's \
        initial version, comes before every append;
        No commit order of these transactions satisfies all of it. This violates RC (G-single, NonMonotonicRead)""",
        a.explanation());
  }

  @Test
  void shouldQuoteInTheWeakLevelsIncompatibleOrderTheListsAsReadWithTheReadersOwnAppends() {
    // Given: T3's read ends in its own append 5; past it, x=[1] and T4's x=[2] are not prefixes of each other
    final History split = HistoryDsl.history("""
        T1 s1 a(x,1)
        T2 s2 a(x,2)
        T3 s3 a(x,5) r(x,[1,5])
        T4 s4 r(x,[2])
        """);
    // And: T3's read shows 9, which nobody appended, before its own 5
    final History thin = HistoryDsl.history("""
        T1 s1 a(x,1)
        T3 s3 a(x,5) r(x,[9,5])
        """);
    // When
    final Anomaly a = ListWeakLevels.decide(split, ListOrders.of(split), EnumSet.of(Level.RC)).counterexamples().get(Level.RC);
    final Anomaly b = ListWeakLevels.decide(thin, ListOrders.of(thin), EnumSet.of(Level.RC)).counterexamples().get(Level.RC);
    // Then: each read as the history has it, and what it reads from past its own appends
    assertEquals("""
        Let:
          (the lists read)
        Then:
          - T4 read x=[2], and T3 read x=[1,5], ending in its own append 5, after x=[1]: past the reader's own appends, \
        neither is a prefix of the other;
          - so no commit order of the appends produces the lists read. This violates RC.""", a.explanation());
    assertEquals("""
        Let:
          (the lists read)
        Then:
          - T3 read x=[9,5], ending in its own append 5, after x=[9], which shows 9, which no committed transaction \
        appended;
          - so no commit order of the appends produces the lists read. This violates RC.""", b.explanation());
  }

  private static List<Anomaly> concat(final List<Anomaly> a, final List<Anomaly> b) {
    final List<Anomaly> out = new java.util.ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /** The counterexample of RR on the lists' own graph (ListDependencyCycles): the one anomaly claiming RR alone. */
  private static Anomaly rrCycle(final CheckResult r) {
    final List<Anomaly> rr = r.anomalies().stream().filter(a -> a.violates().equals(EnumSet.of(Level.RR))).toList();
    assertEquals(1, rr.size(), r.anomalies().toString());
    return rr.get(0);
  }

  private static final Pattern READ_NULL = Pattern.compile("(?m)^\\s*- (?:\\S+ < \\S+, because )?(\\S+) .*?\\b(\\S+)=null\\b");

  /** True when a line about a transaction says k=null while it read the empty list of k and no null register value. */
  private static boolean nullForEmpty(final History h, final String explanation) {
    if (explanation == null) {
      return false;
    }
    final Matcher m = READ_NULL.matcher(explanation);
    while (m.find()) {
      for (final Transaction t : h.transactions()) {
        if (t.id().equals(m.group(1))) {
          boolean empty = false;
          boolean registerNull = false;
          for (final Op op : t.ops()) {
            if (op.isRead() && op.key().equals(m.group(2))) {
              empty |= op.isListRead() && op.elements().isEmpty();
              registerNull |= !op.isListRead() && op.value() == null;
            }
          }
          if (empty && !registerNull) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
