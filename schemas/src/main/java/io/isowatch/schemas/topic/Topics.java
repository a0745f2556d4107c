package io.isowatch.schemas.topic;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The one place IsoWatch's topics are defined: names, partitions, replication, cleanup and
 * retention, key and value types. Scripts read it through {@link TopicsCommand}, the topology and
 * the tests through {@link #defaults()}; docs/infrastructure.md documents the same table.
 *
 * <p>All tenant-keyed topics have the same partition count, so a tenant lands in the same
 * partition number on each of them and a per-tenant join needs no repartitioning.
 *
 * @param txnEvents input: finished transactions, keyed by tenant
 * @param anomalies output: proven anomalies, keyed by tenant
 * @param verdicts output: latest verdict per tenant (compacted), keyed by tenant
 * @param deadLetters records that could not be processed, keyed by their original key bytes
 */
public record Topics(
    TopicSpec<String, TransactionEvent> txnEvents,
    TopicSpec<String, Anomaly> anomalies,
    TopicSpec<String, TenantVerdict> verdicts,
    TopicSpec<byte[], DeadLetter> deadLetters) {

  /** Partitions of the tenant-keyed topics: the upper bound on parallel checker tasks. */
  public static final int TENANT_PARTITIONS = 6;

  private static final String TENANT_KEY = "tenant id (UTF-8 string)";

  /** IsoWatch's topics with the documented settings and the broker's default replication. */
  public static Topics defaults() {
    final short replication = TopicSpec.BROKER_DEFAULT_REPLICATION;
    return new Topics(
        new TopicSpec<>(
            "isowatch.txn-events.v1",
            TENANT_PARTITIONS,
            replication,
            deleteAfter(Duration.ofDays(7)),
            String.class,
            TENANT_KEY,
            TransactionEvent.class,
            "Finished transactions reported by clients (input). Keyed by tenant so that one"
                + " tenant's graph is built in one task and each session stays ordered."),
        new TopicSpec<>(
            "isowatch.anomalies.v1",
            TENANT_PARTITIONS,
            replication,
            deleteAfter(Duration.ofDays(30)),
            String.class,
            TENANT_KEY,
            Anomaly.class,
            "Proven anomalies, each self-contained; duplicates share a uniqueId."),
        new TopicSpec<>(
            "isowatch.verdicts.v1",
            TENANT_PARTITIONS,
            replication,
            Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT),
            String.class,
            TENANT_KEY,
            TenantVerdict.class,
            "Current verdict per tenant; compacted, so the latest record per key is the state."),
        new TopicSpec<>(
            "isowatch.dlq.v1",
            1,
            replication,
            deleteAfter(Duration.ofDays(14)),
            byte[].class,
            "original record key (raw bytes, may be null)",
            DeadLetter.class,
            "Records that could not be processed, with their source coordinates and raw bytes."));
  }

  /** Every topic, input first. */
  public List<TopicSpec<?, ?>> all() {
    return List.of(txnEvents, anomalies, verdicts, deadLetters);
  }

  /** The same topics under other names (configuration: {@code topics.*.name}). */
  public Topics withNames(final String txnEventsName, final String anomaliesName, final String verdictsName,
      final String deadLettersName) {
    return new Topics(
        txnEvents.withName(txnEventsName),
        anomalies.withName(anomaliesName),
        verdicts.withName(verdictsName),
        deadLetters.withName(deadLettersName));
  }

  /** The same topics with an explicit replication factor. */
  public Topics withReplication(final short replication) {
    return new Topics(
        txnEvents.withReplication(replication),
        anomalies.withReplication(replication),
        verdicts.withReplication(replication),
        deadLetters.withReplication(replication));
  }

  /**
   * The same topics with {@code partitions} partitions for each tenant-keyed one (the dead letters
   * keep theirs): for a private broker that carries a single tenant ({@code isowatch replay
   * --file}), where more partitions would only add empty tasks, each with its own stores and
   * changelogs to create at start-up.
   */
  public Topics withTenantPartitions(final int partitions) {
    return new Topics(
        txnEvents.withPartitions(partitions),
        anomalies.withPartitions(partitions),
        verdicts.withPartitions(partitions),
        deadLetters);
  }

  private static Map<String, String> deleteAfter(final Duration retention) {
    return Map.of(
        TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_DELETE,
        TopicConfig.RETENTION_MS_CONFIG, Long.toString(retention.toMillis()));
  }
}
