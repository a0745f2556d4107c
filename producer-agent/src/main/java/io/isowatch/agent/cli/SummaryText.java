package io.isowatch.agent.cli;

import io.isowatch.agent.workload.WorkloadConfig;
import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.run.RunSummary;
import io.isowatch.agent.sink.SinkStats;
import io.isowatch.agent.target.faulty.FaultKind;
import io.isowatch.agent.target.faulty.InjectionReport;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Renders the end-of-run summary: counts, rates, sinks, injected faults, verdicts. */
final class SummaryText {
  private final AgentConfig config;
  private final long seed;

  SummaryText(final AgentConfig config, final long seed) {
    this.config = config;
    this.seed = seed;
  }

  void summary(final RunSummary s, final List<SinkStats> sinks, final PrintWriter out) {
    out.println("agent summary");
    line(out, "target", s.target() + ", " + s.isolation());
    line(out, "workload", config.sessions() + " sessions, " + config.workload().keys().size() + " keys, "
        + config.workload().distribution().spec() + describeWorkload(config.workload())
        + (config.workload().readOnlyRatio() == null ? "" : ", read-only ratio " + config.workload().readOnlyRatio())
        + ", seed " + seed);
    line(out, "transactions", String.format(Locale.ROOT, "%d in %.3f s: committed %d, aborted %d, unknown %d",
        s.total(), s.seconds(), s.committed(), s.aborted(), s.unknown()));
    line(out, "rate", String.format(Locale.ROOT, "%.1f txn/s (committed %.1f txn/s)", s.rate(), s.committedRate()));
    line(out, "abort rate", String.format(Locale.ROOT, "%.2f %%", 100 * s.abortRate()));
    if (!s.failureCodes().isEmpty()) {
      line(out, "failures", s.failureCodes().entrySet().stream()
          .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining(", ")));
    }
    if (s.snapshots() > 0) {
      line(out, "snapshots", s.snapshots() + " whole-key-space reads (included above)");
    }
    if (s.reconnects() > 0) {
      line(out, "reconnects", String.valueOf(s.reconnects()));
    }
    for (final SinkStats k : sinks) {
      line(out, "sink", String.format(Locale.ROOT, "%s: %d accepted, %d %s%s, producers waited %d times (%.1f ms)",
          k.sink(), k.accepted(), k.written(), k.writtenAs(), k.failed() > 0 ? ", " + k.failed() + " FAILED" : "",
          k.producerWaits(), k.producerWaitMicros() / 1e3));
    }
    if (s.failure() != null) {
      line(out, "stopped by", s.failure());
    }
  }

  void injections(final InjectionReport r, final PrintWriter out) {
    final List<String> parts = new ArrayList<>();
    for (final FaultKind k : FaultKind.values()) {
      if (r.count(k) > 0) {
        parts.add(k.spec() + " " + r.count(k));
      }
    }
    line(out, "injected", (parts.isEmpty() ? "nothing" : String.join(", ", parts))
        + (r.refusedCommits() > 0 ? "; " + r.refusedCommits() + " commits refused for abortedread" : ""));
  }

  void check(final CheckResult result, final InjectionReport injected, final PrintWriter out) {
    final List<String> verdicts = new ArrayList<>();
    // Strongest first, as this summary always listed them.
    for (final Level l : Level.strongestFirst(result.verdicts().keySet())) {
      verdicts.add(l + " " + result.verdicts().get(l));
    }
    line(out, "check", String.join(", ", verdicts) + String.format(Locale.ROOT, " (%.2f s)", result.stats().seconds()));
    final Map<String, Long> byName = result.stats().anomaliesByName();
    if (!byName.isEmpty()) {
      line(out, "anomalies", byName.entrySet().stream().sorted(Map.Entry.comparingByKey())
          .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", "))
          + (result.stats().anomaliesTruncated() ? " (counts capped by the search)" : ""));
    }
    if (injected != null) {
      final List<String> parts = new ArrayList<>();
      for (final FaultKind k : FaultKind.values()) {
        if (injected.count(k) > 0) {
          final boolean seen = result.anomalies().stream().anyMatch(a -> k.detectedAs(a.name(), a.type()));
          parts.add(k.spec() + (seen ? " detected as " : " not reported as ") + detectedName(k));
        }
      }
      if (!parts.isEmpty()) {
        line(out, "faults", String.join(", ", parts));
      }
    }
  }

  private static String detectedName(final FaultKind k) {
    return k.checkerName() != null ? k.checkerName() : k.checkerType();
  }

  private static void line(final PrintWriter out, final String label, final String value) {
    out.printf(Locale.ROOT, "  %-13s %s%n", label, value);
  }

  /** The workload in a few words: the shapes, or list-append and its transaction size. */
  static String describeWorkload(final WorkloadConfig w) {
    return w.lists() ? ", list-append of 1-" + w.listAppend().maxOps() + " ops per transaction"
        : ", shapes " + w.shapes().spec();
  }
}
