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
import io.isowatch.core.oracle.WeakHistories;
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
 * writes, and {@link WeakHistories}, built to reach every level boundary): a SATISFIED or VIOLATED
 * verdict is the oracle's answer, every time, and every level an anomaly claims is violated. UNKNOWN is allowed
 * only where the engine says why it cannot decide: a value written twice (NON_UNIQUE_WRITE, the
 * engine does not choose a writer), a blind write for the levels that need a version order (RR, PC,
 * SI, SER); a lost update is no excuse for PC (it is decided by its definition there). Also: any arrival order gives the whole-history verdicts, and
 * a segmented engine never reports a weak level VIOLATED that the whole history satisfies.
 */
class WeakLevelsMatchOracleTest {
  private static final int COUNT = Integer.getInteger("isowatch.weak.count", 10_000);
  private static final long BASE_SEED = Long.getLong("isowatch.weak.seed", 12_000_000L);
  private static final int SEGMENTED = Integer.getInteger("isowatch.weak.segmented", 24);
  private static final Map<Level, WeakLevel> ORACLE = new EnumMap<>(Map.of(
      Level.PL2, WeakLevel.RC_ADYA, Level.RC, WeakLevel.RC, Level.RA, WeakLevel.RA, Level.CC, WeakLevel.CC,
      Level.PC, WeakLevel.PC, Level.SI, WeakLevel.SI, Level.RR, WeakLevel.RR, Level.SER, WeakLevel.SER));

  @Test
  void shouldAgreeWithTheOracleOnEveryDecidedLevel() {
    // Given
    final List<String> failures = new ArrayList<>();
    final Map<Level, int[]> tally = new EnumMap<>(Level.class); // decided, unknown, satisfied, violated
    int refused = 0;
    for (int i = 0; i < COUNT; i++) {
      // A third from the oracle's generator, built under visibility rules that reach every level
      // boundary; the others from the engine's random histories, half with blind writes.
      final History history;
      final CheckOptions given;
      final String described;
      if (i % 3 == 2) {
        final WeakHistories.Generated w = WeakHistories.generate(BASE_SEED + i);
        history = w.history();
        given = w.options();
        described = w.describe();
      } else {
        final RandomHistories.Generated g = i % 3 == 0
            ? RandomHistories.generate(BASE_SEED + i) : RandomHistories.generateWithBlindWrites(BASE_SEED + i);
        history = g.history();
        given = g.options();
        described = g.describe();
      }
      final CheckOptions options = given.withLevels(EnumSet.complementOf(EnumSet.of(Level.MIXED)));
      final Map<WeakLevel, Boolean> oracle;
      try {
        oracle = WeakLevelOracle.decide(history, options.initialValue());
      } catch (final IllegalArgumentException tooBig) {
        refused++;
        continue;
      }
      // When
      final CheckResult r = WholeHistoryCheck.check(history, options);
      // Then
      final boolean nonUnique = has(r, FindingKind.NON_UNIQUE_WRITE);
      final boolean blind = has(r, FindingKind.BLIND_WRITE);
      for (final Map.Entry<Level, WeakLevel> e : ORACLE.entrySet()) {
        final Level level = e.getKey();
        final Verdict v = r.verdicts().get(level);
        final boolean holds = oracle.get(e.getValue());
        final int[] t = tally.computeIfAbsent(level, l -> new int[4]);
        if (v == Verdict.UNKNOWN) {
          t[1]++;
          final boolean excused = nonUnique || (blind && Level.NEED_VERSION_ORDER.contains(level));
          if (!excused) {
            failures.add(level + " UNKNOWN without an excuse (" + r.reasons().get(level) + "), oracle " + holds
                + "\n" + described);
          }
        } else {
          t[0]++;
          t[v == Verdict.SATISFIED ? 2 : 3]++;
          if ((v == Verdict.SATISFIED) != holds) {
            failures.add(level + " " + v + " but the oracle says " + (holds ? "it holds" : "it is violated")
                + "\n" + described);
          }
        }
      }
      // A violated PC is shown by an anomaly that lists it (a promise of PC alone is broken by one).
      if (r.verdicts().get(Level.PC) == Verdict.VIOLATED
          && r.anomalies().stream().noneMatch(a -> a.violates().contains(Level.PC))) {
        failures.add("PC VIOLATED but no anomaly lists PC: " + r.anomalies() + "\n" + described);
      }
      // Every level an anomaly claims is one the oracle says is violated.
      for (final io.isowatch.core.check.Anomaly a : r.anomalies()) {
        for (final Level level : a.violates()) {
          if (ORACLE.containsKey(level) && oracle.get(ORACLE.get(level))) {
            failures.add(a.displayName() + " claims " + level + ", which the oracle says holds\n" + described);
          }
        }
      }
    }
    // Then
    assertEquals(List.of(), failures.subList(0, Math.min(3, failures.size())), failures.size() + " disagreement(s)");
    assertTrue(refused < COUNT / 20, refused + " histories refused by the oracle");
    for (final Level level : ORACLE.keySet()) {
      final int[] t = tally.get(level);
      assertTrue(t[0] > COUNT / 4, level + " decided only " + t[0] + " times");
      assertTrue(t[2] > COUNT / 50 && t[3] > COUNT / 50, level + ": " + t[2] + " satisfied, " + t[3] + " violated");
    }
  }

