package io.isowatch.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.AnomalyRecords;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.testkit.CheckerItConfig;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Segmentation through the streaming checker on a real broker (issue 6, docs/segmentation.md):
 * with a small horizon the app prunes on stream time, checkpoints each tenant's engine and deletes
 * the inputs the checkpoint covers, so {@code tenant-transactions} (and its changelog, read back
 * here) holds only the inputs since the latest checkpoint. The anomalies planted near the end are
 * still found, a stale read beyond the horizon is reported as such, nothing is published that the
 * unsegmented check does not find, and after a restart on an empty state directory (restored from
 * the changelogs: checkpoint plus later inputs) a new anomaly is found and nothing is republished.
 */
@Tag("integration")
class SegmentedStreamingIT {
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String TENANT = "acme";
  private static final String CLOCK = "it-clock";
  private static final String APP = "it-segmented";
  private static final int TRANSACTIONS = 12_000;
  private static final long HORIZON = 500;
  private static final String STALE_KEY = "k1";
  private static final Duration PATIENCE = Duration.ofSeconds(120);
  private static final Topics TOPICS = Topics.defaults();

  @TempDir Path dir;

  private final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url()));
  /** Record time of the first event: an hour ago, one millisecond more per event after it. */
  private final long baseTimestamp = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
  private long nextTimestamp = baseTimestamp;
  private int partition = -1;

  @Test
  void shouldKeepOnlyTheInputsSinceTheLatestCheckpointAndStillFindWhatIsWithinTheHorizon() throws Exception {
    // Given: a generated history with anomalies planted near its end, then a stale read of the
    // first value written to k1 (overwritten long before, beyond any horizon of 500)
    final List<Transaction> txns = new ArrayList<>(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
        .withSeed(61).withTransactions(TRANSACTIONS).withSessions(10).withKeys(200)
        .withInjections(List.of(new Injection(InjectedKind.LOST_UPDATE, 1), new Injection(InjectedKind.WRITE_SKEW, 1)))
        .withInjectAt(0.99)).transactions());
    final long firstK1 = txns.stream().filter(t -> t.status() == TxnStatus.COMMITTED)
        .flatMap(t -> t.ops().stream()).filter(o -> o.isWrite() && o.key().equals(STALE_KEY))
        .mapToLong(Op::value).findFirst().orElseThrow();
    final long lastEnd = txns.stream().mapToLong(Transaction::end).max().orElseThrow();
    txns.add(new Transaction("stale-1", "stale-reader", 0, TxnStatus.COMMITTED, lastEnd + 10, lastEnd + 20,
        List.of(Op.read(STALE_KEY, firstK1)), null, null, 0));
    final CheckResult unsegmented = OnlineChecker.check(new History(txns), CheckOptions.defaults());
    final Set<String> provable = unsegmented.anomalies().stream()
        .map(a -> AnomalyRecords.uniqueId(TENANT, a)).collect(Collectors.toSet());
    KAFKA.createTopics(TOPICS.all());
    produce(txns.stream().map(t -> TransactionEvents.fromCore(TENANT, t)).toList());
    final Map<String, Object> props = appConfig(dir.resolve("state"));

    try (KafkaConsumer<String, Anomaly> anomalies = consumer(TOPICS.anomalies().name(), Anomaly.class);
        KafkaConsumer<String, TenantVerdict> verdicts = consumer(TOPICS.verdicts().name(), TenantVerdict.class)) {
      final List<Anomaly> seen = new ArrayList<>();
      final List<TenantVerdict> verdictsSeen = new ArrayList<>();
      final double storedInputs;
      // When: the app checks it with a horizon of 500 transactions, pruning every second of stream time
      try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
        await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
        tick();
        await().atMost(PATIENCE).until(() -> !poll(verdicts, verdictsSeen).isEmpty()
            && latest(verdictsSeen).getCounts().getTransactionsChecked() == txns.size());
        await().atMost(PATIENCE).until(() -> names(poll(anomalies, seen)).containsAll(
            List.of("LostUpdate", "WriteSkew", "StaleReadBeyondHorizon")));
        // (the inputs are the transactions and the one idle flush that released the tail)
        await().atMost(PATIENCE).until(() -> sample(app, MetricNames.STATE_TRANSACTIONS)
            + sample(app, MetricNames.INPUTS_DELETED_TOTAL) == txns.size() + 1.0);
        storedInputs = sample(app, MetricNames.STATE_TRANSACTIONS);
        // Then: checkpoints were made; every input is stored or covered by the latest one
        assertTrue(sample(app, MetricNames.CHECKPOINTS_TOTAL) >= 5, "checkpoints: "
            + sample(app, MetricNames.CHECKPOINTS_TOTAL));
        assertTrue(storedInputs < txns.size() / 4.0, "stored inputs: " + storedInputs);
      }
      // ... the changelog of tenant-transactions holds exactly the stored inputs once compacted
      // in the reader's view (puts minus tombstones), and tenant-checkpoints one checkpoint
      assertEquals(storedInputs, liveInputs(APP + "-" + Stores.TENANT_TRANSACTIONS + "-changelog", TENANT));
      final int checkpointKeys = liveKeys(APP + "-" + Stores.TENANT_CHECKPOINTS + "-changelog", TENANT);
      assertTrue(checkpointKeys >= 2 && checkpointKeys <= 10, "checkpoint keys: " + checkpointKeys);
      // ... the planted anomalies are found, the stale read is reported as such, and every other
      // anomaly is one the unsegmented check proves
      for (final Anomaly a : seen) {
        if (!"StaleReadBeyondHorizon".equals(a.getName())) {
          assertTrue(provable.contains(a.getUniqueId()), "not proved by the whole history: " + a);
        }
      }
      final TenantVerdict verdict = latest(verdictsSeen);
      assertTrue(verdict.getCounts().getFindingsByKind().containsKey("STALE_READ_BEYOND_HORIZON"),
          verdict.getCounts().getFindingsByKind().toString());
      assertTrue(verdict.getCounts().getFindingsByKind().containsKey("HORIZON_PRUNED"),
          verdict.getCounts().getFindingsByKind().toString());

      // When: restarted on an empty state directory (restored from the changelogs), a new lost update
      final int before = seen.size();
      props.put(IsoWatchStreamsConfig.STATE_DIR_CONFIG, dir.resolve("state-wiped").toString());
      try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
        await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
        produce(lostUpdatePair(lastEnd + 1_000));
        tick();
        await().atMost(PATIENCE).until(() -> poll(anomalies, seen).size() >= before + 1);
        await().during(Duration.ofSeconds(2)).atMost(PATIENCE).until(() -> poll(anomalies, seen).size() == before + 1);
        await().atMost(PATIENCE).until(() -> !poll(verdicts, verdictsSeen).isEmpty()
            && latest(verdictsSeen).getCounts().getTransactionsChecked() == txns.size() + 2);
        assertEquals(1.0, sample(app, MetricNames.TENANT_RESTORES_TOTAL));
      }
      // Then: exactly the new lost update, and no anomaly id twice
      assertEquals(Set.of("fresh-a", "fresh-b"), Set.copyOf(seen.get(before).getTransactions().stream()
          .map(t -> t.getTxn()).toList()));
      assertEquals(seen.size(), seen.stream().map(Anomaly::getUniqueId).distinct().count());
    }
  }

  private Map<String, Object> appConfig(final Path stateDir) {
    final Map<String, Object> p = CheckerItConfig.base(KAFKA.bootstrapServers(), REGISTRY.url(), APP, stateDir);
    p.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "0");
    p.put(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "127.0.0.1");
    p.put(IsoWatchStreamsConfig.VERDICT_INTERVAL_MS_CONFIG, "300");
    p.put(IsoWatchStreamsConfig.CHECK_IDLE_FLUSH_MS_CONFIG, "60000");
    p.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "1");
    p.put(IsoWatchStreamsConfig.CHECK_HORIZON_TRANSACTIONS_CONFIG, Long.toString(HORIZON));
    p.put(IsoWatchStreamsConfig.CHECK_PRUNE_INTERVAL_MS_CONFIG, "1000");
    return p;
  }

  private static double sample(final CheckerApp app, final String metric) {
    final Double v = app.metrics().sample(metric, new String[] {"tenant"}, new String[] {TENANT});
    return v == null ? 0 : v;
  }

  /**
   * Keys of the tenant alive at the end of a changelog as a restoring reader sees it (the latest
   * value of each key, tombstones removing it), read committed from the beginning.
   */
  private static int liveKeys(final String topic, final String tenant) {
    return (int) live(topic, tenant).size();
  }

  /** The inputs the tenant's live tenant-transactions entries hold (up to 32 per entry). */
  private static int liveInputs(final String topic, final String tenant) {
    return live(topic, tenant).values().stream()
        .mapToInt(io.isowatch.streams.processor.StoredInputEntries::count).sum();
  }

  /** The tenant's live keys of a changelog and their latest values. */
  private static Map<ByteBuffer, byte[]> live(final String topic, final String tenant) {
    final Map<ByteBuffer, byte[]> live = new HashMap<>();
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(),
        new ByteArrayDeserializer())) {
      final List<TopicPartition> parts = c.partitionsFor(topic).stream()
          .map(p -> new TopicPartition(topic, p.partition())).toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      final Map<TopicPartition, Long> end = c.endOffsets(parts);
      while (parts.stream().anyMatch(p -> c.position(p) < end.get(p))) {
        for (final ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          final ByteBuffer key = ByteBuffer.wrap(r.key());
          final int tenantLength = key.getInt(0);
          if (new String(r.key(), 4, tenantLength, java.nio.charset.StandardCharsets.UTF_8).equals(tenant)) {
            if (r.value() != null) {
              live.put(key, r.value());
            } else {
              live.remove(key);
            }
          }
        }
      }
    }
    return live;
  }

  private static List<TransactionEvent> lostUpdatePair(final long end) {
    final List<TransactionEvent> out = new ArrayList<>();
    for (final String side : List.of("a", "b")) {
      out.add(TransactionEvents.fromCore(TENANT, new Transaction("fresh-" + side, "fresh-" + side, 0,
          TxnStatus.COMMITTED, end - 5, end + ("a".equals(side) ? 0 : 1),
          List.of(Op.read("fresh-key", 0L), Op.write("fresh-key", "a".equals(side) ? 1L : 2L)), null, null, 0)));
    }
    return out;
  }

  private void produce(final List<TransactionEvent> events) throws Exception {
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata> last = null;
      for (final TransactionEvent e : events) {
        // Asynchronous: one tenant's records go to one partition in send order all the same.
        last = producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), null, nextTimestamp++,
            e.getTenant(), e));
      }
      producer.flush();
      partition = last.get().partition();
    }
  }

  /** Moves the tenant partition's stream time five minutes on, so that the idle flush releases its tail. */
  private void tick() throws Exception {
    nextTimestamp += Duration.ofMinutes(5).toMillis();
    final TransactionEvent tick = TransactionEvents.fromCore(CLOCK, new Transaction("tick-" + nextTimestamp, "clock",
        Transaction.NO_SEQ, TxnStatus.COMMITTED, Transaction.NO_TIME, Transaction.NO_TIME,
        List.of(Op.read("c", 0L)), null, null, 0));
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), partition, nextTimestamp, CLOCK, tick)).get();
    }
  }

  private KafkaProducer<String, TransactionEvent> producer() {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, "5"), new StringSerializer(),
        serdes.valueSerde(TransactionEvent.class).serializer());
  }

  private <V extends org.apache.avro.specific.SpecificRecord> KafkaConsumer<String, V> consumer(
      final String topic, final Class<V> type) {
    return KAFKA.readCommitted(topic, "it-seg-reader-" + topic, serdes.valueSerde(type).deserializer());
  }

  private static <V> List<V> poll(final KafkaConsumer<String, V> consumer, final List<V> into) {
    consumer.poll(Duration.ofMillis(200)).forEach(r -> {
      if (TENANT.equals(r.key())) {
        into.add(r.value());
      }
    });
    return into;
  }

  private static List<String> names(final List<Anomaly> anomalies) {
    return anomalies.stream().map(a -> a.getName() == null ? a.getType() : a.getName()).toList();
  }

  private static TenantVerdict latest(final List<TenantVerdict> verdicts) {
    return verdicts.get(verdicts.size() - 1);
  }
}
