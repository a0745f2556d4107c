package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.listappend.ListAppendCheck;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The online list-append engine against one whole-history check of the same history, in one JVM
 * (docs/benchmarks.md, "The online list-append engine"): a serializable execution of N
 * transactions (20 sessions, 8 keys per 1,000 transactions, 1-4 ops, reads of whole lists, a final
 * read of every key), fed to {@link ListAppendOnlineChecker} one transaction at a time in a
 * shuffled order (then a flush), and checked whole with {@link ListAppendCheck}. Rounds alternate;
 * medians are printed, with their ratio.
 *
 * <p>Opt-in (tag {@code benchmark}): {@code mvn -o -B -pl core test -Dtest=ListAppendOnlineBenchmark
 * -Dsurefire.excludedGroups= -Dsurefire.failIfNoSpecifiedTests=false}; sizes by
 * {@code -Disowatch.bench.la.sizes=2000,20000}.
 */
@Tag("benchmark")
class ListAppendOnlineBenchmark {
  private static final int ROUNDS = Integer.getInteger("isowatch.bench.la.rounds", 5);

  @Test
  void shouldMeasureTheOnlineEngineAgainstOneWholeCheck() {
    System.out.println("| transactions | whole check ms | online ms (accept each + flush) | online / whole |");
    System.out.println("| --- | --- | --- | --- |");
    for (final String size : System.getProperty("isowatch.bench.la.sizes", "2000,20000").split(",")) {
      run(Integer.parseInt(size.trim()));
    }
  }

  private static void run(final int n) {
    final History h = serialHistory(n, new Random(n));
    final List<Transaction> arrival = new ArrayList<>(h.transactions());
    Collections.shuffle(arrival, new Random(7));
    final long[] whole = new long[ROUNDS];
    final long[] online = new long[ROUNDS];
    for (int r = 0; r < ROUNDS; r++) {
      long t0 = System.nanoTime();
      final CheckResult w = ListAppendCheck.check(h, CheckOptions.defaults());
      whole[r] = System.nanoTime() - t0;
      t0 = System.nanoTime();
      final ListAppendOnlineChecker c = new ListAppendOnlineChecker(CheckOptions.defaults());
      for (final Transaction t : arrival) {
        c.accept(t);
      }
      c.flush();
      online[r] = System.nanoTime() - t0;
      assertEquals(w.verdicts(), c.result().verdicts());
    }
    final double wMs = median(whole) / 1e6;
    final double oMs = median(online) / 1e6;
    System.out.printf("| %,d | %.0f | %.0f | %.1f |%n", n, wMs, oMs, oMs / wMs);
  }

  private static double median(final long[] xs) {
    final long[] c = xs.clone();
    java.util.Arrays.sort(c);
    return c[c.length / 2];
  }

  /** A serializable execution: transactions run one after the other, in sessions of their own. */
  private static History serialHistory(final int n, final Random random) {
    final int keys = Math.max(8, n / 125);
    final Map<String, List<Long>> store = new HashMap<>();
    final Map<String, Long> seqs = new HashMap<>();
    final List<Transaction> txns = new ArrayList<>(n + 1);
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
    final List<Op> last = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      last.add(Op.readList("k" + k, List.copyOf(store.getOrDefault("k" + k, List.of()))));
    }
    txns.add(new Transaction("final", "final", 1, TxnStatus.COMMITTED, 10L * n + 1, 10L * n + 5, last, null, null,
        n + 1));
    return new History(txns);
  }
}
