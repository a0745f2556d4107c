package io.isowatch.core.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The random histories the differential tests judge ({@link RandomHistories}): for each, the
 * brute-force oracle's verdict and what the engines under test made of it, or how they crashed.
 * Reproduce a run with {@code -Disowatch.oracle.seed=S -Disowatch.oracle.count=N}.
 */
public final class OracleRuns {
  public static final int DEFAULT_COUNT = 10_000;
  public static final long BASE_SEED = Long.getLong("isowatch.oracle.seed", 20_261_121L);
  public static final int COUNT = Integer.getInteger("isowatch.oracle.count", DEFAULT_COUNT);
  private static final int FAILURES_SHOWN = 5;

  private OracleRuns() {}

  /** One generated history, what the oracle says, and what the engines say (or how they failed). */
  public record Run<R>(RandomHistories.Generated g, OracleVerdict oracle, R result, RuntimeException crash) {
    /** Whether the history is made of proper mini-transactions, on which more is decidable. */
    public boolean properMt() {
      return MiniTransactions.isProper(g.history(), g.options().initialValue());
    }

    public String describe() {
      return "oracle=" + oracle + "\n" + g.describe();
    }
  }

  /** The {@link #COUNT} histories from {@link #BASE_SEED} on, each judged by the oracle and by {@code engines}. */
  public static <R> List<Run<R>> judge(final Function<RandomHistories.Generated, R> engines) {
    final List<Run<R>> all = new ArrayList<>(COUNT);
    for (int i = 0; i < COUNT; i++) {
      final RandomHistories.Generated g = RandomHistories.generate(BASE_SEED + i);
      final OracleVerdict oracle = BruteForceOracle.judge(g.history(), g.options());
      try {
        all.add(new Run<>(g, oracle, engines.apply(g), null));
      } catch (final RuntimeException e) {
        // A crash is a disagreement like any other: kept with its history and reported by failures.
        all.add(new Run<>(g, oracle, null, e));
      }
    }
    return List.copyOf(all);
  }

  /** Applies a property to every run; a crash fails every property, as "{@code engines} threw ...". */
  public static <R> List<String> failures(final List<Run<R>> runs, final String engines,
      final Function<Run<R>, List<String>> property) {
    final List<String> failures = new ArrayList<>();
    for (final Run<R> run : runs) {
      final List<String> problems = run.crash() != null ? List.of(engines + " threw " + run.crash()) : property.apply(run);
      if (!problems.isEmpty()) {
        failures.add(problems + " " + run.describe());
      }
    }
    return failures;
  }

  /** Every history was judged, and none failed {@code what}; else the first failures, with their histories. */
  public static <R> void assertNoFailures(final List<Run<R>> runs, final String what, final List<String> failures) {
    assertEquals(COUNT, runs.size());
    assertTrue(failures.isEmpty(), () -> failures.size() + " of " + COUNT + " histories " + what
        + "; the first ones:\n\n" + String.join("\n", failures.subList(0, Math.min(FAILURES_SHOWN, failures.size()))));
  }
}
