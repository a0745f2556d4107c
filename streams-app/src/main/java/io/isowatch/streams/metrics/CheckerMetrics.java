package io.isowatch.streams.metrics;

import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.streams.PromisedLevels;
import io.prometheus.client.Collector;
import io.prometheus.client.CollectorRegistry;
import io.prometheus.client.Counter;
import io.prometheus.client.Gauge;
import io.prometheus.client.Histogram;
import io.prometheus.client.exporter.common.TextFormat;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The checker's own metrics ({@link MetricNames}), in a Prometheus registry of its own (not the
 * process-wide default, so tests and several apps in one JVM stay apart). Thread-safe: every
 * stream thread's processors record into one instance.
 */
public final class CheckerMetrics {
  /** Latency buckets in seconds: detection is meant to take seconds, grace included. */
  private static final double[] LATENCY_BUCKETS = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300};
  /** Buckets in seconds of the engine's own chores (a prune, a checkpoint). */
  private static final double[] DURATION_BUCKETS = {0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};

  private final CollectorRegistry registry = new CollectorRegistry(true);
  private final Counter transactions = counter(MetricNames.TRANSACTIONS_CHECKED_TOTAL,
      "Transactions taken into a tenant's engine.", "tenant");
  private final Counter anomalies = counter(MetricNames.ANOMALIES_TOTAL,
      "Anomalies published, once per violated level.", "tenant", "type", "name", "level");
  private final Counter retracted = counter(MetricNames.ANOMALIES_RETRACTED_TOTAL,
      "Anomalies retracted (published earlier, then invalidated by a transaction arriving beyond every"
          + " lateness bound), once per level each violated.", "tenant", "type", "name", "level");
  private final Histogram latency = histogram(MetricNames.DETECTION_LATENCY_SECONDS,
      "From the end of an anomaly's latest transaction to its publication.", LATENCY_BUCKETS, "tenant");
  private final Histogram lateness = histogram(MetricNames.ARRIVAL_LATENESS_SECONDS,
      "How far behind the tenant's latest end time seen a transaction arrives.", LATENCY_BUCKETS, "tenant");
  private final Gauge pendingReads = gauge(MetricNames.PENDING_READS,
      "Reads still waiting for their writer.", "tenant");
  private final Gauge stateTransactions = gauge(MetricNames.STATE_TRANSACTIONS,
      "Engine inputs held in the tenant-transactions store (those after its checkpoint).", "tenant");
  private final Gauge bufferedTransactions = gauge(MetricNames.BUFFERED_TRANSACTIONS,
      "Transactions waiting in the reorder buffer for the watermark.", "tenant");
  private final Counter deadLetters = counter(MetricNames.DLQ_RECORDS_TOTAL,
      "Records sent to the dead-letter topic.", "error");
  private final Counter findings = counter(MetricNames.INPUT_FINDINGS_TOTAL,
      "Impossible but well-formed input events.", "tenant", "kind");
  private final Counter restores = counter(MetricNames.TENANT_RESTORES_TOTAL,
      "Tenant engines rebuilt from the tenant-transactions store.", "tenant");
  private final Counter verdicts = counter(MetricNames.VERDICTS_TOTAL,
      "Verdicts published.", "tenant");
  private final Gauge levelVerdict = gauge(MetricNames.LEVEL_VERDICT,
      "1 for the tenant's current verdict of the level, 0 for the other two.", "tenant", "level", "verdict");
  private final Gauge verdictFindings = gauge(MetricNames.FINDINGS,
      "Findings by kind in the tenant's latest verdict (SEQ_GAP, LATE_TRANSACTION...); a seq gap closes"
          + " when the missing transaction arrives.", "tenant", "kind");
  // Per tenant, the finding kinds set so far: a kind gone from the latest verdict is set to 0.
  private final Map<String, java.util.Set<String>> findingKinds = new ConcurrentHashMap<>();
  private final Gauge promisedLevel = gauge(MetricNames.PROMISED_LEVEL,
      "1 for each level the tenant is promised (tenant.promised.levels).", "tenant", "level");
  private final Gauge promiseUnchecked = gauge(MetricNames.PROMISE_UNCHECKED_LEVEL,
      "1 for each level the tenant is promised that the checker does not decide (check.levels).", "tenant", "level");
  private final Counter promiseBroken = counter(MetricNames.PROMISE_BROKEN_ANOMALIES_TOTAL,
      "Anomalies published that violate a level the tenant is promised, once per anomaly.", "tenant", "type", "name");
  private final Counter promiseAllowed = counter(MetricNames.PROMISE_ALLOWED_ANOMALIES_TOTAL,
      "Anomalies published that violate no level the tenant is promised (weaker than weaker_than, its weakest"
          + " violated level, but allowed), once per anomaly.", "tenant", "type", "name", "weaker_than");
  private final PromisedLevels promised;
  private final Set<Level> decided;
  // The children recorded for every input, looked up once per tenant: labels() builds a label
  // list and probes the family's map each time, six times per record (the streaming profile).
  private final Map<String, TenantChildren> children = new ConcurrentHashMap<>();

  /** Metrics of a checker that promises no tenant anything. */
  public CheckerMetrics() {
    this(PromisedLevels.none());
  }

  /** Metrics of a checker whose tenants are promised {@code promised}, deciding every promised level. */
  public CheckerMetrics(final PromisedLevels promised) {
    this(promised, EnumSet.allOf(Level.class));
  }

  /**
   * Metrics of a checker whose tenants are promised {@code promised} and which decides {@code
   * decided} ({@code check.levels}): a promised level outside it is exported as unchecked.
   */
  public CheckerMetrics(final PromisedLevels promised, final Set<Level> decided) {
    this.promised = promised;
    this.decided = EnumSet.copyOf(decided);
    registry.register(new HeapCollector());
  }

  private final Gauge retained = gauge(MetricNames.RETAINED_TRANSACTIONS,
      "Transactions the tenant's engine holds (processed and retained, plus buffered).", "tenant");
  private final Counter pruned = counter(MetricNames.PRUNED_TRANSACTIONS_TOTAL,
      "Transactions pruned beyond the horizon (docs/segmentation.md).", "tenant");
  private final Histogram pruneSeconds = histogram(MetricNames.PRUNE_SECONDS,
      "Duration of one prune (cut) of a tenant's engine.", DURATION_BUCKETS, "tenant");

  /** A prune of the tenant's engine: how long it took, how many transactions it pruned, how many remain. */
  public void pruned(final String tenant, final double seconds, final long prunedTransactions, final long retainedNow) {
    pruneSeconds.labels(tenant).observe(seconds);
    if (prunedTransactions > 0) {
      pruned.labels(tenant).inc(prunedTransactions);
    }
    of(tenant).retained.set(retainedNow);
  }

  private final Gauge checkpointBytes = gauge(MetricNames.CHECKPOINT_BYTES,
      "Size of the tenant's latest engine checkpoint, bytes.", "tenant");
  private final Counter checkpoints = counter(MetricNames.CHECKPOINTS_TOTAL,
      "Engine checkpoints stored.", "tenant");
  private final Histogram checkpointSeconds = histogram(MetricNames.CHECKPOINT_SECONDS,
      "Duration of storing a checkpoint (and deleting what remains of the inputs the previous one covers).",
      DURATION_BUCKETS, "tenant");
  private final Counter inputsDeleted = counter(MetricNames.INPUTS_DELETED_TOTAL,
      "Inputs deleted from tenant-transactions because a checkpoint covers them.", "tenant");

  /** A checkpoint of the tenant's engine was stored. */
  public void checkpointed(final String tenant, final long bytes, final double seconds) {
    checkpointBytes.labels(tenant).set(bytes);
    checkpoints.labels(tenant).inc();
    checkpointSeconds.labels(tenant).observe(seconds);
  }

  /** Inputs a checkpoint covers were deleted from {@code tenant-transactions}. */
  public void inputsDeleted(final String tenant, final long deletedInputs) {
    inputsDeleted.labels(tenant).inc(deletedInputs);
  }

  /** Transactions the tenant's engine holds now. */
  private final Gauge retiredFalsePositive = gauge(MetricNames.RETIRED_FALSE_POSITIVE_RATIO,
      "Probability, at most, that the engine takes a read of a value never written for a stale read beyond "
          + "the horizon (false positives of its filters of retired versions).", "tenant");

  /** The false-positive probability of the tenant's filters of retired versions, after a cut. */
  public void retiredFalsePositiveRatio(final String tenant, final double ratio) {
    retiredFalsePositive.labels(tenant).set(ratio);
  }

  private final Gauge retiredRuns = gauge(MetricNames.RETIRED_RUNS,
      "Runs of values in the engine's exact record of retired versions (one per key and writing session for "
          + "IsoWatch's workloads); past their cap the versions that fit no run go to the filters.", "tenant");
  private final Gauge retiredRunBytes = gauge(MetricNames.RETIRED_RUN_BYTES,
      "Bytes of the engine's exact record of retired versions (16 per run).", "tenant");

  /** The size of the tenant's exact record of retired versions, after a cut. */
  public void retiredRuns(final String tenant, final long runs, final long bytes) {
    retiredRuns.labels(tenant).set(runs);
    retiredRunBytes.labels(tenant).set(bytes);
  }

  public void retained(final String tenant, final long retainedNow) {
    of(tenant).retained.set(retainedNow);
  }

  public void transactionChecked(final String tenant) {
    final TenantChildren c = of(tenant);
    c.transactions.inc();
    // Read first: after the tenant's first transaction this is a plain read, not a CAS.
    if (!c.promisedExported.get() && c.promisedExported.compareAndSet(false, true)) {
      for (final Level level : promised.of(tenant)) {
        promisedLevel.labels(tenant, level.name()).set(1);
        if (!decided.contains(level)) {
          promiseUnchecked.labels(tenant, level.name()).set(1);
        }
      }
    }
  }

  /** One arrival, {@code latenessMicros} behind the latest end seen before it (0 if not behind). */
  public void arrived(final String tenant, final long latenessMicros) {
    of(tenant).lateness.observe(latenessMicros / 1e6);
  }

  /** One published anomaly; {@code latencyMicros} null when its transactions lack end times. */
  public void anomalyPublished(final String tenant, final String type, final String name,
      final Set<Level> violates, final Long latencyMicros) {
    for (final Level level : violates) {
      anomalies.labels(tenant, type, name == null ? "" : name, level.name()).inc();
    }
    final Set<Level> promisedLevels = promised.of(tenant);
    if (violates.stream().anyMatch(promisedLevels::contains)) {
      promiseBroken.labels(tenant, type, name == null ? "" : name).inc();
    } else if (!violates.isEmpty()) {
      promiseAllowed.labels(tenant, type, name == null ? "" : name,
          Level.weakestFirst(violates).get(0).name()).inc();
    }
    if (latencyMicros != null) {
      latency.labels(tenant).observe(latencyMicros / 1e6);
    }
  }

  /** An anomaly published earlier was retracted: counted with the labels it was published with. */
  public void anomalyRetracted(final String tenant, final String type, final String name, final Set<Level> violates) {
    for (final Level level : violates) {
      retracted.labels(tenant, type, name == null ? "" : name, level.name()).inc();
    }
  }

  /**
   * The tenant's state sizes.
   *
   * @param pending reads waiting for their writer
   */
  public void tenantState(final String tenant, final long pending, final long buffered, final long storedInputs) {
    final TenantChildren c = of(tenant);
    c.pendingReads.set(pending);
    c.buffered.set(buffered);
    c.stateTransactions.set(storedInputs);
  }

  private TenantChildren of(final String tenant) {
    final TenantChildren c = children.get(tenant);
    return c != null ? c : children.computeIfAbsent(tenant, TenantChildren::new);
  }

  /**
   * A tenant's children of the families recorded for every input. A child stays its family's
   * until removed, and this class never removes one, so holding it is the same as looking it up.
   */
  private final class TenantChildren {
    private final Counter.Child transactions;
    private final Histogram.Child lateness;
    private final Gauge.Child pendingReads;
    private final Gauge.Child buffered;
    private final Gauge.Child stateTransactions;
    private final Gauge.Child retained;
    private final AtomicBoolean promisedExported = new AtomicBoolean();

    private TenantChildren(final String tenant) {
      this.transactions = CheckerMetrics.this.transactions.labels(tenant);
      this.lateness = CheckerMetrics.this.lateness.labels(tenant);
      this.pendingReads = CheckerMetrics.this.pendingReads.labels(tenant);
      this.buffered = bufferedTransactions.labels(tenant);
      this.stateTransactions = CheckerMetrics.this.stateTransactions.labels(tenant);
      this.retained = CheckerMetrics.this.retained.labels(tenant);
    }
  }

  private final Counter registryRetries = counter(MetricNames.REGISTRY_RETRIES_TOTAL,
      "Decoding attempts that failed on a transient schema registry error and were retried.");
  private final Gauge quarantined = gauge(MetricNames.TENANT_QUARANTINED,
      "1 for each tenant quarantined: a record of it could not be handled, its checking stopped.", "tenant");

  /** A decoding attempt failed on a transient registry error and is retried. */
  public void registryRetry() {
    registryRetries.inc();
  }

  /** The tenant is quarantined (by this instance's tasks). */
  public void tenantQuarantined(final String tenant) {
    quarantined.labels(tenant).set(1);
  }

  public void deadLettered(final Throwable error) {
    deadLetters.labels(error.getClass().getSimpleName()).inc();
  }

  public void inputFinding(final String tenant, final String kind) {
    findings.labels(tenant, kind).inc();
  }

  public void tenantRestored(final String tenant) {
    restores.labels(tenant).inc();
  }

  public void verdictPublished(final String tenant) {
    verdicts.labels(tenant).inc();
  }

  /** The tenant's current verdicts, as published: one-hot over SATISFIED, VIOLATED, UNKNOWN per level. */
  public void levelVerdicts(final String tenant, final Map<Level, Verdict> byLevel) {
    byLevel.forEach((level, current) -> {
      for (final Verdict v : Verdict.values()) {
        levelVerdict.labels(tenant, level.name(), v.name()).set(v == current ? 1 : 0);
      }
    });
  }

  /** The findings of the tenant's verdict just published, by kind. */
  public void verdictFindings(final String tenant, final Map<String, Long> byKind) {
    final java.util.Set<String> kinds = findingKinds.computeIfAbsent(tenant, t -> ConcurrentHashMap.newKeySet());
    for (final String kind : kinds) {
      if (!byKind.containsKey(kind)) {
        verdictFindings.labels(tenant, kind).set(0);
      }
    }
    byKind.forEach((kind, n) -> {
      verdictFindings.labels(tenant, kind).set(n);
      kinds.add(kind);
    });
  }

  /** Adds a collector (e.g. the Kafka Streams bridge) to what {@link #write} serves. */
  public void register(final Collector collector) {
    registry.register(collector);
  }

  /** Current value of a sample, or null when it does not exist; for tests and health checks. */
  public Double sample(final String name, final String[] labelNames, final String[] labelValues) {
    return registry.getSampleValue(name, labelNames, labelValues);
  }

  /**
   * Writes every family in the Prometheus text format 0.0.4, without the client library's {@code
   * _created} series (OpenMetrics only; in the 0.0.4 format they would be extra gauges per counter).
   */
  public void write(final Writer out) throws IOException {
    TextFormat.write004(out, registry.filteredMetricFamilySamples(name -> !name.endsWith("_created")));
  }

  /** The text format as a string. */
  public String scrape() {
    final StringWriter out = new StringWriter();
    try {
      write(out);
    } catch (final IOException e) {
      // A StringWriter does not fail.
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private Counter counter(final String name, final String help, final String... labels) {
    return Counter.build(name, help).labelNames(labels).register(registry);
  }

  private Gauge gauge(final String name, final String help, final String... labels) {
    return Gauge.build(name, help).labelNames(labels).register(registry);
  }

  private Histogram histogram(final String name, final String help, final double[] buckets, final String... labels) {
    return Histogram.build(name, help).labelNames(labels).buckets(buckets).register(registry);
  }
}
