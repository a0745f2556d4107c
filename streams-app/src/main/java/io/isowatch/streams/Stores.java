package io.isowatch.streams;

import io.isowatch.streams.processor.TenantKey;
import io.isowatch.streams.processor.TenantProgress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Every state store of the checker, named in one place (kebab-case nouns). A store's name is also
 * the name of its changelog topic ({@code <application.id>-<store>-changelog}): a rename is a
 * migration. All are persistent (RocksDB) and changelogged, so a lost state directory is restored
 * from Kafka; all are keyed by tenant first, so one tenant's state lives in one task.
 */
public final class Stores {
  /**
   * Every transaction event accepted for a tenant, in arrival order: key {@code (tenant, index of
   * the entry's first input)}, value a batch of up to 32 consecutive inputs (each the {@code
   * TransactionEvent} as plain Avro binary; entries of one input, as versions before batches wrote
   * them, are read too). Replaying it into a new engine rebuilds the tenant's engine after a
   * restart or a rebalance.
   */
  public static final String TENANT_TRANSACTIONS = "tenant-transactions";

  /** Per tenant: arrivals stored, malformed events, anomalies published, latest end time seen. */
  public static final String TENANT_PROGRESS = "tenant-progress";

  /**
   * The anomaly ids already published per tenant (key {@code (tenant, uniqueId)}, value the number
   * of the tenant's inputs stored when its engine reported it; earlier versions stored the
   * detection time in µs), so that an anomaly is never published twice, whatever an engine rebuilt
   * after a restore reports again. Entries written before uniqueIds existed are keyed by anomalyId
   * and are moved to the uniqueId of the first anomaly that meets them. Ids a checkpoint covers are
   * deleted (the processor's {@code PublishedAnomalies}), so it stays bounded.
   */
  public static final String PUBLISHED_ANOMALIES = "published-anomalies";

  /**
   * Per tenant, the latest checkpoint of its engine (docs/segmentation.md, "Checkpoints"): key
   * {@code (tenant, generation and chunk)} → a chunk of the checkpoint's bytes, and {@code (tenant,
   * "checkpoint-manifest")} → which generation is current and the first input it does not cover.
   * Written by the prune punctuator when a horizon is set (the default), whether it pruned or not;
   * the inputs it covers are then deleted from {@link #TENANT_TRANSACTIONS}, so both stay bounded.
   */
  public static final String TENANT_CHECKPOINTS = "tenant-checkpoints";

  /**
   * Tenants quarantined (tenant → the reason, UTF-8): a record of theirs could not be handled
   * (docs/streaming.md, "Failure handling"). Their records are skipped, so that no restart fails on
   * the same record again.
   */
  public static final String TENANT_QUARANTINE = "tenant-quarantine";

  /** All store names. */
  public static final List<String> ALL =
      List.of(TENANT_TRANSACTIONS, TENANT_PROGRESS, PUBLISHED_ANOMALIES, TENANT_CHECKPOINTS, TENANT_QUARANTINE);

  /**
   * Changelog settings of the stores whose keys are deleted as checkpoints are made. The
   * changelogs are compacted (Kafka Streams' default), but compaction never touches a topic's
   * active segment (1 GiB or 7 days by default) and keeps tombstones for {@code
   * delete.retention.ms} (1 day by default): at 10K inputs/s that would be gigabytes of deleted
   * inputs and tombstones. Segments of 64 MiB or 10 minutes and tombstones kept 10 minutes bound
   * what deleted inputs leave in Kafka to about ten minutes of input. A restore that reads past a
   * tombstone's removal keeps that one deleted input in its store: harmless (a rebuild reads only
   * from the checkpoint's first input on, and no manifest names an old chunk) and rare. Applied
   * when Kafka Streams creates the changelog; an existing changelog keeps its settings
   * (kafka-configs.sh changes them).
   */
  public static final Map<String, String> SHRINKING_CHANGELOG = Map.of(
      TopicConfig.SEGMENT_BYTES_CONFIG, Integer.toString(64 * 1024 * 1024),
      TopicConfig.SEGMENT_MS_CONFIG, Long.toString(Duration.ofMinutes(10).toMillis()),
      TopicConfig.DELETE_RETENTION_MS_CONFIG, Long.toString(Duration.ofMinutes(10).toMillis()));

  private Stores() {}

  /**
   * Cached, like {@link #tenantProgress()}: the processor rewrites a tenant's open batch of inputs
   * at every input, and the cache turns those writes into one RocksDB write and one changelog record
   * per batch and commit (docs/streaming-design.md, "Streaming at the broker's pace").
   */
  public static StoreBuilder<KeyValueStore<TenantKey, byte[]>> tenantTransactions() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
        org.apache.kafka.streams.state.Stores.persistentKeyValueStore(TENANT_TRANSACTIONS),
        TenantKey.serde(), Serdes.ByteArray()).withLoggingEnabled(SHRINKING_CHANGELOG).withCachingEnabled();
  }

  public static StoreBuilder<KeyValueStore<TenantKey, byte[]>> tenantCheckpoints() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
        org.apache.kafka.streams.state.Stores.persistentKeyValueStore(TENANT_CHECKPOINTS),
        TenantKey.serde(), Serdes.ByteArray()).withLoggingEnabled(SHRINKING_CHANGELOG);
  }

  /**
   * Cached ({@code statestore.cache.max.bytes}): the processor rewrites a tenant's progress for
   * every input, and the cache turns those writes into one RocksDB write and one changelog record
   * per tenant and commit. The cache is flushed before every commit, so under exactly-once the
   * changelog still commits together with the inputs and outputs it describes.
   */
  public static StoreBuilder<KeyValueStore<String, TenantProgress>> tenantProgress() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
        org.apache.kafka.streams.state.Stores.persistentKeyValueStore(TENANT_PROGRESS),
        Serdes.String(), TenantProgress.serde()).withCachingEnabled();
  }

  public static StoreBuilder<KeyValueStore<String, String>> tenantQuarantine() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
        org.apache.kafka.streams.state.Stores.persistentKeyValueStore(TENANT_QUARANTINE),
        Serdes.String(), Serdes.String());
  }

  public static StoreBuilder<KeyValueStore<TenantKey, Long>> publishedAnomalies() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
        org.apache.kafka.streams.state.Stores.persistentKeyValueStore(PUBLISHED_ANOMALIES),
        TenantKey.serde(), Serdes.Long()).withLoggingEnabled(SHRINKING_CHANGELOG);
  }
}
