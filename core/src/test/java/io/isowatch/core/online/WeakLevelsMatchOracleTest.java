package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.RandomHistories;
import io.isowatch.core.oracle.WeakLevel;
import io.isowatch.core.oracle.WeakLevelOracle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The engine against the brute-force oracle of the weak levels ({@link WeakLevelOracle}, written
 * from the definitions), on random small histories ({@link RandomHistories}, half of them with blind
 * writes): a SATISFIED or VIOLATED verdict is the oracle's answer, every time. UNKNOWN is allowed
 * only where the engine says why it cannot decide: a value written twice (NON_UNIQUE_WRITE, the
 * engine does not choose a writer), a blind write for the levels that need a version order (RR, PC,
 * SI, SER), or a lost update for PC. Also: shuffled arrival within the grace, and a segmented
 * engine, give the unsegmented whole-history verdicts.
 */
class WeakLevelsMatchOracleTest {
  private static final int COUNT = Integer.getInteger("isowatch.weak.count", 10_000);
  private static final long BASE_SEED = Long.getLong("isowatch.weak.seed", 12_000_000L);
  private static final Map<Level, WeakLevel> ORACLE = new EnumMap<>(Map.of(
      Level.PL2, WeakLevel.RC_ADYA, Level.RC, WeakLevel.RC, Level.RA, WeakLevel.RA, Level.CC, WeakLevel.CC,
      Level.PC, WeakLevel.PC, Level.SI, WeakLevel.SI, Level.RR, WeakLevel.RR, Level.SER, WeakLevel.SER));

  @Test
  void shouldAgreeWithTheOracleOnEveryDecidedLevel() {
    // Given
    final List<String> failures = new ArrayList<>();
    final Map<Level, int[]> tally = new EnumMap<>(Level.class); // decided, unknown
    int refused = 0;
    for (int i = 0; i < COUNT; i++) {
      final RandomHistories.Generated g = i % 2 == 0
          ? RandomHistories.generate(BASE_SEED + i) : RandomHistories.generateWithBlindWrites(BASE_SEED + i);
      final CheckOptions options = g.options().withLevels(EnumSet.allOf(Level.class));
      final Map<WeakLevel, Boolean> oracle;
      try {
        oracle = WeakLevelOracle.decide(g.history(), options.initialValue());
      } catch (final IllegalArgumentException tooBig) {
        refused++;
        continue;
      }
      // When
      final CheckResult r = WholeHistoryCheck.check(g.history(), options);
      // Then
      final boolean nonUnique = has(r, FindingKind.NON_UNIQUE_WRITE);
      final boolean blind = has(r, FindingKind.BLIND_WRITE);
      final boolean lostUpdate = r.stats().anomaliesByName().containsKey("LostUpdate");
      for (final Map.Entry<Level, WeakLevel> e : ORACLE.entrySet()) {
        final Level level = e.getKey();
        final Verdict v = r.verdicts().get(level);
        final boolean holds = oracle.get(e.getValue());
        final int[] t = tally.computeIfAbsent(level, l -> new int[2]);
        if (v == Verdict.UNKNOWN) {
          t[1]++;
          final boolean excused = nonUnique || (blind && Level.NEED_VERSION_ORDER.contains(level))
              || (lostUpdate && level == Level.PC);
          if (!excused) {
            failures.add(level + " UNKNOWN without an excuse (" + r.reasons().get(level) + "), oracle " + holds
                + "\n" + g.describe());
          }
        } else {
          t[0]++;
          if ((v == Verdict.SATISFIED) != holds) {
            failures.add(level + " " + v + " but the oracle says " + (holds ? "it holds" : "it is violated")
                + "\n" + g.describe());
          }
        }
      }
    }
    // Then
    assertEquals(List.of(), failures.subList(0, Math.min(3, failures.size())), failures.size() + " disagreement(s)");
    assertTrue(refused < COUNT / 20, refused + " histories refused by the oracle");
    for (final Level level : ORACLE.keySet()) {
      assertTrue(tally.get(level)[0] > COUNT / 4, level + " decided only " + tally.get(level)[0] + " times");
    }
  }

  @Test
  void shouldGiveTheSameWeakVerdictsWhateverTheArrivalOrderAndWithSegmentation() {
    // Given
    final List<String> failures = new ArrayList<>();
    for (int i = 0; i < COUNT / 5; i++) {
      final RandomHistories.Generated g = i % 2 == 0
          ? RandomHistories.generate(BASE_SEED + i) : RandomHistories.generateWithBlindWrites(BASE_SEED + i);
      final CheckOptions options = g.options().withLevels(EnumSet.allOf(Level.class));
      final CheckResult whole = WholeHistoryCheck.check(g.history(), options);
      // When: any order (session order kept), unbounded grace, then a flush
      final List<Transaction> shuffled = sessionPreservingShuffle(g.history(), new Random(BASE_SEED + i));
      final OnlineChecker online = new OnlineChecker(options, OnlineOptions.streaming(Long.MAX_VALUE / 4));
      shuffled.forEach(online::accept);
      online.flush();
      // Then
      final CheckResult stream = online.result();
      for (final Level level : Level.WEAK) {
        if (stream.verdicts().get(level) != whole.verdicts().get(level)) {
          failures.add(level + ": shuffled " + stream.verdicts().get(level) + ", whole " + whole.verdicts().get(level)
              + "\n" + g.describe());
        }
      }
    }
    assertEquals(List.of(), failures.subList(0, Math.min(3, failures.size())), failures.size() + " difference(s)");
  }

  private static List<Transaction> sessionPreservingShuffle(final History h, final Random rnd) {
    final Map<String, List<Transaction>> bySession = new java.util.LinkedHashMap<>();
    for (final Transaction t : h.transactions()) {
      bySession.computeIfAbsent(t.session(), s -> new ArrayList<>()).add(t);
    }
    final List<String> slots = new ArrayList<>();
    bySession.forEach((s, ts) -> ts.forEach(t -> slots.add(s)));
    Collections.shuffle(slots, rnd);
    final Map<String, Integer> next = new java.util.HashMap<>();
    final List<Transaction> out = new ArrayList<>();
    for (final String s : slots) {
      final int k = next.merge(s, 1, Integer::sum) - 1;
      out.add(bySession.get(s).get(k));
    }
    return out;
  }

  private static boolean has(final CheckResult r, final FindingKind kind) {
    return r.findings().stream().anyMatch(f -> f.kind() == kind);
  }
}
