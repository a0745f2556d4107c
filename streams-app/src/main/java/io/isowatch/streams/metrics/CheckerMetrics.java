package io.isowatch.streams.metrics;

import io.isowatch.core.check.Level;
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
import java.util.Set;

/**
 * The checker's own metrics ({@link MetricNames}), in a Prometheus registry of its own (not the
 * process-wide default, so tests and several apps in one JVM stay apart). Thread-safe: every
 * stream thread's processors record into one instance.
 */
public final class CheckerMetrics {
  /** Latency buckets in seconds: detection is meant to take seconds, grace included. */
  private static final double[] LATENCY_BUCKETS = {0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300};

  private final CollectorRegistry registry = new CollectorRegistry(true);
  private final Counter transactions = Counter.build(MetricNames.TRANSACTIONS_CHECKED_TOTAL,
      "Transactions taken into a tenant's engine.").labelNames("tenant").register(registry);
  private final Counter anomalies = Counter.build(MetricNames.ANOMALIES_TOTAL,
      "Anomalies published, once per violated level.").labelNames("tenant", "type", "name", "level")
      .register(registry);
  private final Histogram latency = Histogram.build(MetricNames.DETECTION_LATENCY_SECONDS,
      "From the end of an anomaly's latest transaction to its publication.").labelNames("tenant")
      .buckets(LATENCY_BUCKETS).register(registry);
  private final Histogram lateness = Histogram.build(MetricNames.ARRIVAL_LATENESS_SECONDS,
      "How far behind the tenant's latest end time seen a transaction arrives.").labelNames("tenant")
      .buckets(LATENCY_BUCKETS).register(registry);
  private final Gauge pendingReads = Gauge.build(MetricNames.PENDING_READS,
      "Reads still waiting for their writer.").labelNames("tenant").register(registry);
  private final Gauge stateTransactions = Gauge.build(MetricNames.STATE_TRANSACTIONS,
      "Transaction events held in the tenant-transactions store.").labelNames("tenant").register(registry);
  private final Gauge bufferedTransactions = Gauge.build(MetricNames.BUFFERED_TRANSACTIONS,
      "Transactions waiting in the reorder buffer for the watermark.").labelNames("tenant").register(registry);
  private final Counter deadLetters = Counter.build(MetricNames.DLQ_RECORDS_TOTAL,
      "Records sent to the dead-letter topic.").labelNames("error").register(registry);
  private final Counter findings = Counter.build(MetricNames.INPUT_FINDINGS_TOTAL,
      "Impossible but well-formed input events.").labelNames("tenant", "kind").register(registry);
  private final Counter restores = Counter.build(MetricNames.TENANT_RESTORES_TOTAL,
      "Tenant engines rebuilt from the tenant-transactions store.").labelNames("tenant").register(registry);
  private final Counter verdicts = Counter.build(MetricNames.VERDICTS_TOTAL,
      "Verdicts published.").labelNames("tenant").register(registry);

  public void transactionChecked(final String tenant) {
    transactions.labels(tenant).inc();
  }

  /** One arrival, {@code latenessMicros} behind the latest end seen before it (0 if not behind). */
  public void arrived(final String tenant, final long latenessMicros) {
    lateness.labels(tenant).observe(latenessMicros / 1e6);
  }

  /** One published anomaly; {@code latencyMicros} null when its transactions lack end times. */
  public void anomalyPublished(final String tenant, final String type, final String name,
      final Set<Level> violates, final Long latencyMicros) {
    for (final Level level : violates) {
      anomalies.labels(tenant, type, name == null ? "" : name, level.name()).inc();
    }
    if (latencyMicros != null) {
      latency.labels(tenant).observe(latencyMicros / 1e6);
    }
  }

  /**
   * The tenant's state sizes.
   *
   * @param pending reads waiting for their writer
   */
  public void tenantState(final String tenant, final long pending, final long buffered, final long storedInputs) {
    pendingReads.labels(tenant).set(pending);
    bufferedTransactions.labels(tenant).set(buffered);
    stateTransactions.labels(tenant).set(storedInputs);
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
}
