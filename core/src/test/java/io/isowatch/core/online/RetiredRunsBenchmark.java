package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import java.util.SplittableRandom;

/**
 * Measures the exact run-sets of retired versions against the scalable filters (docs/benchmarks.md,
 * "Retired versions: exact runs"): bytes and add/lookup cost after N versions of counter values
 * (as IsoWatch's generator and agent write them) and of random values; then, with {@code gen},
 * the runs after a generated stream checked under a horizon. Not a test: run by hand,
 *
 * <pre>
 * java -Xmx3g -cp core/target/classes:core/target/test-classes:$(cat cp.txt) \
 *   io.isowatch.core.online.RetiredRunsBenchmark [versions] [gen transactions] [horizon]
 * </pre>
 */
final class RetiredRunsBenchmark {
  private static final int KEYS = 1_000;
  private static final int PROBES = 2_000_000;

  private RetiredRunsBenchmark() {}

  public static void main(final String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    structures(n, false);
    structures(n / 10, true);
    if (args.length > 1) {
      generated(Long.parseLong(args[1]), args.length > 2 ? Long.parseLong(args[2]) : 20_000);
    }
  }

  private static void structures(final int n, final boolean random) {
    final SplittableRandom rnd = new SplittableRandom(1);
    final long[] values = new long[n];
    final int[] keys = new int[n];
    final long[] next = new long[KEYS];
    for (int i = 0; i < n; i++) {
      keys[i] = rnd.nextInt(KEYS);
      values[i] = random ? rnd.nextLong() : ++next[keys[i]];
    }
    final String what = random ? "random values" : "counter values";
    final RetiredRuns runs = new RetiredRuns(Long.MAX_VALUE);
    final long heap0 = used();
    long t = System.nanoTime();
    for (int i = 0; i < n; i++) {
      runs.add(keys[i], values[i], false);
    }
    final double runAdd = (System.nanoTime() - t) / (double) n;
    final long runHeap = used() - heap0;
    final RetiredValues filter = new RetiredValues(Horizon.DEFAULT_FILTER_BITS, Horizon.MAX_FILTER_BITS);
    final long heap1 = used();
    t = System.nanoTime();
    for (int i = 0; i < n; i++) {
      filter.add(keys[i], values[i], false);
    }
    final double filterAdd = (System.nanoTime() - t) / (double) n;
    final long filterHeap = used() - heap1;
    // Lookups of versions never added (the thin-air case) and of versions added (the stale case).
    long hits = 0;
    t = System.nanoTime();
    for (int i = 0; i < PROBES; i++) {
      hits += runs.contains(rnd.nextInt(KEYS), random ? rnd.nextLong() : -1 - i, false) ? 1 : 0;
    }
    final double runMiss = (System.nanoTime() - t) / (double) PROBES;
    t = System.nanoTime();
    for (int i = 0; i < PROBES; i++) {
      final int j = rnd.nextInt(n);
      hits += runs.contains(keys[j], values[j], false) ? 1 : 0;
    }
    final double runHit = (System.nanoTime() - t) / (double) PROBES;
    long fp = 0;
    t = System.nanoTime();
    for (int i = 0; i < PROBES; i++) {
      fp += filter.mightContain(rnd.nextInt(KEYS), random ? rnd.nextLong() : -1 - i, false) ? 1 : 0;
    }
    final double filterMiss = (System.nanoTime() - t) / (double) PROBES;
    t = System.nanoTime();
    for (int i = 0; i < PROBES; i++) {
      final int j = rnd.nextInt(n);
      hits += filter.mightContain(keys[j], values[j], false) ? 1 : 0;
    }
    final double filterHit = (System.nanoTime() - t) / (double) PROBES;
    System.out.printf("%s, %,d versions, %,d keys; runs refused (past %,d per key) %,d%n", what, n, KEYS,
        RetiredRuns.MAX_RUNS_PER_KEY, n - runs.taken());
    System.out.printf("  runs:   %,d runs, %,d bytes counted (%.2f bits/version), heap delta %,d; add %.0f ns,"
        + " lookup miss %.0f ns, hit %.0f ns%n", runs.runs(), runs.bytes(), 8.0 * runs.bytes() / n, runHeap, runAdd,
        runMiss, runHit);
    System.out.printf("  filter: %,d bytes (%.2f bits/version), heap delta %,d; add %.0f ns, lookup miss %.0f ns,"
        + " hit %.0f ns; false positives %d of %,d, reported %.2g%n", filter.bytes(), 8.0 * filter.bytes() / n,
        filterHeap, filterAdd, filterMiss, filterHit, fp, PROBES, filter.falsePositiveProbability());
    System.out.println("  (" + hits + ")");
  }

  private static void generated(final long txns, final long horizon) throws Exception {
    final OnlineChecker engine = new OnlineChecker(CheckOptions.defaults(),
        OnlineOptions.streaming(1_000).withHorizon(Horizon.ofTransactions(horizon)));
    final GeneratorConfig config = GeneratorConfig.defaults().withSeed(8).withTransactions(txns).withSessions(20)
        .withKeys(1_000).withInjections(Injection.parseList("ThinAirRead:1")).withInjectAt(0.999);
    final long t = System.nanoTime();
    final long[] seen = {0};
    MtHistoryGenerator.generate(config, tx -> {
      engine.accept(tx);
      if (++seen[0] % (txns / 10) == 0) {
        System.out.printf("  %,d txns: runs %,d (all %,d, other %,d), run bytes %,d, retired %,d, filter bytes %,d%n",
            seen[0], engine.retiredRuns(), engine.summary().allRuns.runs(), engine.summary().otherRuns.runs(),
            engine.retiredRunBytes(), engine.retiredVersions(), engine.retiredFilterBytes());
      }
    });
    engine.flush();
    System.out.printf("generated %,d txns, horizon %,d: %s; %.0f s%n", txns, horizon, engine.result().verdicts(),
        (System.nanoTime() - t) / 1e9);
    System.out.println("  " + engine.result().stats().retired() + " " + engine.result().stats().anomaliesByName());
  }

  private static long used() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    final Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }
}
