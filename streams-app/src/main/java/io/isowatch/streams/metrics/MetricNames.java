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
   * Anomalies retracted (docs/streaming.md, "No false positive from time"), with the labels of
   * {@link #ANOMALIES_TOTAL}: published earlier, then invalidated by a transaction that arrived
   * beyond every lateness bound. Published minus retracted is what still stands.
   */
  public static final String ANOMALIES_RETRACTED_TOTAL = "isowatch_anomalies_retracted_total";

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

  /** Transactions the tenant's engine holds now (processed and retained, plus buffered), per {@code tenant}. */
  public static final String RETAINED_TRANSACTIONS = "isowatch_retained_transactions";

  /**
   * The probability, at most, that the tenant's engine now takes a read of a value never written
   * (a ThinAirRead) for a stale read beyond the horizon, from the bits its filters of retired
   * versions have set (docs/segmentation.md, "Retired versions"); at most 0.001 while the filters
   * are under their cap, per {@code tenant}.
   */
  public static final String RETIRED_FALSE_POSITIVE_RATIO = "isowatch_retired_false_positive_ratio";

  /**
   * Runs the tenant's engine holds in its exact record of retired versions (docs/segmentation.md,
   * "Retired versions"): about one per key and writing session for IsoWatch's own workloads, flat
   * over time; past {@code check.retired.runs.max.bytes} the versions that fit no run go to the
   * filters, per {@code tenant}.
   */
  public static final String RETIRED_RUNS = "isowatch_retired_runs";

  /** Bytes those runs take (16 per run), per {@code tenant}. */
  public static final String RETIRED_RUN_BYTES = "isowatch_retired_run_bytes";

  /** Transactions pruned beyond the horizon by the tenant's engine (docs/segmentation.md), per {@code tenant}. */
  public static final String PRUNED_TRANSACTIONS_TOTAL = "isowatch_pruned_transactions_total";

  /** Duration of one prune (a cut) of a tenant's engine, per {@code tenant}. */
  public static final String PRUNE_SECONDS = "isowatch_prune_seconds";

  /** Size of the tenant's latest engine checkpoint in tenant-checkpoints, bytes, per {@code tenant}. */
  public static final String CHECKPOINT_BYTES = "isowatch_checkpoint_bytes";

  /** Engine checkpoints stored (each deletes the inputs it covers), per {@code tenant}. */
  public static final String CHECKPOINTS_TOTAL = "isowatch_checkpoints_total";

  /** Duration of storing one checkpoint and deleting the inputs it covers, per {@code tenant}. */
  public static final String CHECKPOINT_SECONDS = "isowatch_checkpoint_seconds";

  /** Inputs deleted from tenant-transactions because a checkpoint covers them, per {@code tenant}. */
  public static final String INPUTS_DELETED_TOTAL = "isowatch_inputs_deleted_total";

  /** Records sent to the dead-letter topic, label {@code error} (simple class name of the cause). */
  public static final String DLQ_RECORDS_TOTAL = "isowatch_dlq_records_total";

  /**
   * Decoding attempts that failed on a transient schema registry error (unreachable, timeout, 5xx)
   * and were retried instead of dead-lettered.
   */
  public static final String REGISTRY_RETRIES_TOTAL = "isowatch_registry_retries_total";

  /**
   * 1 for each tenant this instance's tasks have quarantined (a record of it could not be handled:
   * its checking stopped, the other tenants go on), label {@code tenant}; see docs/runbook.md.
   */
  public static final String TENANT_QUARANTINED = "isowatch_tenant_quarantined";

  /** Impossible but well-formed input events, labels {@code tenant} and {@code kind}. */
  public static final String INPUT_FINDINGS_TOTAL = "isowatch_input_findings_total";

  /** Tenant engines rebuilt from the tenant-transactions store, per {@code tenant}. */
  public static final String TENANT_RESTORES_TOTAL = "isowatch_tenant_restores_total";

  /** Verdicts published, per {@code tenant}. */
  public static final String VERDICTS_TOTAL = "isowatch_verdicts_total";

  /**
   * The tenant's current verdict per level, labels {@code tenant}, {@code level} and {@code
   * verdict} (SATISFIED, VIOLATED, UNKNOWN): 1 for the current verdict, 0 for the other two; set
   * when a verdict is published.
   */
  public static final String LEVEL_VERDICT = "isowatch_level_verdict";

  /**
   * Findings by kind in the tenant's latest verdict, labels {@code tenant} and {@code kind}: all of
   * them, also those only a whole-history view gives (SEQ_GAP, UNKNOWN_IGNORED), so it can fall
   * (a gap closes when the missing transaction arrives); set when a verdict is published.
   */
  public static final String FINDINGS = "isowatch_findings";

  /**
   * 1 for each level a tenant is promised (config {@code tenant.promised.levels}), labels {@code
   * tenant} and {@code level}; exported from the tenant's first transaction on.
   */
  public static final String PROMISED_LEVEL = "isowatch_promised_level";

  /**
   * 1 for each level a tenant is promised that the checker does not decide ({@code check.levels}),
   * labels {@code tenant} and {@code level}: that part of the promise is not watched (yet).
   */
  public static final String PROMISE_UNCHECKED_LEVEL = "isowatch_promise_unchecked_level";

  /**
   * Anomalies published that break the tenant's promise (violate a promised level), labels {@code
   * tenant}, {@code type}, {@code name}; once per anomaly.
   */
  public static final String PROMISE_BROKEN_ANOMALIES_TOTAL = "isowatch_promise_broken_anomalies_total";

  /**
   * Anomalies published that the tenant's promise allows (they violate only levels stronger than, or
   * beside, what it was promised), labels {@code tenant}, {@code type}, {@code name} and {@code
   * weaker_than}: the weakest level the anomaly violates ("weaker than SI but allowed"); once per
   * anomaly. A tenant promised nothing counts every anomaly here.
   */
  public static final String PROMISE_ALLOWED_ANOMALIES_TOTAL = "isowatch_promise_allowed_anomalies_total";

  /** Heap bytes in use, garbage included (tenant engines live on the heap). */
  public static final String HEAP_USED_BYTES = "isowatch_heap_used_bytes";

  /** The heap's maximum size in bytes ({@code -Xmx}). */
  public static final String HEAP_MAX_BYTES = "isowatch_heap_max_bytes";

  /** 1 while the checker is RUNNING or REBALANCING, 0 otherwise. */
  public static final String UP = "isowatch_up";

  /** Prefix of the families bridged from {@code KafkaStreams#metrics()}: group and name, snake_case. */
  public static final String KAFKA_STREAMS_PREFIX = "kafka_streams_";

  /** IsoWatch's own families. */
  public static final List<String> ALL = List.of(
      TRANSACTIONS_CHECKED_TOTAL, ANOMALIES_TOTAL, ANOMALIES_RETRACTED_TOTAL, DETECTION_LATENCY_SECONDS, ARRIVAL_LATENESS_SECONDS,
      PENDING_READS,
      BUFFERED_TRANSACTIONS, STATE_TRANSACTIONS, DLQ_RECORDS_TOTAL, INPUT_FINDINGS_TOTAL, TENANT_RESTORES_TOTAL,
      VERDICTS_TOTAL, LEVEL_VERDICT, FINDINGS, PROMISED_LEVEL, PROMISE_UNCHECKED_LEVEL, PROMISE_BROKEN_ANOMALIES_TOTAL,
      PROMISE_ALLOWED_ANOMALIES_TOTAL, HEAP_USED_BYTES, HEAP_MAX_BYTES, UP,
      RETAINED_TRANSACTIONS, PRUNED_TRANSACTIONS_TOTAL, PRUNE_SECONDS, CHECKPOINT_BYTES, CHECKPOINTS_TOTAL,
      CHECKPOINT_SECONDS, INPUTS_DELETED_TOTAL,
      RETIRED_FALSE_POSITIVE_RATIO, RETIRED_RUNS, RETIRED_RUN_BYTES, REGISTRY_RETRIES_TOTAL, TENANT_QUARANTINED);

  /**
   * The families bridged from Kafka Streams that ops/ (alert rules, dashboard) relies on; {@code
   * OpsMetricsIT} checks that a running checker serves each of them.
   */
  public static final List<String> KAFKA_STREAMS_USED = List.of(
      "kafka_streams_consumer_fetch_manager_metrics_records_lag",
      "kafka_streams_consumer_fetch_manager_metrics_records_lag_max",
      "kafka_streams_stream_thread_metrics_process_rate",
      "kafka_streams_stream_thread_metrics_commit_latency_avg");

  private MetricNames() {}
}