  @Test
  void shouldGiveTheSameWeakVerdictsWhateverTheArrivalOrder() {
    // Given
    final List<String> failures = new ArrayList<>();
    for (int i = 0; i < COUNT / 5; i++) {
      final RandomHistories.Generated g = i % 2 == 0
          ? RandomHistories.generate(BASE_SEED + i) : RandomHistories.generateWithBlindWrites(BASE_SEED + i);
      final CheckOptions options = g.options().withLevels(EnumSet.complementOf(EnumSet.of(Level.MIXED)));
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

  @Test
  void shouldNeverViolateAWeakLevelWithSegmentationThatTheWholeHistorySatisfies() {
    // Given: generated MT histories with faults, long enough to be cut several times
    final List<String> failures = new ArrayList<>();
    long pruned = 0;
    int violated = 0;
    for (int i = 0; i < SEGMENTED; i++) {
      final Random rnd = new Random(BASE_SEED + i);
      final io.isowatch.core.gen.GeneratorConfig config = RandomMtConfigs.config(rnd, i, 200 + i,
          new RandomMtConfigs.Range(600, 600), new RandomMtConfigs.Range(4, 12), new RandomMtConfigs.Range(5, 60));
      final History h = io.isowatch.core.gen.MtHistoryGenerator.generateHistory(config);
      final CheckOptions options = CheckOptions.defaults().withLevels(EnumSet.complementOf(EnumSet.of(Level.MIXED)));
      // When
      final FullAndSegmented run = FullAndSegmented.run(h, options, 2_000, Horizon.ofTransactions(50 + rnd.nextInt(100)));
      final CheckResult full = run.full().result();
      final CheckResult seg = run.seg().result();
      // Then: a violation found with segmentation is one of the whole history
      pruned += run.seg().prunedTransactions();
      for (final Level level : Level.WEAK) {
        if (seg.verdicts().get(level) == Verdict.VIOLATED) {
          violated++;
          if (full.verdicts().get(level) != Verdict.VIOLATED) {
            failures.add("history " + i + ": " + level + " VIOLATED segmented, " + full.verdicts().get(level) + " whole");
          }
        }
        if (full.verdicts().get(level) == Verdict.SATISFIED && seg.verdicts().get(level) == Verdict.UNKNOWN
            && seg.findings().stream().noneMatch(f -> f.kind() == FindingKind.STALE_READ_BEYOND_HORIZON)) {
          failures.add("history " + i + ": " + level + " UNKNOWN segmented (" + seg.reasons().get(level)
              + "), SATISFIED whole");
        }
      }
    }
    assertEquals(List.of(), failures.subList(0, Math.min(3, failures.size())), failures.size() + " problem(s)");
    assertTrue(pruned > SEGMENTED * 100L, "only " + pruned + " transactions pruned");
    assertTrue(violated > 0, "no weak level violated: soundness not exercised");
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
