package io.isowatch.core.solve;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.gen.RegisterHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Times the search of version orders alone on generated rw-register histories with blind writes
 * (docs/benchmarks.md, "Blind writes"). Not a test: run by hand,
 *
 * <pre>
 * java -Xmx4g -cp core/target/classes:core/target/test-classes:$(cat cp.txt) \
 *   io.isowatch.core.solve.BlindWriteBenchmark TXNS SESSIONS KEYS OPS READ_RATIO ser|si LEVEL [BUDGET_S]
 * </pre>
 */
final class BlindWriteBenchmark {
  private BlindWriteBenchmark() {}

  public static void main(final String[] args) throws Exception {
    final long n = Long.parseLong(args[0]);
    final RegisterHistoryGenerator.Config c = new RegisterHistoryGenerator.Config(1, n, Integer.parseInt(args[1]),
        Integer.parseInt(args[2]), Integer.parseInt(args[3]), Double.parseDouble(args[4]),
        SimulatedLevel.parse(args[5]));
    final Level level = Level.parse(args[6]);
    final Duration budget = Duration.ofSeconds(args.length > 7 ? Long.parseLong(args[7]) : 60);
    final List<Transaction> txns = new ArrayList<>();
    RegisterHistoryGenerator.generate(c, txns::add);
    final History h = new History(txns);
    for (int run = 0; run < 3; run++) {
      final long t0 = System.nanoTime();
      final VersionOrderSearch.Outcome o = VersionOrderSearch.search(h, level, 0L, 0L, budget);
      final double s = (System.nanoTime() - t0) / 1e9;
      System.out.printf("run %d: %s %s in %.3f s (%d txns, %d open pairs, %d clauses, %d rounds)%s%n", run, level,
          o.verdict(), s, n, o.variables(), o.clauses(), o.rounds(), o.reason() == null ? "" : " " + o.reason());
    }
    final long t0 = System.nanoTime();
    final var r = io.isowatch.core.online.OnlineChecker.check(h, CheckOptions.defaults().withLevels(java.util.Set.of(level))
        .withSolverBudget(budget));
    System.out.printf("isowatch check: %s in %.3f s%n", r.verdicts(), (System.nanoTime() - t0) / 1e9);
  }
}
