package io.isowatch.streams.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.online.Horizon;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.streams.Stores;
import io.isowatch.streams.engine.OnlineTenantEngine;
import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.metrics.MetricNames;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prune punctuator of {@link CheckTransactionsProcessor} (docs/segmentation.md): on stream time
 * it prunes every loaded engine to its horizon, records the prune in the metrics, and anomalies
 * whose transactions straddle the prune are still published.
 */
class EnginePrunerTest {
  private static final long T0 = 1_000_000L;
  private static final Duration PRUNE_EVERY = Duration.ofSeconds(10);
  private static final String[] TENANT = {"tenant"};

  @TempDir Path stateDir;

  private MockProcessorContext<String, SpecificRecord> context;
  private CheckTransactionsProcessor processor;
  private final CheckerMetrics metrics = new CheckerMetrics();
  private MockStores stores;

  @BeforeEach
  void setUp() {
    stores = MockStores.forCheckProcessor(stateDir, T0, Map.of());
    context = stores.context();
    // A horizon of 20 transactions: the engine would prune by itself only at 40.
    processor = stores.start(World.processor(metrics));
  }

  @AfterEach
  void tearDown() {
    stores.close();
  }

  @Test
  void shouldPruneEveryLoadedEngineToItsHorizonWhenTheStreamTimePunctuatorFires() {
    // Given: 30 transactions of acme; A (the 16th) overwrites x before the prune, B after it (a lost
    // update whose first transaction is retained)
    process("acme", lostUpdateSetUp(), T0);
    final double retainedBefore = sample(MetricNames.RETAINED_TRANSACTIONS);
    final CapturedPunctuator prune = context.scheduledPunctuators().stream()
        .filter(p -> p.getType() == PunctuationType.STREAM_TIME).findFirst().orElseThrow();

    // When
    prune.getPunctuator().punctuate(T0 + PRUNE_EVERY.toMillis());
    process("acme", "B b r(x,0) w(x,2) @400..410\nZ z r(q,0) @500..510", T0 + PRUNE_EVERY.toMillis());

    // Then: 29 released (grace 0 keeps the latest back), 9 pruned, 20 + 1 buffered held; the lost
    // update of A (retained) and B is published
    assertEquals(PRUNE_EVERY, prune.getInterval());
    assertEquals(30.0, retainedBefore);
    assertEquals(9.0, sample(MetricNames.PRUNED_TRANSACTIONS_TOTAL));
    assertEquals(1.0, metrics.sample(MetricNames.PRUNE_SECONDS + "_count", TENANT, new String[] {"acme"}));
    assertEquals(List.of("LostUpdate"), context.forwarded().stream()
        .filter(f -> "anomalies".equals(f.childName().orElse(null)))
        .map(f -> ((Anomaly) f.record().value()).getName()).toList());
  }

  @Test
  void shouldCountTheCutsTheEngineMakesByItselfWhenNoPunctuatorFired() {
    // Given: 45 transactions with a horizon of 20 (the engine cuts by itself at 40 released)
    final StringBuilder dsl = new StringBuilder();
    for (int i = 0; i < 45; i++) {
      dsl.append("F").append(i).append(" f").append(i).append(" r(k").append(i).append(",0) w(k").append(i)
          .append(",1) @").append(10 + 10 * i).append("..").append(15 + 10 * i).append('\n');
    }

    // When
    process("acme", dsl.toString(), T0);

    // Then: that cut (40 released, 20 retained) is in the metrics, with the exact runs its retired
    // versions went into (k0..k19's initial value 0, overwritten by the pruned writers: one run per
    // key) and the false-positive probability of the filters, which took nothing (0)
    assertEquals(20.0, sample(MetricNames.PRUNED_TRANSACTIONS_TOTAL));
    assertEquals(1.0, metrics.sample(MetricNames.PRUNE_SECONDS + "_count", TENANT, new String[] {"acme"}));
    assertEquals(25.0, sample(MetricNames.RETAINED_TRANSACTIONS));
    assertEquals(20.0, sample(MetricNames.RETIRED_RUNS));
    assertEquals(320.0, sample(MetricNames.RETIRED_RUN_BYTES));
    assertEquals(0.0, sample(MetricNames.RETIRED_FALSE_POSITIVE_RATIO));
  }

