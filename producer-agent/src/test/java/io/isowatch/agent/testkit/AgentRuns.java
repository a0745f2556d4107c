package io.isowatch.agent.testkit;

import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.run.AgentRun;
import io.isowatch.agent.run.MicroClock;
import io.isowatch.agent.run.RunSummary;
import io.isowatch.agent.sink.CollectingSink;
import io.isowatch.agent.target.Target;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.agent.workload.KeySpace;
import io.isowatch.agent.workload.ListAppend;
import io.isowatch.agent.workload.ShapeMix;
import io.isowatch.agent.workload.WorkloadConfig;
import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Runs the agent in-process into memory and checks what it recorded. */
public final class AgentRuns {
  /** Large enough that every anomaly kind present is listed, not cut off by the cap. */
  public static final int MAX_ANOMALIES = 100_000;

  private AgentRuns() {}

  /** What a run recorded and how it went. */
  public record Outcome(History history, RunSummary summary, double seconds) {}

  public static WorkloadConfig workload(final int keys, final String dist, final String shapes, final long seed) {
    return new WorkloadConfig(new KeySpace(keys), KeyDistribution.parse(dist), ShapeMix.parse(shapes), null, seed);
  }

  /** The list-append workload: 1 … maxOps reads and appends per transaction. */
  public static WorkloadConfig listAppend(final int keys, final String dist, final int maxOps, final long seed) {
    return new WorkloadConfig(new KeySpace(keys), KeyDistribution.parse(dist), ShapeMix.paper(), null, seed,
        new ListAppend(maxOps));
  }

  public static Outcome run(final Target target, final AgentConfig config) throws Exception {
    final CollectingSink sink = new CollectingSink();
    final long t0 = System.nanoTime();
    final RunSummary summary;
    try (target) {
      summary = new AgentRun(config, target, sink, MicroClock.system(), null).run();
    }
    sink.close();
    return new Outcome(sink.history(), summary, (System.nanoTime() - t0) / 1e9);
  }

  public static CheckResult check(final History history) {
    return OnlineChecker.check(history, CheckOptions.defaults().withMaxAnomalies(MAX_ANOMALIES));
  }

  /** Names of the listed anomalies (the type when there is no name). */
  public static Set<String> names(final CheckResult r) {
    return r.anomalies().stream().map(Anomaly::displayName).collect(Collectors.toCollection(TreeSet::new));
  }

  /** A short description for assertion messages. */
  public static String describe(final Outcome o, final CheckResult r) {
    final Map<String, Long> counts = new TreeMap<>(r.stats().anomaliesByName());
    return String.format(Locale.ROOT,
        "%d txns (committed %d, aborted %d, unknown %d) in %.1f s; verdicts %s; anomalies %s; failures %s",
        o.summary().total(), o.summary().committed(), o.summary().aborted(), o.summary().unknown(), o.seconds(),
        new TreeMap<>(r.verdicts()), counts, o.summary().failureCodes());
  }
}
