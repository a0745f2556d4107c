package io.isowatch.core.online;

import static io.isowatch.core.oracle.OracleRuns.COUNT;
import static io.isowatch.core.oracle.OracleRuns.DEFAULT_COUNT;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.Checker;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.oracle.CycleAudit;
import io.isowatch.core.oracle.OracleRuns;
import io.isowatch.core.oracle.OracleRuns.Run;
import io.isowatch.core.oracle.RandomHistories;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The incremental engine ({@link OnlineChecker#check}) against the batch {@link Checker} and the
 * brute-force oracle on {@value OracleRuns#DEFAULT_COUNT} random small histories ({@link RandomHistories}),
 * each generated, judged and checked once.
 *
 * <ul>
 *   <li>Verdicts equal the batch checker's on every history, and agree with the oracle: exactly on
 *       proper mini-transaction histories (SSER may be UNKNOWN when times are missing), soundly
 *       elsewhere.
 *   <li>Non-cycle anomalies and lost updates equal the batch checker's as multisets (records
 *       equal: transactions, cycle, explanation); finding kinds and counts, and the stats but
 *       edges and time, are equal too.
 *   <li>Cycles may differ from the batch checker's (they are found in π order), but each is
 *       justified by the history edge by edge, claims only levels the oracle proves violated and
 *       that are VIOLATED, and every VIOLATED level has an anomaly claiming it.
 * </ul>
 *
 * <p>Reproduce a run with {@code -Disowatch.oracle.seed=S -Disowatch.oracle.count=N}.
 */
class OnlineMatchesOracleTest {
  /** Both engines' results of one history. */
  private record Results(CheckResult batch, CheckResult online) {}

  private static List<Run<Results>> runs;

  @BeforeAll
  static void generateAndCheck() {
    runs = OracleRuns.judge(g -> new Results(new Checker(g.options()).check(g.history()),
        OnlineChecker.check(g.history(), g.options())));
  }

  @Test
  void shouldDecideAsTheBatchCheckerAndTheOracleWhenHistoriesAreRandom() {
    // Given
    final Map<String, Integer> tally = new LinkedHashMap<>();

    // When
    final List<String> failures = failures(run -> {
      final List<String> problems = new ArrayList<>();
      if (!run.result().batch().verdicts().equals(run.result().online().verdicts())) {
        problems.add("verdicts: batch " + run.result().batch().verdicts() + ", online " + run.result().online().verdicts());
      }
      final boolean mt = run.properMt();
      for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
        final Verdict v = run.result().online().verdicts().get(level);
        final Boolean o = run.oracle().holds(level);
        tally.merge(level + (mt ? " exact " : " sound ") + "oracle=" + o + " online=" + v, 1, Integer::sum);
        final boolean ok = mt
            ? (o != null ? v == (o ? Verdict.SATISFIED : Verdict.VIOLATED)
                : v == Verdict.UNKNOWN || (v == Verdict.VIOLATED && run.oracle().certainlyViolated(level)))
            : !(v == Verdict.VIOLATED && !run.oracle().certainlyViolated(level))
                && !(v == Verdict.SATISFIED && !Boolean.TRUE.equals(o));
        if (!ok) {
          problems.add(level + ": online " + v + ", oracle " + o + (mt ? " (exact expected)" : " (unsound)"));
        }
      }
      return problems;
    });

    // Then
    System.out.println("OnlineMatchesOracleTest: " + tally);
    assertNoFailures("decide differently from the batch checker or the oracle", failures);
    for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
      for (final String outcome : List.of("oracle=true online=SATISFIED", "oracle=false online=VIOLATED")) {
        final int n = tally.getOrDefault(level + " exact " + outcome, 0);
        assertTrue(n >= 300 * COUNT / DEFAULT_COUNT, () -> "only " + n + " exact comparisons " + level + " " + outcome);
      }
    }
  }

  @Test
  void shouldFindTheBatchCheckersNonCycleAnomaliesAndLostUpdatesWhenHistoriesAreRandom() {
    // Given
    final int[] compared = new int[1];

    // When
    final List<String> failures = failures(run -> {
      final List<String> problems = new ArrayList<>();
      final List<String> batch = nonCycle(run.result().batch());
      final List<String> online = nonCycle(run.result().online());
      compared[0] += batch.size();
      if (!batch.equals(online)) {
        problems.add("non-cycle anomalies and lost updates differ:\n batch  " + batch + "\n online " + online);
      }
      if (!findingCounts(run.result().batch()).equals(findingCounts(run.result().online()))) {
        problems.add("findings: batch " + findingCounts(run.result().batch()) + ", online " + findingCounts(run.result().online()));
      }
      if (!countsOf(run.result().batch().stats()).equals(countsOf(run.result().online().stats()))) {
        problems.add("stats: batch " + run.result().batch().stats() + ", online " + run.result().online().stats());
      }
      return problems;
    });

    // Then
    assertNoFailures("differ from the batch checker in non-cycle anomalies, lost updates, findings or stats",
        failures);
    assertTrue(compared[0] >= COUNT / 5, () -> "only " + compared[0] + " non-cycle anomalies and lost updates compared");
  }

  @Test
  void shouldProveEveryViolationWithJustifiedCyclesWhenHistoriesAreRandom() {
    // Given
    final int[] cycles = new int[1];

    // When
    final List<String> failures = failures(run -> {
      final List<String> problems = new ArrayList<>();
      final CheckResult r = run.result().online();
      final CycleAudit audit = new CycleAudit(run.g().history(), run.g().options());
      for (final Anomaly a : r.anomalies()) {
        for (final Level level : Level.strongestFirst(a.violates())) {
          if (!Level.CLASSIC.contains(level)) {
            continue; // WeakLevelsMatchOracleTest holds the weak levels to their oracle
          }
          if (!run.oracle().certainlyViolated(level)) {
            problems.add(a.displayName() + " " + a.txnIds() + " claims " + level + " but the oracle disagrees");
          }
          if (r.verdicts().get(level) != Verdict.VIOLATED) {
            problems.add(a.displayName() + " claims " + level + " but the verdict is " + r.verdicts().get(level));
          }
        }
        if (!a.cycle().isEmpty()) {
          cycles[0]++;
          audit.edgeProblems(a).forEach(p -> problems.add(a.displayName() + " " + a.txnIds() + ": " + p));
        }
      }
      for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
        if (r.verdicts().get(level) == Verdict.VIOLATED && r.anomalies().stream().noneMatch(a -> a.violates().contains(level))) {
          problems.add(level + " is VIOLATED but no anomaly proves it");
        }
      }
      return problems;
    });

    // Then
    assertNoFailures("have an unjustified or missing proof", failures);
    assertTrue(cycles[0] >= COUNT / 10, () -> "only " + cycles[0] + " cycles audited");
  }

  private static List<String> nonCycle(final CheckResult r) {
    return r.anomalies().stream()
        .filter(a -> a.cycle().isEmpty() || "LostUpdate".equals(a.name()))
        .map(Anomaly::toString)
        .sorted()
        .toList();
  }

  private static Map<String, Long> findingCounts(final CheckResult r) {
    final Map<String, Long> counts = new LinkedHashMap<>();
    for (final Finding f : r.findings()) {
      counts.merge(f.kind() + (f.key() == null ? "" : ":" + f.key()), f.count(), Long::sum);
    }
    return new java.util.TreeMap<>(counts);
  }

  private static List<Long> countsOf(final CheckStats s) {
    return List.of(s.transactions(), s.committed(), s.aborted(), s.unknownPromoted(), s.unknownIgnored(),
        s.sessions(), s.keys(), s.operations(), s.longRmwTransactions(), s.largeReadOnlyTransactions());
  }

  private static List<String> failures(final Function<Run<Results>, List<String>> property) {
    return OracleRuns.failures(runs, "the batch or the online engine", property);
  }

  private static void assertNoFailures(final String what, final List<String> failures) {
    OracleRuns.assertNoFailures(runs, what, failures);
  }
}