  @Test
  void shouldCheckpointAfterThePruneAndDeleteTheInputsItCoversAFewPerArrival() {
    // Given: 30 inputs of acme (one tenant-transactions entry), and the prune punctuator fired
    process("acme", lostUpdateSetUp(), T0);
    prune().punctuate(T0 + PRUNE_EVERY.toMillis());

    // When: two more arrive
    process("acme", "G1 g r(y,0) w(y,1) @400..410\nG2 g r(y,1) @420..430", T0 + PRUNE_EVERY.toMillis());

    // Then: the manifest names the checkpoint of the 30 inputs; the two arrivals gathered 4 deletes
    // each, less than a batch's worth, so nothing is deleted yet, and the two new ones are stored
    // in an entry of their own (the checkpoint closed the first)
    final TenantCheckpoints checkpoints = new TenantCheckpoints(context.getStateStore(Stores.TENANT_CHECKPOINTS));
    final CheckpointManifest m = checkpoints.manifest("acme");
    assertEquals(1, m.generation());
    assertEquals(30, m.firstInput());
    assertEquals(0, m.deletedBelow());
    assertEquals(LongStream.range(0, 32).boxed().toList(), storedInputIndexes("acme"));
    assertEquals(List.of(0L, 30L), storedEntryKeys("acme"));
    assertEquals(32.0, sample(MetricNames.STATE_TRANSACTIONS));
    assertEquals((double) m.bytes(), sample(MetricNames.CHECKPOINT_BYTES));

    // When: the punctuator fires again, before the arrivals deleted the rest
    prune().punctuate(T0 + 2 * PRUNE_EVERY.toMillis());

    // Then: what the first checkpoint covered is all gone now; the second covers the two new ones
    final CheckpointManifest second = checkpoints.manifest("acme");
    assertEquals(2, second.generation());
    assertEquals(32, second.firstInput());
    assertEquals(30, second.deletedBelow());
    assertEquals(List.of(30L, 31L), storedInputIndexes("acme"));
    assertEquals(30.0, sample(MetricNames.INPUTS_DELETED_TOTAL));

    // When: eight more arrive, 4 deletes each: a batch's worth (InputBatch.MAX_INPUTS) at the eighth
    final StringBuilder more = new StringBuilder();
    for (int i = 3; i <= 10; i++) {
      more.append("G").append(i).append(" g r(y,1) @").append(430 + 10 * i).append("..").append(435 + 10 * i)
          .append('\n');
    }
    process("acme", more.toString(), T0 + 2 * PRUNE_EVERY.toMillis());

    // Then: the second checkpoint's entry is deleted whole; the eight are stored
    assertEquals(InputBatch.MAX_INPUTS, 8 * EngineFeed.DELETES_PER_INPUT);
    assertEquals(LongStream.range(32, 40).boxed().toList(), storedInputIndexes("acme"));
    assertEquals(32.0, sample(MetricNames.INPUTS_DELETED_TOTAL));
    assertEquals(8.0, sample(MetricNames.STATE_TRANSACTIONS));
  }

