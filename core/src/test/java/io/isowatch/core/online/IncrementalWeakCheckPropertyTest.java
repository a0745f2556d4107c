package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.check.WeakLevelCheck;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.RandomHistories;
import io.isowatch.core.oracle.WeakHistories;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The incremental weak check ({@link IncrementalWeakCheck}) equals the whole-history {@link
 * WeakLevelCheck}, level by level (PL2, RC, RA, CC, RR; PC is derived from CC), on 10^4 random
 * histories per run: fed one transaction at a time in a random order (session order not kept), the
 * verdicts, the reason of an UNKNOWN and the verdicts with thin air unjudged equal the whole check
 * of the same transactions after every one, complete or not, with or without a horizon; and inside
 * the engine ({@link OnlineChecker}), fed in random order with duplicates, cut at random and
 * restored from checkpoints, every query is compared with the whole check of the state ({@link
 * WeakVerdicts#crossCheck}).
 */
class IncrementalWeakCheckPropertyTest {
  private static final int COUNT = Integer.getInteger("isowatch.weak.count", 10_000);
  private static final long BASE_SEED = Long.getLong("isowatch.weak.seed", 12_700_000L);
  private static final Set<Level> WEAK = EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.CC, Level.RR);
  private static final Set<Level> WITHOUT_CC = EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.RR);
  private static final Set<Level> EVERY_LEVEL = EnumSet.complementOf(EnumSet.of(Level.MIXED));

  @BeforeAll
  static void crossCheck() {
    WeakVerdicts.crossCheck = true;
  }

  @AfterAll
  static void noCrossCheck() {
    WeakVerdicts.crossCheck = false;
  }

  @Test
  void shouldEqualTheWholeHistoryCheckAfterEveryTransactionInAnyOrder() {
    equalsTheWholeHistoryCheckInAnyOrder(WEAK);
  }

  /** Without CC, RA's nearest session writers are kept by {@link SessionWriterChains}, not by CC's {@link RankedNodes}. */
  @Test
  void shouldEqualTheWholeHistoryCheckAfterEveryTransactionInAnyOrderWithoutCausalConsistency() {
    equalsTheWholeHistoryCheckInAnyOrder(WITHOUT_CC);
  }

  private static void equalsTheWholeHistoryCheckInAnyOrder(final Set<Level> levels) {
    final List<String> failures = new ArrayList<>();
    int kept = 0;
    final Map<String, Integer> gaveUp = new java.util.TreeMap<>();
    final int[] violated = new int[levels.size()];
    final int[] satisfied = new int[levels.size()];
    for (int i = 0; i < COUNT; i++) {
      // Given
      final Generated g = generated(i);
      final List<Transaction> order = new ArrayList<>(g.history.transactions());
      Collections.shuffle(order, new Random(BASE_SEED + i));
      final Map<String, Integer> sessions = new HashMap<>();
      final Map<Transaction, Long> ranks = ranks(g.history);
      final IncrementalWeakCheck inc = new IncrementalWeakCheck(levels, g.options.initialValue());
      final List<WeakLevelCheck.Entry> given = new ArrayList<>();
      for (final Transaction t : order) {
        // When
        final int session = sessions.computeIfAbsent(t.session(), s -> sessions.size());
        inc.release(t, session, ranks.get(t));
        given.add(new WeakLevelCheck.Entry(t, session, ranks.get(t)));
        if (inc.gaveUp() != null) {
          break;
        }
        // Then
        for (final boolean horizon : new boolean[] {false, true}) {
          for (final boolean complete : new boolean[] {false, true}) {
            final WeakLevelCheck.Result whole = new WeakLevelCheck(given, g.options.initialValue(), horizon, complete)
                .decide(levels);
            final WeakLevelCheck.Result without = new WeakLevelCheck(given, g.options.initialValue(), true, complete)
                .decide(levels);
            for (final Level l : levels) {
              final Verdict v = inc.verdict(l, horizon, complete);
              if (v != whole.verdicts().get(l)) {
                failures.add(l + " incremental " + v + ", whole " + whole.verdicts().get(l) + " after " + given.size()
                    + " (horizon " + horizon + ", complete " + complete + ")\n" + g.describe);
              } else if (v == Verdict.UNKNOWN && !whole.unknownReason().equals(inc.unknownReason(horizon, complete))) {
                failures.add(l + " reason " + inc.unknownReason(horizon, complete) + ", whole " + whole.unknownReason()
                    + "\n" + g.describe);
              }
              if (inc.violatedWithoutThinAir(l) != (without.verdicts().get(l) == Verdict.VIOLATED)) {
                failures.add(l + " without thin air: incremental " + inc.violatedWithoutThinAir(l) + "\n" + g.describe);
              }
            }
          }
        }
      }
      if (inc.gaveUp() != null) {
        gaveUp.merge(inc.gaveUp().replaceAll("^\\S+ reads \\S+", "T reads x").replaceAll("^\\S+=\\S+ ", "x=v ")
            .replaceAll("\\(.*\\)", "(T)"), 1, Integer::sum);
      }
      if (inc.gaveUp() == null) {
        kept++;
        int k = 0;
        for (final Level l : levels) {
          final Verdict v = inc.verdict(l, false, true);
          violated[k] += v == Verdict.VIOLATED ? 1 : 0;
          satisfied[k++] += v == Verdict.SATISFIED ? 1 : 0;
        }
      }
    }
    assertEquals(List.of(), failures.subList(0, Math.min(3, failures.size())), failures.size() + " difference(s)");
    // The incremental check decides most histories itself (it gives up on values written twice and
    // indeterminate transactions, which the generators mix in), and both outcomes of every level.
    assertTrue(kept > COUNT / 2, "incremental on only " + kept + " histories; gave up: " + gaveUp);
    for (int k = 0; k < levels.size(); k++) {
      assertTrue(violated[k] > COUNT / 50 && satisfied[k] > COUNT / 50,
          List.copyOf(levels).get(k) + ": " + satisfied[k] + " satisfied, " + violated[k] + " violated");
    }
  }

  @Test
  void shouldEqualTheWholeHistoryCheckInsideTheEngineWithDuplicatesCutsAndRestores() {
    equalsTheWholeHistoryCheckInsideTheEngine(EVERY_LEVEL);
  }

  /** Weak levels only: no level graph, so the engine only counts edges; RA without CC (see above). */
  @Test
  void shouldEqualTheWholeHistoryCheckInsideTheEngineWithWeakLevelsOnly() {
    equalsTheWholeHistoryCheckInsideTheEngine(WITHOUT_CC);
  }

  private static void equalsTheWholeHistoryCheckInsideTheEngine(final Set<Level> levels) {
    final List<String> failures = new ArrayList<>();
    long cuts = 0;
    int compared = 0;
    for (int i = 0; i < COUNT; i++) {
      // Given: a random order with duplicates; a grace of 0 (late transactions) or unbounded
      // (each with its rank in its session as seq, so that session order does not depend on arrival)
      final Generated g = withSeqs(generated(i));
      final Random rnd = new Random(BASE_SEED * 31 + i);
      final List<Transaction> order = new ArrayList<>(g.history.transactions());
      for (final Transaction t : g.history.transactions()) {
        if (rnd.nextInt(4) == 0) {
          order.add(t);
        }
      }
      Collections.shuffle(order, rnd);
      final CheckOptions options = g.options.withLevels(levels);
      final boolean buffered = rnd.nextBoolean();
      final OnlineOptions online = OnlineOptions.streaming(buffered ? Long.MAX_VALUE / 4 : 0)
          .withHorizon(Horizon.ofTransactions(1 + rnd.nextInt(4)));
      OnlineChecker engine = new OnlineChecker(options, online);
      try {
        // When: every query compared with the whole check of the state (WeakVerdicts.crossCheck)
        for (final Transaction t : order) {
          engine.accept(t);
          final int dice = rnd.nextInt(6);
          if (dice == 0) {
            engine.prune();
          } else if (dice == 1 && engine.cutForCheckpoint()) {
            engine = OnlineChecker.restore(options, online, engine.checkpoint());
          }
          engine.result();
        }
        engine.flush();
        final CheckResult result = engine.result();
        cuts += engine.cuts();
        // Then: with nothing pruned and nothing late, the verdicts are those of check
        if (buffered && engine.prunedTransactions() == 0) {
          compared++;
          final CheckResult whole = WholeHistoryCheck.check(g.history, options);
          for (final Level l : levels) {
            if (Level.WEAK.contains(l) || l == Level.PC) {
              if (result.verdicts().get(l) != whole.verdicts().get(l)) {
                failures.add(l + ": engine " + result.verdicts().get(l) + ", check " + whole.verdicts().get(l) + "\n"
                    + g.describe);
              }
            }
          }
        }
      } catch (final IllegalStateException difference) {
        failures.add(difference.getMessage() + "\n" + g.describe);
      }
    }
    assertEquals(List.of(), failures.subList(0, Math.min(3, failures.size())), failures.size() + " difference(s)");
    assertTrue(cuts > COUNT, "only " + cuts + " cuts");
    assertTrue(compared > COUNT / 10, "only " + compared + " compared with check");
  }

  private record Generated(History history, CheckOptions options, String describe) {}

  private static Generated generated(final int i) {
    final long seed = BASE_SEED + i;
    if (i % 3 == 2) {
      final WeakHistories.Generated w = WeakHistories.generate(seed);
      return new Generated(w.history(), w.options(), w.describe());
    }
    final RandomHistories.Generated r = i % 3 == 0 ? RandomHistories.generate(seed)
        : RandomHistories.generateWithBlindWrites(seed);
    return new Generated(r.history(), r.options(), r.describe());
  }

  private static Generated withSeqs(final Generated g) {
    final Map<Transaction, Long> ranks = ranks(g.history);
    final List<Transaction> txns = new ArrayList<>();
    for (final Transaction t : g.history.transactions()) {
      txns.add(t.withSeq(ranks.get(t)));
    }
    return new Generated(new History(txns), g.options, g.describe);
  }

  /** Each transaction's rank in its session: its seq, or its place in the history's order. */
  private static Map<Transaction, Long> ranks(final History h) {
    final Map<String, Long> next = new HashMap<>();
    final Map<Transaction, Long> ranks = new java.util.IdentityHashMap<>();
    for (final Transaction t : h.transactions()) {
      final long arrival = next.merge(t.session(), 1L, Long::sum);
      ranks.put(t, t.hasSeq() ? t.seq() : arrival);
    }
    return ranks;
  }
}
