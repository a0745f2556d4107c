package io.isowatch.cli.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.cli.testkit.CheckCommand;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.localstack.LocalRegistry;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.CheckerApp;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.testkit.CheckerItConfig;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.TcpGate;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A schema registry outage is not bad input (issue 10, item 3): events are published, the registry
 * stops, the checker starts (so it has no schema cached), retries instead of dead-lettering, and
 * once the registry is back (behind the same address, with the same schema id), it publishes exactly
 * what {@code isowatch check} reports on the same history, with nothing in the dead-letter topic.
 * The checker reaches the registry through a {@link TcpGate}: the restarted registry (in memory)
 * gets the schema again before the gate opens, as a registry with durable storage would have it.
 */
@Tag("integration")
class RegistryOutageIT {
  private static final Logger LOG = LoggerFactory.getLogger(RegistryOutageIT.class);

  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();

  private static final String TENANT = "acme";
  private static final Duration PATIENCE = Duration.ofSeconds(120);
  private static final Topics TOPICS = Topics.defaults();

  @TempDir Path dir;

  private final long baseTimestamp = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
  private int partition = -1;

  @Test
  void shouldDeadLetterNothingAndPublishWhatCheckReportsWhenTheRegistryIsDownThenBack() throws Exception {
    // Given: a history with injected anomalies, as a file and as events published while the
    // registry runs (the producer registers the event schema).
    final History history = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
        .withSeed(7).withTransactions(300).withSessions(8).withKeys(30)
        .withInjections(Injection.parseList("LostUpdate:2,WriteSkew:1,FracturedRead:1")));
    final JsonNode check = CheckCommand.json(history, dir.resolve("history.jsonl"));
    KAFKA.createTopics(TOPICS.all());
    final Path logs = Path.of("target").toAbsolutePath();
    // The checker reaches the registry through a gate: shut, it is unreachable (connection refused).
    final TcpGate gate = new TcpGate(freePort());
    final URI url = URI.create("http://127.0.0.1:" + gate.port());
    final int schemaId;
    try (LocalRegistry first = LocalRegistry.start(logs, notice -> LOG.info("{}", notice))) {
      gate.open(first.url().getPort());
      schemaId = produce(url, history.transactions().stream().map(t -> TransactionEvents.fromCore(TENANT, t)).toList());
    }
    gate.shut();
    // ... and the registry is gone when the checker starts: it has no schema id cached.
    final Map<String, Object> props = CheckerItConfig.base(KAFKA.bootstrapServers(), url, "registry-outage",
        dir.resolve("state"));
    props.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "-1");
    props.put(IsoWatchStreamsConfig.VERDICT_INTERVAL_MS_CONFIG, "300");
    props.put(IsoWatchStreamsConfig.CHECK_IDLE_FLUSH_MS_CONFIG, "1000");
    // A transient registry failure fails the stream thread, which is replaced; the failed thread does
    // not leave the group, so the replacement's rebalance waits for the dead member's session to
    // expire: 45 s by default, over a third of PATIENCE on a loaded machine (as in QuarantineIT).
    props.put("kafka.consumer.session.timeout.ms", "10000");
    try (gate;
        KafkaConsumer<String, Anomaly> anomalies = consumer(url, TOPICS.anomalies().name(), Anomaly.class);
        KafkaConsumer<String, TenantVerdict> verdicts = consumer(url, TOPICS.verdicts().name(), TenantVerdict.class);
        KafkaConsumer<byte[], byte[]> deadLetters = rawConsumer(TOPICS.deadLetters().name());
        CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
      // When: the checker meets the outage (it retries, counted) ...
      await().atMost(PATIENCE).until(() -> registryRetries(app) > 0);
      final double retriesDuringOutage = registryRetries(app);
      // ... and the registry comes back (in memory: it is given the event schema again, under the same
      // id, before the checker can reach it).
      try (LocalRegistry second = LocalRegistry.start(logs, notice -> LOG.info("{}", notice))) {
        assertEquals(schemaId, registerEventSchema(second.url()), "the restarted registry gives the schema its old id");
        gate.open(second.url().getPort());
        tick(url);
        final List<Anomaly> seen = new ArrayList<>();
        final List<TenantVerdict> verdictsSeen = new ArrayList<>();
        final int expected = check.get("anomalies").size();
        await().atMost(PATIENCE).until(() -> poll(anomalies, seen) >= expected);
        await().atMost(PATIENCE).until(() -> poll(verdicts, verdictsSeen) > 0
            && verdictsSeen.get(verdictsSeen.size() - 1).getCounts().getTransactionsChecked() == history.size());
        // Then: nothing was dead-lettered, the app runs, and the anomalies are check's.
        final List<byte[]> letters = new ArrayList<>();
        await().during(Duration.ofSeconds(2)).atMost(PATIENCE).until(() -> {
          deadLetters.poll(Duration.ofMillis(200)).forEach(r -> letters.add(r.value()));
          return letters.isEmpty();
        });
        assertEquals(0, letters.size(), "dead letters");
        assertEquals(KafkaStreams.State.RUNNING, app.state());
        assertTrue(retriesDuringOutage > 0, "the outage was met");
        assertEquals(CheckCommand.anomalyNames(TENANT, check), CheckCommand.names(seen));
        assertEquals(seen.size(), seen.stream().map(Anomaly::getAnomalyId).distinct().count(), "no anomaly twice");
        final TenantVerdict verdict = verdictsSeen.get(verdictsSeen.size() - 1);
        final Map<String, String> levels = new TreeMap<>();
        verdict.getLevels().forEach(l -> levels.put(l.getLevel().name(), l.getVerdict().name()));
        final Map<String, String> checkLevels = new TreeMap<>();
        check.get("verdicts").fields().forEachRemaining(e -> checkLevels.put(e.getKey(), e.getValue().asText()));
        assertEquals(checkLevels, levels);
      }
    }
  }

  private static double registryRetries(final CheckerApp app) {
    final Double v = app.metrics().sample(MetricNames.REGISTRY_RETRIES_TOTAL, new String[0], new String[0]);
    return v == null ? 0 : v;
  }

  /** Publishes the events (the serializer registers the schema); returns the schema id they carry. */
  private int produce(final URI registry, final List<TransactionEvent> events) throws Exception {
    int id = -1;
    try (KafkaProducer<String, TransactionEvent> producer = producer(registry)) {
      for (final TransactionEvent e : events) {
        partition = producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), null, baseTimestamp,
            e.getTenant(), e)).get().partition();
      }
      id = schemaIdOf(registry, events.get(0));
    }
    return id;
  }

  /** Registers the event schema as a producer does (serializing one event); returns its id. */
  private static int registerEventSchema(final URI registry) {
    return schemaIdOf(registry, TransactionEvent.newBuilder().setTenant(TENANT).setSession("s").setSeq(0)
        .setTxn("probe").setStatus(TxnStatus.COMMITTED).setOps(List.of()).build());
  }

  private static int schemaIdOf(final URI registry, final TransactionEvent event) {
    try (Serializer<TransactionEvent> s = new AvroSerdes(AvroSerdeConfig.development(registry))
        .valueSerde(TransactionEvent.class).serializer()) {
      // Confluent framing: magic byte 0, then the 4-byte id.
      return ByteBuffer.wrap(s.serialize(TOPICS.txnEvents().name(), event), 1, 4).getInt();
    }
  }

  /** A read-only transaction of another tenant five minutes later on the tenant's partition: idle flush. */
  private void tick(final URI registry) throws Exception {
    final TransactionEvent tick = TransactionEvent.newBuilder()
        .setTenant("it-clock").setSession("clock").setSeq(1).setTxn("tick-1")
        .setStatus(TxnStatus.COMMITTED).setOps(List.of(new Op(OpType.READ, "c", 0L, null))).build();
    try (KafkaProducer<String, TransactionEvent> producer = producer(registry)) {
      producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), partition,
          baseTimestamp + Duration.ofMinutes(5).toMillis(), "it-clock", tick)).get();
    }
  }

  private static KafkaProducer<String, TransactionEvent> producer(final URI registry) {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(),
        new AvroSerdes(AvroSerdeConfig.development(registry)).valueSerde(TransactionEvent.class).serializer());
  }

  private static <V extends org.apache.avro.specific.SpecificRecord> KafkaConsumer<String, V> consumer(
      final URI registry, final String topic, final Class<V> type) {
    return KAFKA.readCommitted(topic, "outage-reader-" + topic,
        new AvroSerdes(AvroSerdeConfig.development(registry)).valueSerde(type).deserializer());
  }

  private static KafkaConsumer<byte[], byte[]> rawConsumer(final String topic) {
    final KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "outage-reader-" + topic,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
        new ByteArrayDeserializer(), new ByteArrayDeserializer());
    c.subscribe(List.of(topic));
    return c;
  }

  /** Polls once, keeps the values of the tenant (not the clock's); returns how many are kept. */
  private static <V> int poll(final KafkaConsumer<String, V> consumer, final List<V> into) {
    consumer.poll(Duration.ofMillis(200)).forEach(r -> {
      if (TENANT.equals(r.key())) {
        into.add(r.value());
      }
    });
    return into.size();
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
