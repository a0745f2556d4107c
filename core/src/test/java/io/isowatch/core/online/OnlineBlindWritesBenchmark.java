package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.RegisterHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The online engine on a stream of blind writes or values written twice (docs/benchmarks.md,
 * "onlineblind"): a history fed one transaction at a time with {@link OnlineChecker#accept}, and
 * {@link OnlineChecker#result()} asked every {@code isowatch.bench.ob.every} transactions, as the
 * streams app's verdict punctuation does for a tenant whose state changed; then a flush and a last
 * result. Prints wall ms, µs per transaction, the last verdicts and the heap after a collection.
 *
 * <p>Opt-in (tag {@code benchmark}): {@code mvn -o -B -pl core test -Dtest=OnlineBlindWritesBenchmark
 * -Dsurefire.excludedGroups= -Dsurefire.failIfNoSpecifiedTests=false}; sizes by
 * {@code -Disowatch.bench.ob.sizes=1000,10000,100000}.
 */
@Tag("benchmark")
class OnlineBlindWritesBenchmark {
  private static final int EVERY = Integer.getInteger("isowatch.bench.ob.every", 100);
  private static final long CAP_MS = Long.getLong("isowatch.bench.ob.capms", 600_000L);

  @Test
  void shouldMeasureTheOnlineSearchAsTheStreamGrows() {
    System.out.println("| history | transactions | result every | ms | µs/txn | results | SER | heap MiB after GC |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for (final String size : System.getProperty("isowatch.bench.ob.sizes", "1000,10000").split(",")) {
      final int n = Integer.parseInt(size.trim());
      run("rw-register", rwRegister(n), n);
      run("MT, 3 values written twice", mtWithRepeats(n), n);
    }
  }

  static History rwRegister(final int n) {
    return rwRegister(n, SimulatedLevel.SER, 7);
  }

  /** An rw-register history with blind writes: 20 sessions, n/10 keys, 4 ops, half reads. */
  static History rwRegister(final int n, final SimulatedLevel level, final long seed) {
    final List<Transaction> out = new ArrayList<>();
    try {
      RegisterHistoryGenerator.generate(new RegisterHistoryGenerator.Config(seed, n, 20, Math.max(10, n / 10), 4, 0.5,
          level), out::add);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
    return new History(out);
  }

  /** A serializable MT history where three transactions write again a value another wrote to the same key. */
  static History mtWithRepeats(final int n) {
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(n)
        .withKeys(Math.max(10, n / 10)));
    final List<Transaction> txns = new ArrayList<>(h.transactions());
    int changed = 0;
    for (int i = txns.size() / 4; i < txns.size() && changed < 3; i += txns.size() / 4) {
      final Transaction t = txns.get(i);
      final List<Op> ops = new ArrayList<>(t.ops());
      for (int j = 0; j < ops.size(); j++) {
        final Op o = ops.get(j);
        if (o.isWrite()) {
          // the value read before it on that key, if any, written again: a value written twice
          for (int k = 0; k < j; k++) {
            if (ops.get(k).isRead() && ops.get(k).key().equals(o.key()) && ops.get(k).value() != null) {
              ops.set(j, Op.write(o.key(), ops.get(k).value()));
              changed++;
              break;
            }
          }
          break;
        }
      }
      txns.set(i, new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), ops, t.tenant(), t.level(), t.line()));
    }
    return new History(txns);
  }

  private static void run(final String name, final History h, final int n) {
    System.gc();
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(1_000));
    final long t0 = System.nanoTime();
    int results = 0;
    int i = 0;
    boolean capped = false;
    for (final Transaction t : h.transactions()) {
      c.accept(t);
      if (++i % EVERY == 0) {
        c.result();
        results++;
        if ((System.nanoTime() - t0) / 1_000_000 > CAP_MS) {
          capped = true;
          break;
        }
      }
    }
    c.flush();
    final CheckResult r = c.result();
    results++;
    final long ms = (System.nanoTime() - t0) / 1_000_000;
    System.gc();
    final Runtime rt = Runtime.getRuntime();
    final long heap = (rt.totalMemory() - rt.freeMemory()) >> 20;
    System.out.printf("| %s | %d%s | %d | %d | %.1f | %d | %s | %d |%n", name, i, capped ? " (capped)" : "", EVERY, ms,
        ms * 1000.0 / i, results, r.verdicts().get(Level.SER) + (r.reasons().get(Level.SER) == null ? ""
            : " (" + r.reasons().get(Level.SER).substring(0, Math.min(60, r.reasons().get(Level.SER).length())) + ")"),
        heap);
  }
}
