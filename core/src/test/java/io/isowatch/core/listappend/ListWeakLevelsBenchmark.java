package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What RC, RA, CC and PC cost on list-append histories ({@link ListWeakLevels}), next to the
 * classic levels, in one JVM (docs/benchmarks.md, "List-append weak levels"): a serializable
 * execution of N transactions (20 sessions, 8 keys per 1,000 transactions, 1-4 ops, reads of whole
 * lists), checked whole by {@link ListAppendCheck} with SSER, SER, SI and then with the classic
 * levels plus each weak one. Rounds alternate; medians are printed, with txn/s.
 *
 * <p>Opt-in (tag {@code benchmark}): {@code mvn -o -B -pl core test -Dtest=ListWeakLevelsBenchmark
 * -Dsurefire.excludedGroups= -Dsurefire.failIfNoSpecifiedTests=false}; sizes by
 * {@code -Disowatch.bench.law.sizes=20000,100000}.
 */
@Tag("benchmark")
class ListWeakLevelsBenchmark {
  private static final int ROUNDS = Integer.getInteger("isowatch.bench.law.rounds", 3);

  @Test
  void shouldMeasureTheWeakLevelsOnListAppendHistories() {
    System.out.println("| transactions | levels | median ms | txn/s |");
    System.out.println("| --- | --- | --- | --- |");
    for (final String size : System.getProperty("isowatch.bench.law.sizes", "20000,100000").split(",")) {
      final int n = Integer.parseInt(size.trim());
      final History h = serialHistory(n, new Random(n));
      final List<Set<Level>> runs = List.of(EnumSet.of(Level.SSER, Level.SER, Level.SI),
          EnumSet.of(Level.SSER, Level.SER, Level.SI, Level.RC), EnumSet.of(Level.SSER, Level.SER, Level.SI, Level.RA),
          EnumSet.of(Level.SSER, Level.SER, Level.SI, Level.CC), EnumSet.of(Level.SSER, Level.SER, Level.SI, Level.PC));
      final long[][] ns = new long[runs.size()][ROUNDS];
      for (int r = 0; r < ROUNDS; r++) {
        for (int i = 0; i < runs.size(); i++) {
          final long t0 = System.nanoTime();
          final CheckResult c = ListAppendCheck.check(h, CheckOptions.defaults().withLevels(runs.get(i)));
          ns[i][r] = System.nanoTime() - t0;
          for (final Level l : runs.get(i)) {
            assertEquals(Verdict.SATISFIED, c.verdicts().get(l), l + " " + c.reasons());
          }
        }
      }
      for (int i = 0; i < runs.size(); i++) {
        final long[] c = ns[i].clone();
        java.util.Arrays.sort(c);
        final double ms = c[c.length / 2] / 1e6;
        System.out.printf("| %,d | %s | %.0f | %,.0f |%n", n, runs.get(i), ms, n / (ms / 1e3));
      }
    }
  }

  /** A serializable execution: transactions run one after the other, in 20 sessions. */
  private static History serialHistory(final int n, final Random random) {
    final int keys = Math.max(8, n / 125);
    final Map<String, List<Long>> store = new HashMap<>();
    final Map<String, Long> seqs = new HashMap<>();
    final List<Transaction> txns = new ArrayList<>(n);
    long next = 1;
    for (int i = 0; i < n; i++) {
      final List<Op> ops = new ArrayList<>();
      final int size = 1 + random.nextInt(4);
      for (int o = 0; o < size; o++) {
        final String key = "k" + random.nextInt(keys);
        final List<Long> list = store.computeIfAbsent(key, k -> new ArrayList<>());
        if (random.nextBoolean()) {
          list.add(next);
          ops.add(Op.append(key, next++));
        } else {
          ops.add(Op.readList(key, List.copyOf(list)));
        }
      }
      final String session = "s" + random.nextInt(20);
      txns.add(new Transaction("T" + i, session, seqs.merge(session, 1L, Long::sum), TxnStatus.COMMITTED,
          10L * i + 1, 10L * i + 5, ops, null, null, i + 1));
    }
    return new History(txns);
  }
}
