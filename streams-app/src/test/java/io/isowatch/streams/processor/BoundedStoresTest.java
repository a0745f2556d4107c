package io.isowatch.streams.processor;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.online.Horizon;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.Stores;
import io.isowatch.streams.engine.OnlineTenantEngine;
import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.testkit.CheckerDriver;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, "bounded by default": a tenant's engine is checkpointed at every prune punctuation
 * that finds inputs its checkpoint does not cover, pruned or not, so a rebuild replays at most one
 * interval's inputs; and {@code published-anomalies} forgets the ids no rebuild can report again
 * ({@link PublishedAnomalies}), a few per arrival, without anything being published twice after
 * a restart.
 */
class BoundedStoresTest {
  private static final long T0 = 1_000_000L;
  private static final Duration PRUNE_EVERY = Duration.ofSeconds(10);
  private static final String[] TENANT = {"tenant"};
  private static final String[] ACME = {"acme"};

  @TempDir Path stateDir;

  private MockStores stores;
  private MockProcessorContext<String, SpecificRecord> context;
  private CheckTransactionsProcessor processor;
  private CheckerMetrics metrics;

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
  void shouldCheckpointATenantBelowItsHorizonAndRebuildFromThatCheckpointWhenNothingWasPruned() {
    // Given: 10 inputs, half the horizon of 20: a prune has nothing to prune
    process(txns("F", 0, 10));

    // When
    prune(1);
    process(txns("G", 10, 8));

    // Then: checkpointed all the same (nothing pruned), and the 8 arrivals (4 deletes each: a batch's
    // worth) deleted the 10 covered inputs
    final CheckpointManifest m = new TenantCheckpoints(context.getStateStore(Stores.TENANT_CHECKPOINTS))
        .manifest("acme");
    assertNotNull(m, "no checkpoint without a prune");
    assertEquals(10, m.firstInput());
    assertEquals(1.0, metrics.sample(MetricNames.CHECKPOINTS_TOTAL, TENANT, ACME));
    assertEquals(18.0, metrics.sample(MetricNames.RETAINED_TRANSACTIONS, TENANT, ACME), "nothing was pruned");
    assertEquals(java.util.stream.LongStream.range(10, 18).boxed().toList(), storedInputIndexes());

    // When: the task restarts on its stores and the lost update of x closes
    restart();
    process("A a r(x,0) w(x,1) @500..505\nB b r(x,0) w(x,2) @510..515\nZ z r(q,0) @600..605");

    // Then: rebuilt from the checkpoint (and the 8 inputs after it); the lost update is found
    assertEquals(1.0, metrics.sample(MetricNames.TENANT_RESTORES_TOTAL, TENANT, ACME));
    assertEquals(List.of("LostUpdate"), anomalies());
  }

  @Test
  void shouldCheckpointATenantEveryNInputsWhenNoPunctuationCame() {
    // Given: a processor that checkpoints every 5 inputs
    processor.close();
    processor = new CheckTransactionsProcessor(
        OnlineTenantEngine.factory(CheckOptions.defaults(), 0L, Horizon.ofTransactions(20)), metrics,
        Duration.ofSeconds(1), Duration.ofMillis(-1), "anomalies", "verdicts", PRUNE_EVERY, 5);
    processor.init(context);

    // When: 12 inputs, no punctuation
    process(txns("F", 0, 12));

    // Then: checkpointed at the 5th and the 10th input; what the first covered is deleted
    final CheckpointManifest m = new TenantCheckpoints(context.getStateStore(Stores.TENANT_CHECKPOINTS))
        .manifest("acme");
    assertNotNull(m, "no checkpoint without a punctuation");
    assertEquals(2, m.generation());
    assertEquals(10, m.firstInput());
    assertEquals(2.0, metrics.sample(MetricNames.CHECKPOINTS_TOTAL, TENANT, ACME));
  }

  @Test
  void shouldTrimThePublishedIdsACheckpointCoversAndRepublishNothingWhenRestartedAfterwards() {
    // Given: a lost update of x published, then a checkpoint covering its inputs
    process("A a r(x,0) w(x,1) @10..15\nB b r(x,0) w(x,2) @20..25\nZ z r(q,0) @30..35");
    assertEquals(List.of("LostUpdate"), anomalies());
    assertEquals(1, publishedIds().size());
    prune(1);

    // When: one more arrival
    process("C c r(y,0) w(y,1) @40..45");

    // Then: its id is gone from published-anomalies
    assertEquals(List.of(), publishedIds());

    // When: the task restarts on its stores; its rebuild replays the inputs after the checkpoint,
    // and D closes two more lost updates of x=0 with A and B
    restart();
    context.resetForwards();
    process("D d r(x,0) w(x,4) @50..55\nY y r(q,0) @60..65");
    prune(2);
    process("E e r(z,0) w(z,1) @70..75\nX x r(q,0) @80..85");

    // Then: only the two new ones are published, the first one is not published again
    assertEquals(List.of("LostUpdate", "LostUpdate"), anomalies());
    assertEquals(1.0, metrics.sample(MetricNames.TENANT_RESTORES_TOTAL, TENANT, ACME));
    assertEquals(List.of(), publishedIds(), "the second checkpoint covers the two new ones as well");
  }