  @Test
  void shouldReadAManifestOfFormat1AsHavingDeletedEverythingItsCheckpointCovered() {
    // Given: a manifest as the first checkpointing version wrote it
    final byte[] v1 = java.nio.ByteBuffer.allocate(29).put((byte) 1).putLong(3).putInt(2).putLong(700_000)
        .putLong(4_000).array();

    // When
    final CheckpointManifest m = CheckpointManifest.fromBytes(v1);

    // Then: and the current format reads its own bytes back
    assertEquals(new CheckpointManifest(3, 2, 700_000, 4_000, 4_000), m);
    final CheckpointManifest now = new CheckpointManifest(4, 1, 10, 5_000, 4_000);
    assertEquals(now, CheckpointManifest.fromBytes(now.toBytes()));
    org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
        () -> CheckpointManifest.fromBytes(java.util.Arrays.copyOf(now.toBytes(), 29)));
  }

  @Test
  void shouldRebuildFromTheCheckpointAndTheLaterInputsWhenTheTaskRestarts(@TempDir final Path other) {
    // Given: the same inputs, prune and checkpoint in two tasks; the second restarts (its engine
    // rebuilt from the checkpoint and the inputs after it) before the last inputs
    final World live = new World(stateDir.resolve("live"), false);
    final World restarted = new World(other, true);

    // Then: the rebuilt engine publishes what the uninterrupted one does (D's lost updates with A
    // and B on x=0, nothing of before the restart again) and ends with the same verdict
    assertEquals(live.lastAnomalies, restarted.lastAnomalies);
    assertEquals(List.of("LostUpdate", "LostUpdate"), live.lastAnomalies);
    assertEquals(live.verdict, restarted.verdict);
    assertEquals(1.0, restarted.metrics.sample(MetricNames.TENANT_RESTORES_TOTAL, TENANT, new String[] {"acme"}));
  }

  /** One task's run of the restart scenario, on stores of its own. */
  private static final class World {
    final CheckerMetrics metrics = new CheckerMetrics();
    final List<String> lastAnomalies;
    final String verdict;

    World(final Path dir, final boolean restart) {
      try (MockStores s = MockStores.forCheckProcessor(dir, T0, Map.of())) {
        final MockProcessorContext<String, SpecificRecord> ctx = s.context();
        CheckTransactionsProcessor p = processor(metrics);
        p.init(ctx);
        MockStores.feed(p, "acme", lostUpdateSetUp(), T0);
        stream(ctx).getPunctuator().punctuate(T0 + PRUNE_EVERY.toMillis());
        MockStores.feed(p, "acme", "B b r(x,0) w(x,2) @400..410\nZ z r(q,0) @500..510", T0 + PRUNE_EVERY.toMillis());
        if (restart) {
          p.close();
          p = processor(metrics);
          p.init(ctx);
        }
        ctx.resetForwards();
        MockStores.feed(p, "acme", "D d r(x,0) w(x,4) @600..610\nY y r(q,0) @700..710", T0 + PRUNE_EVERY.toMillis());
        lastAnomalies = ctx.forwarded().stream().filter(f -> "anomalies".equals(f.childName().orElse(null)))
            .map(f -> ((Anomaly) f.record().value()).getName()).toList();
        ctx.resetForwards();
        ctx.scheduledPunctuators().stream().filter(x -> x.getType() == PunctuationType.WALL_CLOCK_TIME)
            .reduce((a, b) -> b).orElseThrow().getPunctuator().punctuate(T0);
        final TenantVerdict v = ctx.forwarded().stream().filter(f -> "verdicts".equals(f.childName().orElse(null)))
            .map(f -> (TenantVerdict) f.record().value()).reduce((a, b) -> b).orElseThrow();
        v.setAtMicros(0L);
        verdict = v.toString();
        p.close();
      }
    }

    private static CheckTransactionsProcessor processor(final CheckerMetrics metrics) {
      return new CheckTransactionsProcessor(
          OnlineTenantEngine.factory(CheckOptions.defaults(), 0L, Horizon.ofTransactions(20)), metrics,
          Duration.ofSeconds(1), Duration.ofMillis(-1), "anomalies", "verdicts", PRUNE_EVERY);
    }

    private static CapturedPunctuator stream(final MockProcessorContext<String, SpecificRecord> ctx) {
      // The latest scheduled: a restarted processor schedules again on the same context.
      return ctx.scheduledPunctuators().stream().filter(x -> x.getType() == PunctuationType.STREAM_TIME)
          .reduce((a, b) -> b).orElseThrow();
    }
  }

  /** 30 transactions; A (the 16th) overwrites x=0 and stays within the horizon of 20 after a prune. */
  private static String lostUpdateSetUp() {
    final StringBuilder dsl = new StringBuilder();
    for (int i = 0; i < 29; i++) {
      if (i == 15) {
        dsl.append("A a r(x,0) w(x,1) @155..158\n");
      }
      dsl.append("F").append(i).append(" f").append(i).append(" r(k").append(i).append(",0) w(k").append(i)
          .append(",1) @").append(10 + 10 * i).append("..").append(15 + 10 * i).append('\n');
    }
    return dsl.toString();
  }

  private org.apache.kafka.streams.processor.Punctuator prune() {
    return context.scheduledPunctuators().stream()
        .filter(p -> p.getType() == PunctuationType.STREAM_TIME).findFirst().orElseThrow().getPunctuator();
  }

  private List<Long> storedInputIndexes(final String tenant) {
    return new ArrayList<>(StoredInputEntries.inputs(context.getStateStore(Stores.TENANT_TRANSACTIONS), tenant)
        .keySet());
  }

  private List<Long> storedEntryKeys(final String tenant) {
    final KeyValueStore<TenantKey, byte[]> inputs = context.getStateStore(Stores.TENANT_TRANSACTIONS);
    final List<Long> indexes = new ArrayList<>();
    try (KeyValueIterator<TenantKey, byte[]> it = inputs.prefixScan(tenant, TenantKey.prefix())) {
      it.forEachRemaining(kv -> indexes.add(kv.key.index()));
    }
    return indexes;
  }

  private double sample(final String name) {
    final Double v = metrics.sample(name, TENANT, new String[] {"acme"});
    return v == null ? Double.NaN : v;
  }

  private void process(final String tenant, final String dsl, final long timestamp) {
    MockStores.feed(processor, tenant, dsl, timestamp);
  }
}
