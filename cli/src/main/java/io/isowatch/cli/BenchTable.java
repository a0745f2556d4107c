package io.isowatch.cli;

import io.isowatch.cli.bench.BenchReport;
import io.isowatch.cli.bench.MachineInfo;
import java.util.Locale;
import java.util.TreeMap;

/** Renders a {@link BenchReport} as a plain-text table for people. */
final class BenchTable {
  private static final double MIB = 1024.0 * 1024.0;
  private static final double GIB = MIB * 1024.0;

  private BenchTable() {}

  static String render(final BenchReport r) {
    final StringBuilder sb = new StringBuilder();
    final MachineInfo m = r.machine();
    line(sb, "IsoWatch core benchmark, %s", r.date());
    line(sb, "machine: %d processors, %s, %.1f GiB RAM; Java %s (%s); max heap %.1f GiB; GC %s", m.processors(),
        m.cpuModel(), m.physicalMemoryBytes() / GIB, m.java(), m.vm(), m.maxHeapBytes() / GIB, m.collectors());
    line(sb, "jvm args: %s", String.join(" ", m.jvmArguments()));
    line(sb, "engine: %s", r.engine());
    final BenchReport.Input in = r.input();
    line(sb, "history: %s, %,d transactions, %d injected anomalies (%s)", in.source(), in.transactions(),
        in.injected(), in.description());
    line(sb, "  %s: best %.3f s, median %.3f s over %d run(s) = %,.0f txn/s best%s", in.loadStep(), in.load().best(),
        in.load().median(), in.load().seconds().size(), in.loadTxnPerSecond(),
        in.fileBytes() > 0 ? String.format(Locale.ROOT, ", %.1f MiB/s", in.fileBytes() / MIB / in.load().best()) : "");
    line(sb, "  retained heap: %.1f MiB = %.0f B/txn", in.retainedBytes() / MIB, in.retainedBytesPerTxn());
    sb.append(System.lineSeparator());
    line(sb, "%-5s %-10s %9s %9s %12s %12s %10s %10s %10s %4s  %s", "level", "verdict", "best s", "median s",
        "best txn/s", "median txn/s", "peak B/tx", "check B/tx", "live B/tx", "GCs", "anomalies");
    for (final BenchReport.LevelResult l : r.levels()) {
      line(sb, "%-5s %-10s %9.3f %9.3f %,12.0f %,12.0f %10.0f %10.0f %10s %4d  %s", l.level(), l.verdict(),
          l.runs().best(), l.runs().median(), l.bestTxnPerSecond(), l.medianTxnPerSecond(), l.peakHeapBytesPerTxn(),
          l.checkWorkingSetBytesPerTxn(),
          l.maxLiveAfterGcBytesPerTxn() < 0 ? "n/a" : String.format(Locale.ROOT, "%.0f", l.maxLiveAfterGcBytesPerTxn()),
          l.collections(), l.anomaliesByName().isEmpty() ? "none" : new TreeMap<>(l.anomaliesByName()));
    }
    sb.append(System.lineSeparator());
    line(sb, "peak B/tx: sum of heap pools' peaks during a run (history and uncollected garbage included);");
    line(sb, "check B/tx: peak minus live heap before the run; live B/tx: largest heap right after a GC in a run.");
    return sb.toString();
  }

  private static void line(final StringBuilder sb, final String format, final Object... args) {
    sb.append(String.format(Locale.ROOT, format, args)).append(System.lineSeparator());
  }
}
