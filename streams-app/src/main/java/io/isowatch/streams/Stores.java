package io.isowatch.streams;

import io.isowatch.streams.processor.TenantKey;
import io.isowatch.streams.processor.TenantProgress;
import java.util.List;
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
   * Every transaction event accepted for a tenant, in arrival order: key {@code (tenant, arrival
   * index)}, value the {@code TransactionEvent} as plain Avro binary. Replaying it into a new engine
   * rebuilds the tenant's engine after a restart or a rebalance.
   */
  public static final String TENANT_TRANSACTIONS = "tenant-transactions";

  /** Per tenant: arrivals stored, malformed events, anomalies published, latest end time seen. */
  public static final String TENANT_PROGRESS = "tenant-progress";

  /**
   * The anomaly ids already published per tenant (key {@code (tenant, anomalyId)}, value the
   * detection time in µs), so that an anomaly is never published twice, whatever an engine rebuilt
   * after a restore reports again.
   */
  public static final String PUBLISHED_ANOMALIES = "published-anomalies";

  /** All store names. */
  public static final List<String> ALL = List.of(TENANT_TRANSACTIONS, TENANT_PROGRESS, PUBLISHED_ANOMALIES);

  private Stores() {}

  public static StoreBuilder<KeyValueStore<TenantKey, byte[]>> tenantTransactions() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
        org.apache.kafka.streams.state.Stores.persistentKeyValueStore(TENANT_TRANSACTIONS),
        TenantKey.serde(), Serdes.ByteArray());
  }

  public static StoreBuilder<KeyValueStore<String, TenantProgress>> tenantProgress() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
        org.apache.kafka.streams.state.Stores.persistentKeyValueStore(TENANT_PROGRESS),
        Serdes.String(), TenantProgress.serde());
  }

  public static StoreBuilder<KeyValueStore<TenantKey, Long>> publishedAnomalies() {
    return org.apache.kafka.streams.state.Stores.keyValueStoreBuilder(
        org.apache.kafka.streams.state.Stores.persistentKeyValueStore(PUBLISHED_ANOMALIES),
        TenantKey.serde(), Serdes.Long());
  }
}
