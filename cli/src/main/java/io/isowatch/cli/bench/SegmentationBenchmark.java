package io.isowatch.cli.bench;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.Horizon;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.online.OnlineOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Segmentation benchmark (docs/benchmarks.md, "Segmentation"), run by {@code
 * scripts/bench-segmentation.sh}: generated histories stream through the online engine as a
 * stream does (grace 1 ms, no history held in memory).
 *
 * <ul>
 *   <li>{@code throughput}: the same history through the engine with and without a horizon,
 *       alternately, {@code repeat} times each in this JVM; prints txn/s (engine time only, the
 *       generator's excluded) and cut time per run.
 *   <li>{@code soak}: one long run with a horizon; every {@code every} transactions a full
 *       collection, then live heap, RSS, retained transactions, cuts and the rate of the last
 *       interval.
 * </ul>
 */
public final class SegmentationBenchmark {
  private static final long GRACE_MICROS = 1_000;

  private SegmentationBenchmark() {}

  public static void main(final String[] args) throws Exception {
    final String mode = args.length > 0 ? args[0] : "throughput";
    final long txns = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000L;
    final long horizon = args.length > 2 ? Long.parseLong(args[2]) : 100_000L;
    final long third = args.length > 3 ? Long.parseLong(args[3]) : 3;
    final PrintStream out = System.out;
    out.println("mode=" + mode + " txns=" + txns + " horizon=" + horizon + " java=" + System.getProperty("java.version")
        + " maxHeapMiB=" + Runtime.getRuntime().maxMemory() / (1 << 20));
    if (mode.equals("soak")) {
      soak(out, txns, horizon, third);
    } else {
      throughput(out, txns, horizon, (int) third);
    }
  }

  private static GeneratorConfig config(final long txns) {
    return GeneratorConfig.defaults().withSeed(42).withTransactions(txns);
  }

  private static void throughput(final PrintStream out, final long txns, final long horizon, final int repeat)
      throws IOException {
    final List<Double> on = new ArrayList<>();
    final List<Double> off = new ArrayList<>();
    for (int r = 0; r < repeat + 1; r++) {
      for (final boolean segmented : new boolean[] {r % 2 == 0, r % 2 != 0}) {
        final Run run = run(txns, segmented ? Horizon.ofTransactions(horizon) : Horizon.NONE, 0, null);
        final double rate = txns / (run.engineNanos / 1e9);
        out.printf("run=%d segmented=%s txn/s=%.0f engineSeconds=%.2f cuts=%d cutSeconds=%.2f pruned=%d verdicts=%s%n",
            r, segmented, rate, run.engineNanos / 1e9, run.checker.cuts(), run.checker.pruneSeconds(),
            run.checker.prunedTransactions(), run.result.verdicts());
        if (r > 0) { // the first round warms up
          (segmented ? on : off).add(rate);
        }
      }
    }
    out.printf("median txn/s: segmented=%.0f unsegmented=%.0f ratio=%.2f%n", median(on), median(off),
        median(on) / median(off));
  }

  private static void soak(final PrintStream out, final long txns, final long horizon, final long every)
      throws IOException {
    out.println("transactions,liveHeapMiB,rssMiB,retained,cuts,pruned,intervalTxnPerSec");
    run(txns, Horizon.ofTransactions(horizon), every, out);
  }

  private record Run(OnlineChecker checker, CheckResult result, long engineNanos) {}

  private static Run run(final long txns, final Horizon horizon, final long every, final PrintStream out)
      throws IOException {
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(),
        new OnlineOptions(GRACE_MICROS, false).withHorizon(horizon));
    final long[] state = new long[3]; // engine nanos, count, nanos at the last sample
    MtHistoryGenerator.generate(config(txns), (final Transaction t) -> {
      final long t0 = System.nanoTime();
      c.accept(t);
      state[0] += System.nanoTime() - t0;
      state[1]++;
      if (every > 0 && state[1] % every == 0) {
        final double rate = every / ((state[0] - state[2]) / 1e9);
        state[2] = state[0];
        out.printf("%d,%.1f,%.1f,%d,%d,%d,%.0f%n", state[1], HeapMeter.liveBytes() / 1048576.0, rssMiB(),
            c.retainedTransactions(), c.cuts(), c.prunedTransactions(), rate);
        out.flush();
      }
    });
    final long t0 = System.nanoTime();
    c.flush();
    final CheckResult result = c.result();
    state[0] += System.nanoTime() - t0;
    return new Run(c, result, state[0]);
  }

  private static double rssMiB() {
    try {
      for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("\\D", "")) / 1024.0;
        }
      }
    } catch (final IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }

  private static double median(final List<Double> xs) {
    if (xs.isEmpty()) {
      return Double.NaN;
    }
    final double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
  }
}
