package io.isowatch.core.oracle;

import static io.isowatch.core.oracle.OracleRuns.BASE_SEED;
import static io.isowatch.core.oracle.OracleRuns.COUNT;
import static io.isowatch.core.oracle.OracleRuns.DEFAULT_COUNT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.Checker;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.oracle.OracleRuns.Run;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Property tests: the engine against the brute-force oracle on {@value OracleRuns#DEFAULT_COUNT} random
 * small histories ({@link RandomHistories}), each generated, judged and checked once.
 *
 * <ul>
 *   <li>Verdicts. On proper mini-transaction histories ({@link MiniTransactions#isProper}) the
 *       engine is exact: SATISFIED iff the oracle says true, VIOLATED iff false, never UNKNOWN,
 *       except SSER when a counted transaction lacks times: then UNKNOWN unless a violation is
 *       certain. Elsewhere it is sound: VIOLATED only when the oracle proves a violation,
 *       SATISFIED only when the oracle says true; UNKNOWN is allowed (and counted). An anomaly only
 *       claims levels the oracle proves violated and whose verdict is VIOLATED; every edge of a
 *       cycle is justified by the history ({@link CycleAudit#edgeProblems}).
 *   <li>Proofs. Every VIOLATED level has an anomaly that claims it.
 *   <li>Classification. On proper MT histories without divergences, every cycle's type, levels
 *       and name follow the classification rules ({@link CycleAudit#classificationProblems}).
 *   <li>Stability. The result does not depend on how sessions are interleaved in the input.
 * </ul>
 *
 * <p>Reproduce a run with {@code -Disowatch.oracle.seed=S -Disowatch.oracle.count=N}; a failure
 * prints the seed and the history in the test language.
 */
class CheckerMatchesOracleTest {
  private static final int SHUFFLE_COUNT = Math.max(1, COUNT / 10);

  private static List<Run<CheckResult>> runs;

  @BeforeAll
  static void generateAndCheck() {
    runs = OracleRuns.judge(g -> new Checker(g.options()).check(g.history()));
  }

  @Test
  void shouldAgreeWithBruteForceOracleWhenHistoriesAreRandom() {
    // Given
    final Tally tally = new Tally();

    // When
    final List<String> failures = failures(run -> verdictProblems(run, tally));

    // Then
    System.out.println("CheckerMatchesOracleTest: " + tally.summary());
    assertNoFailures("disagree with the oracle", failures);
    tally.assertNotVacuous();
  }

  @Test
  void shouldProveEveryViolatedLevelWithAnAnomalyWhenHistoriesAreRandom() {
    // Given: the shared runs

    // When
    final List<String> failures = failures(run -> {
      final List<String> problems = new ArrayList<>();
      for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
        if (run.result().verdicts().get(level) == Verdict.VIOLATED
            && run.result().anomalies().stream().noneMatch(a -> a.violates().contains(level))) {
          problems.add(level + " is VIOLATED but no anomaly proves it; anomalies " + summary(run.result()));
        }
      }
      return problems;
    });

    // Then
    assertNoFailures("have a VIOLATED level without an anomaly proving it", failures);
  }

  @Test
  void shouldClassifyEveryCycleByTheRulesWhenHistoriesAreRandom() {
    // Given
    final int[] classified = new int[1];

    // When
    final List<String> failures = failures(run -> {
      final CycleAudit audit = new CycleAudit(run.g().history(), run.g().options());
      final List<String> problems = new ArrayList<>();
      if (!run.properMt() || audit.hasDivergence()) {
        return problems;
      }
      for (final Anomaly a : run.result().anomalies()) {
        if (!a.cycle().isEmpty()) {
          classified[0]++;
          audit.classificationProblems(a).forEach(p -> problems.add(a.displayName() + " " + a.txnIds() + ": " + p));
        }
      }
      return problems;
    });

    // Then
    System.out.println("CheckerMatchesOracleTest: " + classified[0] + " cycles classified independently");
    assertNoFailures("have a cycle classified against the rules", failures);
    assertTrue(classified[0] >= COUNT / 20, () -> "only " + classified[0] + " cycles classified");
  }

  @Test
  void shouldGiveTheSameResultWhenSessionsAreInterleavedDifferently() {
    // Given
    final List<String> failures = new ArrayList<>();
    int compared = 0;
    for (int i = 0; i < SHUFFLE_COUNT; i++) {
      final long seed = BASE_SEED + COUNT + i;
      final RandomHistories.Generated g = RandomHistories.generate(seed);
      final History shuffled = RandomHistories.interleaveSessions(g.history(), new Random(seed));
      final Checker checker = new Checker(g.options());

      // When
      final CheckResult original = checker.check(g.history());
      final CheckResult reordered = checker.check(shuffled);

      // Then
      compared++;
      if (!withoutTiming(original).equals(withoutTiming(reordered))) {
        failures.add(g.describe() + "reordered as:\n" + HistoryDsl.format(shuffled)
            + "original:  " + withoutTiming(original) + "\nreordered: " + withoutTiming(reordered));
      }
    }
    assertEquals(SHUFFLE_COUNT, compared);
    assertNoFailures("changed their result when sessions were interleaved differently", failures);
  }

  @Test
  void shouldDecideEachLevelAloneAsWhenAllAreRequested() {
    // Given: a level subset per history
    final List<String> failures = new ArrayList<>();
    final Random rnd = new Random(BASE_SEED);
    for (final Run<CheckResult> run : runs.subList(0, Math.min(runs.size(), 2_000))) {
      if (run.result() == null) {
        continue; // reported by the verdict test
      }
      final Set<Level> subset = EnumSet.noneOf(Level.class);
      for (final Level l : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
        if (rnd.nextBoolean()) {
          subset.add(l);
        }
      }
      if (subset.isEmpty()) {
        subset.add(Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])[rnd.nextInt(Level.strongestFirst(Level.CLASSIC).toArray(new Level[0]).length)]);
      }
      final CheckOptions options = run.g().options().withLevels(subset);

      // When
      final CheckResult partial = new Checker(options).check(run.g().history());

      // Then
      final Map<Level, Verdict> expected = new LinkedHashMap<>();
      subset.forEach(l -> expected.put(l, run.result().verdicts().get(l)));
      if (!expected.equals(partial.verdicts())) {
        failures.add("levels " + subset + ": " + partial.verdicts() + ", all levels gave " + run.result().verdicts()
            + "\n" + run.describe());
      }
    }
    assertNoFailures("decided a level differently when fewer levels were requested", failures);
  }

  // ---- the verdict property ----

  private static List<String> verdictProblems(final Run<CheckResult> run, final Tally tally) {
    final List<String> problems = new ArrayList<>();
    final OracleVerdict expected = run.oracle();
    final CheckResult actual = run.result();
    final boolean mt = run.properMt();
    tally.histories++;
    if (mt) {
      tally.miniTransaction++;
    }
    for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
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
    final CycleAudit audit = new CycleAudit(run.g().history(), run.g().options());
    for (final Anomaly a : actual.anomalies()) {
      for (final Level level : Level.strongestFirst(a.violates())) {
        if (!Level.CLASSIC.contains(level)) {
          continue; // WeakLevelsMatchOracleTest holds the weak levels to their oracle
        }
        if (!expected.certainlyViolated(level)) {
          problems.add(a.displayName() + " " + a.txnIds() + " claims " + level + " but the oracle disagrees");
        }
        if (actual.verdicts().get(level) != Verdict.VIOLATED) {
          problems.add(a.displayName() + " claims " + level + " but the verdict is " + actual.verdicts().get(level));
        }
      }
      if (!a.cycle().isEmpty()) {
        tally.cycles++;
        audit.edgeProblems(a).forEach(p -> problems.add(a.displayName() + " " + a.txnIds() + ": " + p));
      }
    }
    return problems;
  }

  // ---- helpers ----

  /** Applies a property to every run; a crash fails every property. */
  private static List<String> failures(final Function<Run<CheckResult>, List<String>> property) {
    return OracleRuns.failures(runs, "engine", property);
  }

  private static void assertNoFailures(final String what, final List<String> failures) {
    OracleRuns.assertNoFailures(runs, what, failures);
  }

  private static String summary(final CheckResult r) {
    return r.anomalies().stream().map(a -> a.displayName() + a.txnIds() + a.violates()).toList().toString();
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
    int cycles;
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
          .append(histories).append(" histories, ").append(miniTransaction).append(" proper MT, ")
          .append(cycles).append(" cycles audited");
      counts.forEach((k, v) -> sb.append("\n  ").append(k).append(": ").append(v));
      return sb.toString();
    }

    void assertNotVacuous() {
      assertEquals(COUNT, histories);
      for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
        for (final String outcome : List.of(" satisfied", " violated")) {
          final int n = counts.getOrDefault(level + outcome, 0);
          assertTrue(n >= MIN_PER_OUTCOME * COUNT / DEFAULT_COUNT,
              () -> "only " + n + " exact comparisons with " + level + outcome);
        }
      }
      final int sserOnly = counts.getOrDefault("SSER exact oracle=false engine=VIOLATED", 0)
          - counts.getOrDefault("SER exact oracle=false engine=VIOLATED", 0);
      final int siOnly = counts.getOrDefault("SER exact oracle=false engine=VIOLATED", 0)
          - counts.getOrDefault("SI exact oracle=false engine=VIOLATED", 0);
      assertTrue(sserOnly >= MIN_BOUNDARY * COUNT / DEFAULT_COUNT, () -> "only " + sserOnly + " SSER-but-not-SER violations");
      assertTrue(siOnly >= MIN_BOUNDARY * COUNT / DEFAULT_COUNT, () -> "only " + siOnly + " SER-but-not-SI violations");
      final int unknownNonMt = counts.getOrDefault("UNKNOWN on non-MT", 0);
      assertTrue(unknownNonMt > 0, "the sample has no non-MT history the engine could not decide");
    }
  }
}
