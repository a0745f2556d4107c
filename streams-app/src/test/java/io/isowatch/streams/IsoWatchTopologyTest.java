package io.isowatch.streams;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.Edge;
import io.isowatch.schemas.EdgeKind;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.Verdict;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.processor.TenantKey;
import io.isowatch.streams.processor.TenantProgress;
import io.isowatch.streams.processor.VerdictRecords;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The checker's topology in a TopologyTestDriver: real RocksDB stores, the real registry (Apicurio's
 * serdes have no mock registry client), the stand-in engine until the online engine lands.
 */
class IsoWatchTopologyTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String TENANT = "acme";
  private static final String LOST_UPDATE = """
      T1 s1 r(x,0) w(x,1) @1000..2000
      T2 s2 r(x,0) w(x,2) @1500..2500
      """;

  @TempDir Path stateDir;

  @Test
  void shouldCheckpointATenantEveryConfiguredNumberOfInputsWhenNoPrunePunctuationComes() {
    // Given: a horizon of 20 transactions and a prune interval of a day; check.checkpoint.every.inputs
    // at 5, and at its default (200,000)
    final Map<String, String> every5 = Map.of(
        IsoWatchStreamsConfig.CHECK_CHECKPOINT_EVERY_INPUTS_CONFIG, "5",
        IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_CONFIG, "20",
        IsoWatchStreamsConfig.CHECK_PRUNE_INTERVAL_MS_CONFIG, "86400000");
    final Map<String, String> byDefault = Map.of(
        IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_CONFIG, "20",
        IsoWatchStreamsConfig.CHECK_PRUNE_INTERVAL_MS_CONFIG, "86400000");

    // When: 12 inputs, all at the same record time (no stream-time punctuation from them)
    final double configured = checkpointsAfterTwelveInputs(every5, stateDir.resolve("every5"));
    final double defaults = checkpointsAfterTwelveInputs(byDefault, stateDir.resolve("default"));

    // Then: two more checkpoints, at the 5th and the 10th input
    assertEquals(2.0, configured - defaults, "configured " + configured + ", default " + defaults);
  }

  private static double checkpointsAfterTwelveInputs(final Map<String, String> overrides, final Path state) {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), state, overrides)) {
      checker.pipe(CheckerDriver.events(TENANT, io.isowatch.core.gen.MtHistoryGenerator.generateHistory(
          io.isowatch.core.gen.GeneratorConfig.defaults().withTransactions(12).withKeys(4).withSessions(2)
              .withSeed(3))));
      final Double n = checker.metrics().sample(MetricNames.CHECKPOINTS_TOTAL, new String[] {"tenant"},
          new String[] {TENANT});
      return n == null ? 0 : n;
    }
  }

  @Test
  void shouldPublishLostUpdateWithItsCycleWhenTwoTransactionsOverwriteTheSameRead() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given
      final List<TransactionEvent> events = CheckerDriver.events(TENANT, history(LOST_UPDATE));
      // When
      checker.pipe(events);
      checker.flushIdleTenants();
      // Then
      final List<Anomaly> anomalies = checker.anomalies();
      assertEquals(1, anomalies.size(), anomalies.toString());
      final Anomaly a = anomalies.get(0);
      assertEquals(TENANT, a.getTenant());
      assertEquals("G-single", a.getType());
      assertEquals("LostUpdate", a.getName());
      assertEquals(List.of(Level.SSER, Level.SER, Level.SI), a.getViolates());
      assertEquals(List.of(
          new Edge("T1", "T2", EdgeKind.WW, "x", 1L),
          new Edge("T2", "T1", EdgeKind.RW, "x", 0L)), a.getCycle());
      assertEquals(List.of("T1", "T2"), a.getTransactions().stream().map(t -> t.getTxn()).toList());
      assertEquals(io.isowatch.schemas.AnomalyIds.of(TENANT, "G-single", "LostUpdate", List.of("T1", "T2")),
          a.getAnomalyId());
      // Detected at the driver's wall clock; latency from T2's end (2500 µs after the epoch).
      final long detectedAt = CheckerDriver.START.toEpochMilli() * 1_000L;
      assertEquals(detectedAt, a.getDetectedAtMicros());
      assertEquals(detectedAt - 2_500L, a.getDetectionLatencyMicros());
      assertEquals(1.0, checker.metrics().sample(MetricNames.ANOMALIES_TOTAL,
          new String[] {"tenant", "type", "name", "level"}, new String[] {TENANT, "G-single", "LostUpdate", "SER"}));
      assertEquals(2.0, checker.metrics().sample(MetricNames.TRANSACTIONS_CHECKED_TOTAL,
          new String[] {"tenant"}, new String[] {TENANT}));
    }
  }

  @Test
  void shouldPublishBothWithDistinctIdsWhenTwoAnomaliesShareTheirTransactions() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given: the lost updates of one pair on x and y, and two thin-air reads of one transaction:
      // two pairs of anomalies, each pair with one anomalyId (tenant, type, name, transactions)
      final List<TransactionEvent> events = CheckerDriver.events(TENANT, history("""
          T1 s1 r(x,0) r(y,0) w(x,1) w(y,1) @1000..2000
          T2 s2 r(x,0) r(y,0) w(x,2) w(y,2) @1500..2500
          T3 s3 r(u,5) r(v,7) @3000..4000
          """));
      // When
      checker.pipe(events);
      checker.flushIdleTenants();
      checker.publishVerdicts();
      // Then: all four published, each under its own uniqueId, the one its content gives
      final List<Anomaly> anomalies = checker.anomalies();
      assertEquals(List.of("LostUpdate", "LostUpdate", "ThinAirRead", "ThinAirRead"),
          anomalies.stream().map(Anomaly::getName).sorted().toList(), anomalies.toString());
      assertEquals(2, anomalies.stream().map(Anomaly::getAnomalyId).distinct().count());
      assertEquals(4, anomalies.stream().map(Anomaly::getUniqueId).distinct().count());
      anomalies.forEach(a -> assertEquals(io.isowatch.schemas.AnomalyIds.unique(a), a.getUniqueId()));
      assertEquals(java.util.Set.of("u", "v"), anomalies.stream().filter(a -> a.getRead() != null)
          .map(a -> a.getRead().getKey()).collect(java.util.stream.Collectors.toSet()));
      // ... and the verdict lists exactly them
      final List<TenantVerdict> verdicts = checker.verdicts();
      final TenantVerdict verdict = verdicts.get(verdicts.size() - 1);
      assertEquals(anomalies.stream().map(Anomaly::getUniqueId).sorted().toList(),
          verdict.getReport().getListedUniqueIds().stream().sorted().toList());
    }
  }

  @Test
  void shouldPublishEachAnomalyOnceWhenEveryTransactionArrivesTwice() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given
      final List<TransactionEvent> events = CheckerDriver.events(TENANT, history(LOST_UPDATE));
      final List<TransactionEvent> twice = new ArrayList<>(events);
      twice.addAll(events);
      twice.add(events.get(0));
      // When
      checker.pipe(twice);
      checker.flushIdleTenants();
      checker.publishVerdicts();
      // Then
      assertEquals(List.of("LostUpdate"), checker.anomalies().stream().map(Anomaly::getName).toList());
      final TenantVerdict verdict = checker.verdicts().get(0);
      assertEquals(2L, verdict.getCounts().getTransactionsChecked());
      assertEquals(Map.of("LostUpdate", 1L), verdict.getCounts().getAnomaliesByName());
    }
  }

  @Test
  void shouldDeadLetterAnUndecodableRecordAndProcessTheNextWhenTheBytesAreNotAvro() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given
      final byte[] garbage = "not avro at all".getBytes(StandardCharsets.UTF_8);
      final byte[] key = TENANT.getBytes(StandardCharsets.UTF_8);
      // When
      checker.pipeRaw(key, garbage);
      checker.pipe(CheckerDriver.events(TENANT, history(LOST_UPDATE)));
      checker.flushIdleTenants();
      // Then
      final List<DeadLetter> letters = checker.deadLetters();
      assertEquals(1, letters.size());
      final DeadLetter d = letters.get(0);
      assertEquals(Topics.defaults().txnEvents().name(), d.getSourceTopic());
      assertEquals(0, d.getSourcePartition());
      assertEquals(0L, d.getSourceOffset());
      assertEquals(CheckerDriver.START.toEpochMilli(), d.getSourceTimestampMillis());
      assertArrayEquals(garbage, bytes(d.getRawValue()));
      assertArrayEquals(key, bytes(d.getRawKey()));
      assertTrue(d.getErrorClass().contains("."), d.getErrorClass());
      assertEquals(List.of("LostUpdate"), checker.anomalies().stream().map(Anomaly::getName).toList());
      assertEquals(1.0, checker.metrics().scrape().lines()
          .filter(l -> l.startsWith(MetricNames.DLQ_RECORDS_TOTAL + "{"))
          .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum());
    }
  }

  @Test
  void shouldDeadLetterARecordWhenItsKeyIsNotItsTenant() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given: a valid event of tenant acme keyed as tenant other.
      final TransactionEvent event = CheckerDriver.events(TENANT, history(LOST_UPDATE)).get(0);
      // When
      checker.driver().createInputTopic(Topics.defaults().txnEvents().name(),
          new org.apache.kafka.common.serialization.StringSerializer(),
          new io.isowatch.schemas.serde.AvroSerdes(
              io.isowatch.schemas.serde.AvroSerdeConfig.development(REGISTRY.url()))
              .valueSerde(TransactionEvent.class).serializer()).pipeInput("other", event);
      // Then
      final List<DeadLetter> letters = checker.deadLetters();
      assertEquals(1, letters.size());
      assertEquals(InvalidRecordException.class.getName(), letters.get(0).getErrorClass());
      assertTrue(letters.get(0).getErrorMessage().contains("'other'"), letters.get(0).getErrorMessage());
    }
  }

  @Test
  void shouldPublishTenantVerdictsWhenTheWallClockPunctuatorFires() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given
      checker.pipe(CheckerDriver.events(TENANT, history(LOST_UPDATE)));
      checker.pipe(CheckerDriver.events("beta", history("B1 s1 r(x,0) w(x,1) @1..2\nB2 s1 r(x,1) @3..4")));
      checker.flushIdleTenants();
      // When
      checker.publishVerdicts();
      checker.publishVerdicts();
      // Then: one verdict per changed tenant, none when nothing changed since.
      final List<TenantVerdict> verdicts = checker.verdicts();
      assertEquals(List.of("acme", "beta"), verdicts.stream().map(TenantVerdict::getTenant).toList());
      final TenantVerdict acme = verdicts.get(0);
      assertEquals(List.of(Level.SSER, Level.SER, Level.SI),
          acme.getLevels().stream().map(LevelVerdict::getLevel).toList());
      assertTrue(acme.getLevels().stream().allMatch(l -> l.getVerdict() == Verdict.VIOLATED), acme.toString());
      assertEquals("LostUpdate T1,T2", acme.getLevels().get(1).getReason());
      assertEquals(CheckerDriver.START.toEpochMilli() * 1_000L
          + 10_000L * 1_000L, acme.getAtMicros());
      final TenantVerdict beta = verdicts.get(1);
      assertTrue(beta.getLevels().stream().allMatch(l -> l.getVerdict() == Verdict.SATISFIED), beta.toString());
      assertNull(beta.getLevels().get(0).getReason());
      assertEquals(2L, beta.getCounts().getTransactionsChecked());
    }
  }

  @Test
  void shouldPublishTheProofOfTheSearchOfVersionOrdersWithTheVerdictWhenEveryOrderIsCyclic() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given: blind writers of x and y seen in opposite orders by two readers (issue 14, item 3)
      checker.pipe(CheckerDriver.events(TENANT, history("""
          T1 s1 w(x,1) w(y,1) @1..2
          T2 s2 w(x,2) w(y,2) @3..4
          T3 s3 r(x,1) r(y,2) @5..6
          T4 s4 r(x,2) r(y,1) @7..8
          """)));

      // When
      checker.flushIdleTenants();
      checker.publishVerdicts();
      checker.publishVerdicts();

      // Then: the proof is on the anomalies topic once, and the verdict says SI is violated
      final List<Anomaly> all = checker.anomalies();
      final List<TenantVerdict> verdicts = checker.verdicts();
      final List<Anomaly> proofs = all.stream().filter(a -> "NoAcyclicVersionOrder".equals(a.getName())).toList();
      assertEquals(1, proofs.size(), () -> all + "\n" + verdicts);
      final TenantVerdict verdict = verdicts.get(verdicts.size() - 1);
      assertTrue(verdict.getLevels().stream().allMatch(l -> l.getVerdict() == Verdict.VIOLATED), verdict.toString());
    }
  }

  @Test
  void shouldCountAFindingAndKeepRunningWhenAWriteHasNoValue() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given: well-formed Avro, impossible transaction.
      final TransactionEvent impossible = TransactionEvent.newBuilder()
          .setTenant(TENANT).setSession("s9").setSeq(0).setTxn("T9")
          .setStatus(io.isowatch.schemas.TxnStatus.COMMITTED)
          .setOps(List.of(new Op(OpType.READ, "y", 0L, null), new Op(OpType.WRITE, "y", null, null)))
          .build();
      // When
      checker.pipe(List.of(impossible));
      checker.pipe(CheckerDriver.events(TENANT, history("T1 s1 r(x,0) w(x,1) @1..2")));
      checker.flushIdleTenants();
      checker.publishVerdicts();
      // Then
      assertEquals(List.of(), checker.deadLetters());
      final TenantVerdict verdict = checker.verdicts().get(0);
      assertEquals(1L, verdict.getCounts().getFindingsByKind().get(VerdictRecords.MALFORMED_TRANSACTION));
      assertEquals(1L, verdict.getCounts().getTransactionsChecked());
      assertTrue(verdict.getLevels().stream().allMatch(l -> l.getVerdict() == Verdict.UNKNOWN), verdict.toString());
      assertEquals("1 malformed transaction event(s) could not be checked", verdict.getLevels().get(0).getReason());
    }
  }

  @Test
  void shouldCountAListAppendEventOfARegisterTenantAsNotCheckedAndKeepRunning() {
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      // Given: a list-append transaction (Avro TransactionEvent v2: an APPEND and a read of a list)
      // from a tenant that wrote registers before: a tenant is one workload (docs/list-append.md, "Online")
      final TransactionEvent listAppend = TransactionEvent.newBuilder()
          .setTenant(TENANT).setSession("s9").setSeq(0).setTxn("T9")
          .setStatus(io.isowatch.schemas.TxnStatus.COMMITTED)
          .setOps(List.of(new Op(OpType.READ, "cart", 1L, List.of(1L)), new Op(OpType.APPEND, "cart", 2L, null)))
          .build();
      // When
      checker.pipe(CheckerDriver.events(TENANT, history("T1 s1 r(x,0) w(x,1) @1..2")));
      checker.pipe(List.of(listAppend));
      checker.flushIdleTenants();
      checker.publishVerdicts();
      // Then: decoded (no dead letter), counted as not checked, and the tenant goes on
      assertEquals(List.of(), checker.deadLetters());
      assertEquals(List.of(), checker.anomalies());
      final TenantVerdict verdict = checker.verdicts().get(0);
      assertEquals(1L, verdict.getCounts().getFindingsByKind().get(VerdictRecords.MALFORMED_TRANSACTION));
      assertEquals(1L, verdict.getCounts().getTransactionsChecked());
      assertTrue(verdict.getLevels().stream().allMatch(l -> l.getVerdict() == Verdict.UNKNOWN), verdict.toString());
    }
  }

  @Test
  void shouldRebuildTheTenantWithoutRepublishingWhenRestartedFromTheChangelogs() {
    // Given: a first run publishes the lost update; what it wrote to its stores' changelogs is kept.
    final String prefix = IsoWatchStreamsConfig.APPLICATION_ID_DEFAULT + "-";
    final List<KeyValue<TenantKey, byte[]>> inputs;
    final List<KeyValue<String, TenantProgress>> progress;
    final List<KeyValue<TenantKey, Long>> published;
    // No horizon: this is the path where a rebuild replays every input (with the default horizon a
    // checkpoint covers them: processor.BoundedStoresTest).
    final Map<String, String> noLimit = Map.of(IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_CONFIG, "-1");
    try (CheckerDriver first = new CheckerDriver(REGISTRY.url(), stateDir, noLimit)) {
      first.pipe(CheckerDriver.events(TENANT, history(LOST_UPDATE)));
      first.flushIdleTenants();
      assertEquals(1, first.anomalies().size());
      inputs = changelog(first, prefix + Stores.TENANT_TRANSACTIONS, TenantKey.serde(), Serdes.ByteArray());
      progress = changelog(first, prefix + Stores.TENANT_PROGRESS, Serdes.String(), TenantProgress.serde());
      published = changelog(first, prefix + Stores.PUBLISHED_ANOMALIES, TenantKey.serde(), Serdes.Long());
    }
    // The two arrivals and the flush; the clock's own arrival is the fourth entry.
    assertEquals(3, inputs.stream().filter(kv -> kv.key.tenant().equals(TENANT)).count());
    try (CheckerDriver second = new CheckerDriver(REGISTRY.url(), stateDir.resolve("second"), noLimit)) {
      // The driver does not restore from changelogs; do what Kafka Streams' restoration does.
      inputs.forEach(kv -> second.driver().<TenantKey, byte[]>getKeyValueStore(Stores.TENANT_TRANSACTIONS)
          .put(kv.key, kv.value));
      progress.forEach(kv -> second.driver().<String, TenantProgress>getKeyValueStore(Stores.TENANT_PROGRESS)
          .put(kv.key, kv.value));
      published.forEach(kv -> second.driver().<TenantKey, Long>getKeyValueStore(Stores.PUBLISHED_ANOMALIES)
          .put(kv.key, kv.value));
      // When: a third writer of x=0 arrives after the restart.
      second.pipe(List.of(CheckerDriver.events(TENANT, history("T3 s3 r(x,0) w(x,3) @1600..2600")).get(0)));
      second.flushIdleTenants();
      second.flushIdleTenants();
      // Then: the engine was rebuilt from the store (it knows T1 and T2) and only the two new
      // lost updates are published, not the old one.
      final List<Anomaly> anomalies = second.anomalies();
      assertEquals(List.of(List.of("T1", "T3"), List.of("T2", "T3")),
          anomalies.stream().map(a -> a.getTransactions().stream().map(t -> t.getTxn()).sorted().toList())
              .sorted((x, y) -> x.toString().compareTo(y.toString())).toList());
      assertEquals(1.0, second.metrics().sample(MetricNames.TENANT_RESTORES_TOTAL,
          new String[] {"tenant"}, new String[] {TENANT}));
      second.publishVerdicts();
      final TenantVerdict verdict = second.verdicts().get(0);
      assertEquals(3L, verdict.getCounts().getTransactionsChecked());
      assertEquals(3L, verdict.getCounts().getAnomaliesByName().get("LostUpdate"));
    }
  }

  private static <K, V> List<KeyValue<K, V>> changelog(final CheckerDriver checker, final String store,
      final Serde<K> keys, final Serde<V> values) {
    return checker.driver().createOutputTopic(store + "-changelog", keys.deserializer(), values.deserializer())
        .readKeyValuesToList();
  }

  private static byte[] bytes(final ByteBuffer b) {
    final byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }
}
