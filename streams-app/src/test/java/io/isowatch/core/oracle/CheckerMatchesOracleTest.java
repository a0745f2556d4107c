package io.isowatch.core.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.Checker;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Property test: the engine against the brute-force oracle on random small histories.
 *
 * <ul>
 *   <li>On proper mini-transaction histories ({@link MiniTransactions#isProper}) the engine is
 *       exact: SATISFIED iff the oracle says true, VIOLATED iff false, never UNKNOWN, except SSER
 *       when a counted transaction lacks times: then UNKNOWN unless a violation is certain.
 *   <li>Elsewhere it is sound: VIOLATED only when the oracle proves a violation, SATISFIED only
 *       when the oracle says true; UNKNOWN is allowed (and counted).
 *   <li>Always: an anomaly only claims levels the oracle proves violated; a VIOLATED level has an
 *       anomaly that proves it, and an anomaly's level is VIOLATED.
 * </ul>
 *
 * <p>Reproduce a run with {@code -Disowatch.oracle.seed=S -Disowatch.oracle.count=N}; a failure
 * prints the seed and the history in the test language.
 */
class CheckerMatchesOracleTest {
  private static final long BASE_SEED = Long.getLong("isowatch.oracle.seed", 20_261_121L);
  private static final int COUNT = Integer.getInteger("isowatch.oracle.count", 10_000);
  private static final int SHUFFLE_COUNT = 1_000;
  private static final int FAILURES_SHOWN = 5;

  @Test
  void shouldAgreeWithBruteForceOracleWhenHistoriesAreRandom() {
    // Given
    final Tally tally = new Tally();
    final List<String> failures = new ArrayList<>();

    // When
    for (int i = 0; i < COUNT; i++) {
      final RandomHistories.Generated g = RandomHistories.generate(BASE_SEED + i);
      final OracleVerdict expected = BruteForceOracle.judge(g.history(), g.options());
      final List<String> problems = new ArrayList<>();
      try {
        final CheckResult actual = new Checker(g.options()).check(g.history());
        problems.addAll(compare(g, expected, actual, tally));
      } catch (final RuntimeException e) {
        // A crash is a disagreement like any other: record it with its history and go on.
        problems.add("engine threw " + e);
      }
      if (!problems.isEmpty()) {
        failures.add(problems + " oracle=" + expected + "\n" + g.describe());
      }
    }

    // Then
    System.out.println("CheckerMatchesOracleTest: " + tally.summary());
    assertTrue(failures.isEmpty(), () -> failures.size() + " of " + COUNT
        + " histories disagree with the oracle; the first ones:\n\n"
        + String.join("\n", failures.subList(0, Math.min(FAILURES_SHOWN, failures.size()))));
    tally.assertNotVacuous();
  }

  @Test
  void shouldGiveTheSameResultWhenSessionsAreInterleavedDifferently() {
    // Given
    final List<String> failures = new ArrayList<>();
    int compared = 0;
    for (int i = 0; i < SHUFFLE_COUNT; i++) {
      final long seed = BASE_SEED + COUNT + i;
      final RandomHistories.Generated g = RandomHistories.generate(seed);
      final History shuffled = interleaveSessions(g.history(), new Random(seed));
      final Checker checker = new Checker(g.options());

      // When
      final CheckResult original = checker.check(g.history());
      final CheckResult reordered = checker.check(shuffled);

      // Then
      compared++;
      if (!withoutTiming(original).equals(withoutTiming(reordered))) {
        failures.add(g.describe() + "reordered as:\n"
            + io.isowatch.core.testkit.HistoryDsl.format(shuffled)
            + "original:  " + withoutTiming(original) + "\nreordered: " + withoutTiming(reordered));
      }
    }
    assertEquals(SHUFFLE_COUNT, compared);
    assertTrue(failures.isEmpty(), () -> failures.size() + " of " + SHUFFLE_COUNT
        + " histories changed their result when sessions were interleaved differently; first:\n"
        + failures.get(0));
  }

  private static List<String> compare(
      final RandomHistories.Generated g, final OracleVerdict expected, final CheckResult actual, final Tally tally) {
    final List<String> problems = new ArrayList<>();
    final boolean mt = MiniTransactions.isProper(g.history(), g.options().initialValue());
    tally.histories++;
    if (mt) {
      tally.miniTransaction++;
    }
    for (final Level level : Level.values()) {
      final Verdict v = actual.verdicts().get(level);
      final Boolean o = expected.holds(level);
      tally.record(level, o, v, mt);
      if (v == null) {
        problems.add(level + ": no verdict");
      } else if (mt) {
        final boolean ok = o != null
            ? v == (o ? Verdict.SATISFIED : Verdict.VIOLATED)
            : v == Verdict.UNKNOWN || (v == Verdict.VIOLATED && expected.certainlyViolated(level));
        if (!ok) {
          problems.add(level + ": engine " + v + ", oracle " + o + " (exact expected)");
        }
      } else if ((v == Verdict.VIOLATED && !expected.certainlyViolated(level))
          || (v == Verdict.SATISFIED && !Boolean.TRUE.equals(o))) {
        problems.add(level + ": engine " + v + ", oracle " + o + " (unsound)");
      }
    }
    for (final Anomaly a : actual.anomalies()) {
      for (final Level level : a.violates()) {
        if (!expected.certainlyViolated(level)) {
          problems.add(a.displayName() + " " + a.txnIds() + " claims " + level + " but the oracle disagrees");
        }
        if (actual.verdicts().get(level) != Verdict.VIOLATED) {
          problems.add(a.displayName() + " claims " + level + " but the verdict is " + actual.verdicts().get(level));
        }
      }
    }
    for (final Level level : Level.values()) {
      if (actual.verdicts().get(level) == Verdict.VIOLATED
          && actual.anomalies().stream().noneMatch(a -> a.violates().contains(level))) {
        problems.add(level + " is VIOLATED but no anomaly proves it");
      }
    }
    return problems;
  }

  /** Another source order: sessions interleaved at random, each session's order kept. */
  static History interleaveSessions(final History history, final Random rnd) {
    final Map<String, List<Transaction>> bySession = new LinkedHashMap<>();
    for (final Transaction t : history.transactions()) {
      bySession.computeIfAbsent(t.session(), s -> new ArrayList<>()).add(t);
    }
    final List<List<Transaction>> queues = new ArrayList<>(bySession.values());
    final History.Builder b = History.builder();
    while (!queues.isEmpty()) {
      final int q = rnd.nextInt(queues.size());
      b.add(queues.get(q).remove(0));
      if (queues.get(q).isEmpty()) {
        queues.remove(q);
      }
    }
    return b.build();
  }

  /** The result with the only legitimately varying part, the check's wall-clock time, zeroed. */
  static CheckResult withoutTiming(final CheckResult r) {
    final CheckStats s = r.stats();
    final CheckStats zeroed = new CheckStats(s.transactions(), s.committed(), s.aborted(), s.unknownPromoted(),
        s.unknownIgnored(), s.sessions(), s.keys(), s.operations(), s.longRmwTransactions(),
        s.largeReadOnlyTransactions(), s.edges(), s.anomaliesByName(), s.anomaliesTruncated(), 0.0);
    return new CheckResult(r.verdicts(), r.reasons(), r.anomalies(), r.findings(), zeroed);
  }

  /** Counts of what was compared, so that the test cannot pass on a degenerate sample. */
  private static final class Tally {
    private static final int MIN_PER_OUTCOME = 300;
    private static final int MIN_BOUNDARY = 50;

    int histories;
    int miniTransaction;
    final Map<String, Integer> counts = new LinkedHashMap<>();

    void record(final Level level, final Boolean oracle, final Verdict engine, final boolean mt) {
      counts.merge(level + (mt ? " exact " : " sound ") + "oracle=" + oracle + " engine=" + engine, 1, Integer::sum);
      if (mt && oracle != null) {
        counts.merge(level + (oracle ? " satisfied" : " violated"), 1, Integer::sum);
      }
      if (!mt && engine == Verdict.UNKNOWN) {
        counts.merge("UNKNOWN on non-MT", 1, Integer::sum);
      }
    }

    String summary() {
      final StringBuilder sb = new StringBuilder()
          .append(histories).append(" histories, ").append(miniTransaction).append(" proper MT");
      counts.forEach((k, v) -> sb.append("\n  ").append(k).append(": ").append(v));
      return sb.toString();
    }

    void assertNotVacuous() {
      assertEquals(COUNT, histories);
      for (final Level level : Level.values()) {
        for (final String outcome : List.of(" satisfied", " violated")) {
          final int n = counts.getOrDefault(level + outcome, 0);
          assertTrue(n >= MIN_PER_OUTCOME * COUNT / 10_000,
              () -> "only " + n + " exact comparisons with " + level + outcome);
        }
      }
      final int sserOnly = counts.getOrDefault("SSER exact oracle=false engine=VIOLATED", 0)
          - counts.getOrDefault("SER exact oracle=false engine=VIOLATED", 0);
      final int siOnly = counts.getOrDefault("SER exact oracle=false engine=VIOLATED", 0)
          - counts.getOrDefault("SI exact oracle=false engine=VIOLATED", 0);
      assertTrue(sserOnly >= MIN_BOUNDARY * COUNT / 10_000, () -> "only " + sserOnly + " SSER-but-not-SER violations");
      assertTrue(siOnly >= MIN_BOUNDARY * COUNT / 10_000, () -> "only " + siOnly + " SER-but-not-SI violations");
      final int unknownNonMt = counts.getOrDefault("UNKNOWN on non-MT", 0);
      assertTrue(unknownNonMt > 0, "the sample has no non-MT history the engine could not decide");
    }
  }
}
