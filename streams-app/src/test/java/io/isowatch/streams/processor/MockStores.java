package io.isowatch.streams.processor;

import static io.isowatch.core.testkit.HistoryDsl.history;

import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.Stores;
import io.isowatch.streams.testkit.CheckerDriver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * The check processor's real (RocksDB) stores on a {@link MockProcessorContext} of its own, for
 * processor tests: unlogged, and uncached because MockProcessorContext has no record cache. {@link #close()}
 * closes them all, and the processor {@linkplain #start started} on them first.
 */
final class MockStores implements AutoCloseable {
  private final MockProcessorContext<String, SpecificRecord> context;
  private final List<KeyValueStore<?, ?>> stores = new ArrayList<>();
  private CheckTransactionsProcessor processor;

  private MockStores(final MockProcessorContext<String, SpecificRecord> context) {
    this.context = context;
  }

  /**
   * A context for {@link CheckTransactionsProcessor} (task 0_0, wall clock at {@code nowMs}, the
   * given extra app configs) with the processor's stores registered.
   */
  static MockStores forCheckProcessor(final Path stateDir, final long nowMs, final Map<String, String> extraConfig) {
    final Properties config = new Properties();
    config.put(StreamsConfig.APPLICATION_ID_CONFIG, "unit");
    config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unit:9092");
    config.putAll(extraConfig);
    final MockProcessorContext<String, SpecificRecord> context =
        new MockProcessorContext<>(config, new TaskId(0, 0), stateDir.toFile());
    context.setCurrentSystemTimeMs(nowMs);
    final MockStores registered = new MockStores(context);
    registered.add(Stores.tenantTransactions());
    registered.add(Stores.tenantProgress());
    registered.add(Stores.publishedAnomalies());
    registered.add(Stores.tenantCheckpoints());
    registered.add(Stores.tenantQuarantine());
    return registered;
  }

  MockProcessorContext<String, SpecificRecord> context() {
    return context;
  }

  /** Builds, initialises and registers a store with the context. */
  <K, V> KeyValueStore<K, V> add(final StoreBuilder<KeyValueStore<K, V>> builder) {
    final KeyValueStore<K, V> store = builder.withLoggingDisabled().withCachingDisabled().build();
    store.init(context.getStateStoreContext(), store);
    context.addStateStore(store);
    stores.add(store);
    return store;
  }

  /** Gives {@code p} the events of a test-language history as records of {@code tenant} at {@code timestamp}. */
  static void feed(final CheckTransactionsProcessor p, final String tenant, final String dsl, final long timestamp) {
    for (final TransactionEvent e : CheckerDriver.events(tenant, history(dsl))) {
      p.process(new Record<>(tenant, e, timestamp));
    }
  }

  /** Initialises {@code p} on this context; {@link #close()} closes it, the latest one started, before the stores. */
  CheckTransactionsProcessor start(final CheckTransactionsProcessor p) {
    p.init(context);
    processor = p;
    return p;
  }

  @Override
  public void close() {
    if (processor != null) {
      processor.close();
    }
    stores.forEach(KeyValueStore::close);
  }
}