  @Test
  void shouldNotPublishAnAnomalyAgainWhenARetryOfItsTransactionArrivesAfterItsIdWasTrimmed() {
    // Given: a lost update of x published; 40 later transactions take A and B beyond the horizon
    // of 20; a prune cuts them and checkpoints, and the next arrivals trim the anomaly's id
    process("A a r(x,0) w(x,1) @10..15\nB b r(x,0) w(x,2) @20..25");
    process(txns("F", 10, 40));
    prune(1);
    process(txns("G", 60, 4));
    assertEquals(List.of("LostUpdate"), anomalies());
    assertEquals(List.of(), publishedIds(), "the checkpoint covers the lost update: its id is trimmed");

    // When: an agent's retry of B (same id, same content) arrives late, after its original was pruned
    process("B b r(x,0) w(x,2) @20..25");
    process(txns("H", 70, 4));

    // Then: the lost update is not published again (the retry writes x=2, which was retired: it is
    // a late transaction, not a second lost update)
    assertEquals(List.of("LostUpdate"), anomalies());
  }

  @Test
  void shouldRetractAThinAirReadPublishedBeforeTheCheckpointARestartedTaskRebuildsFrom() {
    // Given: R's read of x=5 (nobody wrote it) published as a ThinAirRead; 40 later transactions,
    // a prune that cuts R away and checkpoints, then a restart: the engine is rebuilt from that
    // checkpoint and the inputs after it
    process("R r r(x,5) @10..15");
    process(txns("F", 10, 40));
    prune(1);
    process(txns("G", 60, 4));
    assertEquals(List.of("ThinAirRead"), anomalies());
    restart();
    context.resetForwards();

    // When: x=5's writer arrives, later than every bound
    process("W w r(x,0) w(x,5) @5..8");

    // Then: the rebuilt engine retracts the ThinAirRead the first one published
    final List<Anomaly> retractions = context.forwarded().stream()
        .filter(f -> "anomalies".equals(f.childName().orElse(null)))
        .map(f -> (Anomaly) f.record().value()).toList();
    assertEquals(1, retractions.size());
    assertEquals("ThinAirRead", retractions.get(0).getName());
    assertNotNull(retractions.get(0).getRetraction());
    assertEquals("W", retractions.get(0).getRetraction().getCauseTxn());
    assertEquals(1.0, metrics.sample(MetricNames.TENANT_RESTORES_TOTAL, TENANT, ACME));
  }

  @Test
  void shouldKeepEveryIdPublishedBeforeARebuildWithoutACheckpointWhenLaterCheckpointsCome() {
    // Given: a lost update published, then a restart before any checkpoint: the rebuild replays
    // every input with other cuts than the live engine made, so it may report it again later
    process("A a r(x,0) w(x,1) @10..15\nB b r(x,0) w(x,2) @20..25\nZ z r(q,0) @30..35");
    restart();
    process("C c r(y,0) w(y,1) @40..45");

    // When: checkpoints come, with arrivals after them
    prune(1);
    process("D d r(z,0) w(z,1) @50..55\nE e r(z,1) @60..65");

    // Then: that id is kept for good
    assertEquals(List.of(PublishedAnomalies.KEEP), publishedPositions());
  }

  @Test
  void shouldNeverTrimAnIdWrittenByAnEarlierVersionWhenCheckpointsCoverEverything() {
    // Given: an id as earlier versions stored it (the detection time in µs), and a new one
    final KeyValueStore<TenantKey, Long> store = context.getStateStore(Stores.PUBLISHED_ANOMALIES);
    store.put(TenantKey.ofItem("acme", "legacy"), 1_764_000_000_000_000L);
    process("A a r(x,0) w(x,1) @10..15\nB b r(x,0) w(x,2) @20..25\nZ z r(q,0) @30..35");

    // When
    prune(1);
    process("C c r(y,0) w(y,1) @40..45");

    // Then: the new one went, the old one stays
    assertEquals(List.of("legacy"), publishedIds());
  }

  // ---- helpers ----

  private void start() {
    metrics = new CheckerMetrics();
    processor = new CheckTransactionsProcessor(
        OnlineTenantEngine.factory(CheckOptions.defaults(), 0L, Horizon.ofTransactions(20)), metrics,
        Duration.ofSeconds(1), Duration.ofMillis(-1), "anomalies", "verdicts", PRUNE_EVERY);
    processor.init(context);
  }

  private void restart() {
    processor.close();
    start();
  }

  /** Fires the latest scheduled stream-time punctuator (a restarted processor schedules again). */
  private void prune(final int n) {
    context.scheduledPunctuators().stream().filter(p -> p.getType() == PunctuationType.STREAM_TIME)
        .reduce((a, b) -> b).orElseThrow().getPunctuator().punctuate(T0 + n * PRUNE_EVERY.toMillis());
  }

  private static String txns(final String prefix, final int from, final int n) {
    final StringBuilder dsl = new StringBuilder();
    for (int i = from; i < from + n; i++) {
      dsl.append(prefix).append(i).append(' ').append(prefix).append(i).append(" r(k").append(i).append(",0) w(k")
          .append(i).append(",1) @").append(10 + 10 * i).append("..").append(15 + 10 * i).append('\n');
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

  private List<Long> storedInputIndexes() {
    return new ArrayList<>(StoredInputEntries.inputs(context.getStateStore(Stores.TENANT_TRANSACTIONS), "acme")
        .keySet());
  }

  private List<String> publishedIds() {
    final List<String> ids = new ArrayList<>();
    published().forEach(kv -> ids.add(kv.key.item()));
    return ids;
  }

  private List<Long> publishedPositions() {
    final List<Long> positions = new ArrayList<>();
    published().forEach(kv -> positions.add(kv.value));
    return positions;
  }

  private List<org.apache.kafka.streams.KeyValue<TenantKey, Long>> published() {
    final KeyValueStore<TenantKey, Long> store = context.getStateStore(Stores.PUBLISHED_ANOMALIES);
    final List<org.apache.kafka.streams.KeyValue<TenantKey, Long>> all = new ArrayList<>();
    try (KeyValueIterator<TenantKey, Long> it = store.prefixScan("acme", TenantKey.prefix())) {
      it.forEachRemaining(all::add);
    }
    return all;
  }
}
