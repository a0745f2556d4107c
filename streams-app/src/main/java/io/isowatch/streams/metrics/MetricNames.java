package io.isowatch.streams.metrics;

import java.util.List;

/**
 * Every metric family {@code /metrics} serves, in one list, so that alerting and recording rules
 * can be validated against it (a rule naming a family not listed here is a typo). Prometheus names
 * are snake_case; counters end in {@code _total}, the histogram adds {@code _bucket}, {@code _sum}
 * and {@code _count}. Kafka Streams' own metrics are bridged under {@link #KAFKA_STREAMS_PREFIX}.
 */
public final class MetricNames {
  /** Transactions taken into a tenant's engine (duplicates included), label {@code tenant}. */
  public static final String TRANSACTIONS_CHECKED_TOTAL = "isowatch_transactions_checked_total";

  /**
   * Anomalies published, labels {@code tenant}, {@code type}, {@code name} (empty when unnamed) and
   * {@code level}: an anomaly violating several levels is counted once per level.
   */
  public static final String ANOMALIES_TOTAL = "isowatch_anomalies_total";

  /**
   * Seconds from the end of an anomaly's latest transaction to its publication, label {@code
   * tenant}; anomalies whose transactions lack end times are not observed.
   */
  public static final String DETECTION_LATENCY_SECONDS = "isowatch_detection_latency_seconds";

  /**
   * How far behind the tenant's latest end time seen each transaction arrives (0 when it is the
   * latest), label {@code tenant}: size {@code check.grace.ms} above its high quantiles.
   */
  public static final String ARRIVAL_LATENESS_SECONDS = "isowatch_arrival_lateness_seconds";

  /**
   * Reads still waiting for their writer, per {@code tenant}; served only for engines that tell
   * (the online engine does not expose the count yet).
   */
  public static final String PENDING_READS = "isowatch_pending_reads";

  /** Transactions waiting in the tenant's reorder buffer for the watermark, per {@code tenant}. */
  public static final String BUFFERED_TRANSACTIONS = "isowatch_buffered_transactions";

  /** Engine inputs (transaction events, flushes) held in the tenant-transactions store, per {@code tenant}. */
  public static final String STATE_TRANSACTIONS = "isowatch_state_transactions";

  /** Records sent to the dead-letter topic, label {@code error} (simple class name of the cause). */
  public static final String DLQ_RECORDS_TOTAL = "isowatch_dlq_records_total";

  /** Impossible but well-formed input events, labels {@code tenant} and {@code kind}. */
  public static final String INPUT_FINDINGS_TOTAL = "isowatch_input_findings_total";

  /** Tenant engines rebuilt from the tenant-transactions store, per {@code tenant}. */
  public static final String TENANT_RESTORES_TOTAL = "isowatch_tenant_restores_total";

  /** Verdicts published, per {@code tenant}. */
  public static final String VERDICTS_TOTAL = "isowatch_verdicts_total";

  /** 1 while the checker is RUNNING or REBALANCING, 0 otherwise. */
  public static final String UP = "isowatch_up";

  /** Prefix of the families bridged from {@code KafkaStreams#metrics()}: group and name, snake_case. */
  public static final String KAFKA_STREAMS_PREFIX = "kafka_streams_";

  /** IsoWatch's own families. */
  public static final List<String> ALL = List.of(
      TRANSACTIONS_CHECKED_TOTAL, ANOMALIES_TOTAL, DETECTION_LATENCY_SECONDS, ARRIVAL_LATENESS_SECONDS,
      PENDING_READS,
      BUFFERED_TRANSACTIONS, STATE_TRANSACTIONS, DLQ_RECORDS_TOTAL, INPUT_FINDINGS_TOTAL, TENANT_RESTORES_TOTAL,
      VERDICTS_TOTAL, UP);

  private MetricNames() {}
}
