package io.isowatch.streams.processor;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.Stores;
import io.isowatch.streams.engine.OnlineTenantEngine;
import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.testkit.CheckerDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13, item 2: {@code tenant-transactions} holds a tenant's inputs in batches of up to {@link
 * InputBatch#MAX_INPUTS} per entry ({@link InputBatch}), not one entry (a RocksDB put and a
 * changelog record) per input; a rebuild reads batches, entries of one input as earlier versions
 * stored them, and both mixed, in input order.
 */
class BatchedInputsTest {
  private static final long T0 = 1_000_000L;

  @TempDir Path stateDir;

  private MockStores stores;
  private MockProcessorContext<String, SpecificRecord> context;
  private CheckTransactionsProcessor processor;

  @BeforeEach
  void setUp() {
    stores = MockStores.forCheckProcessor(stateDir, T0, Map.of());
    context = stores.context();
    start();
  }

  @AfterEach
  void tearDown() {
    processor.close();
    stores.close();
  }

  @Test
  void shouldStoreAtMostABatchOfInputsPerEntryAndRebuildFromThemAfterARestartMidBatch() {
    // Given: A's write of x=0 and 39 more inputs (40: one full entry, one open with 8)
    process("A a r(x,0) w(x,1) @5..8\n" + txns(1, 39));

    // Then: two entries, every input in them, in order
    assertEquals(List.of(0L, (long) InputBatch.MAX_INPUTS), entryKeys());
    assertEquals(LongStream.range(0, 40).boxed().toList(), new ArrayList<>(inputs().keySet()));

    // When: the task restarts with its batch open, and B overwrites x=0 too
    restart();
    process("B b r(x,0) w(x,2) @900..905\nZ z r(q,0) @990..995");

    // Then: the rebuild read both entries (A is in the first): the lost update is found; the new
    // inputs start an entry of their own after the one that was open
    assertEquals(List.of("LostUpdate"), anomalies());
    assertEquals(List.of(0L, (long) InputBatch.MAX_INPUTS, 40L), entryKeys());
    assertEquals(LongStream.range(0, 42).boxed().toList(), new ArrayList<>(inputs().keySet()));
  }

  @Test
  void shouldRebuildFromInputsStoredOnePerEntryAsEarlierVersionsDidMixedWithBatches() {
    // Given: A and four more inputs stored one per entry, as versions before batches wrote them
    process("A a r(x,0) w(x,1) @5..8\n" + txns(1, 4));
    final KeyValueStore<TenantKey, byte[]> store = context.getStateStore(Stores.TENANT_TRANSACTIONS);
    final List<KeyValue<TenantKey, byte[]>> single = new ArrayList<>();
    inputs().forEach((index, bytes) -> single.add(KeyValue.pair(TenantKey.ofIndex("acme", index), bytes)));
    store.delete(TenantKey.ofIndex("acme", 0));
    store.putAll(single);
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), entryKeys());

    // When: after a restart, more inputs come (a batch), then another restart and B
    restart();
    process(txns(5, 3));
    restart();
    process("B b r(x,0) w(x,2) @900..905\nZ z r(q,0) @990..995");

    // Then: both rebuilds read the single entries and the batch in order: the lost update is found
    assertEquals(List.of("LostUpdate"), anomalies());
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 8L), entryKeys());
    assertEquals(LongStream.range(0, 10).boxed().toList(), new ArrayList<>(inputs().keySet()));
  }

  @Test
  void shouldStartANewEntryWhenTheNextInputWouldPassTheBatchBytes() {
    // Given: inputs of 300 writes each (about 3 KiB of Avro each)
    final StringBuilder dsl = new StringBuilder();
    for (int i = 0; i < InputBatch.MAX_INPUTS; i++) {
      dsl.append("L").append(i).append(" l").append(i);
      for (int k = 0; k < 300; k++) {
        dsl.append(" w(key").append(i).append('_').append(k).append(",1)");
      }
      dsl.append(" @").append(10 + 10 * i).append("..").append(15 + 10 * i).append('\n');
    }

    // When
    process(dsl.toString());

    // Then: no entry is over the byte bound, and every input is stored once
    final KeyValueStore<TenantKey, byte[]> store = context.getStateStore(Stores.TENANT_TRANSACTIONS);
    try (KeyValueIterator<TenantKey, byte[]> it = store.prefixScan("acme", TenantKey.prefix())) {
      it.forEachRemaining(kv -> assertEquals(true, kv.value.length <= InputBatch.MAX_BYTES, "entry bytes"));
    }
    assertEquals(true, entryKeys().size() > 1, "one entry would pass the byte bound");
    assertEquals(LongStream.range(0, InputBatch.MAX_INPUTS).boxed().toList(), new ArrayList<>(inputs().keySet()));
  }

  @Test
  void shouldReplayEachInputOnceFromTheLastEntryThatHoldsItWhenEntriesOverlap() {
    // Given: A, then 4 inputs in one entry; then an entry from index 2 on whose input 2 is B (a
    // lost update with A), as an input stored again from a progress that lagged its store write
    // (a record that failed after storing, or a crash without exactly-once)
    process("A a r(x,0) w(x,1) @5..8\n" + txns(1, 4));
    final KeyValueStore<TenantKey, byte[]> store = context.getStateStore(Stores.TENANT_TRANSACTIONS);
    final Map<Long, byte[]> stored = inputs();
    final TransactionEvent b = CheckerDriver.events("acme", history("B b r(x,0) w(x,2) @60..65")).get(0);
    final InputBatch again = new InputBatch(2);
    again.add(EngineInput.encode(new EngineInput.Arrival(T0 * 1_000L, b), new EventCodec()));
    again.add(stored.get(3L));
    again.add(stored.get(4L));
    store.put(TenantKey.ofIndex("acme", 2), again.bytes());
    final io.isowatch.streams.engine.TenantEngine engine =
        OnlineTenantEngine.factory(CheckOptions.defaults(), 0L).create("acme");

    // When
    final long replayed = new StoredInputs(store, new CheckerMetrics()).replay("acme", 0, engine);
    engine.flush();

    // Then: five inputs, each once, index 2 from the later entry (B, not F2)
    assertEquals(5, replayed);
    assertEquals(List.of("LostUpdate"), engine.result().anomalies().stream()
        .map(io.isowatch.core.check.Anomaly::name).toList());
  }

  private void start() {
    processor = new CheckTransactionsProcessor(OnlineTenantEngine.factory(CheckOptions.defaults(), 0L),
        new CheckerMetrics(), Duration.ofSeconds(1), Duration.ofMillis(-1), "anomalies", "verdicts");
    processor.init(context);
  }

  private void restart() {
    processor.close();
    start();
  }

  private static String txns(final int from, final int n) {
    final StringBuilder dsl = new StringBuilder();
    for (int i = from; i < from + n; i++) {
      dsl.append('F').append(i).append(" f").append(i).append(" r(k").append(i).append(",0) w(k").append(i)
          .append(",1) @").append(10 + 10 * i).append("..").append(15 + 10 * i).append('\n');
    }
    return dsl.toString();
  }

  private void process(final String dsl) {
    for (final TransactionEvent e : CheckerDriver.events("acme", history(dsl))) {
      processor.process(new Record<>("acme", e, T0));
    }
  }

  private List<String> anomalies() {
    return context.forwarded().stream().filter(f -> "anomalies".equals(f.childName().orElse(null)))
        .map(f -> ((Anomaly) f.record().value()).getName()).toList();
  }

  private Map<Long, byte[]> inputs() {
    return StoredInputEntries.inputs(context.getStateStore(Stores.TENANT_TRANSACTIONS), "acme");
  }

  private List<Long> entryKeys() {
    final KeyValueStore<TenantKey, byte[]> store = context.getStateStore(Stores.TENANT_TRANSACTIONS);
    final List<Long> keys = new ArrayList<>();
    try (KeyValueIterator<TenantKey, byte[]> it = store.prefixScan("acme", TenantKey.prefix())) {
      it.forEachRemaining(kv -> keys.add(kv.key.index()));
    }
    return keys;
  }
}
