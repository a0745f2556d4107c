package io.isowatch.cli.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.cli.testkit.CheckCommand;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.avro.AnomalyRecords;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.CheckerApp;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.testkit.CheckJsonIds;
import io.isowatch.streams.testkit.CheckerItConfig;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import io.isowatch.streams.testkit.TestEvents;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming checker end to end: a real in-JVM broker, the real registry, Kafka Streams with
 * exactly-once v2. A generated history is produced, checked by {@code isowatch run}'s app, and
 * what lands on the anomalies and verdicts topics is compared with {@code isowatch check} on the
 * same file; then the app restarts (same state directory, then an empty one restored from the
 * changelogs) and publishes only what is new.
 */
@Tag("integration")
class StreamingCheckerIT {
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String TENANT = "acme";
  private static final String CLOCK = "it-clock";
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Topics TOPICS = Topics.defaults();

  @TempDir Path dir;

  private final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url()));
  /** Record time of every event: an hour ago, so that clock ticks after it are not in the future. */
  private final long baseTimestamp = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
  private int partition = -1;
  private long clockTicks;

  @Test
  void shouldPublishWhatCheckReportsAndNothingTwiceAcrossRestartsWhenRunOnARealBroker() throws Exception {
    // Given: a history with injected anomalies, as a file and as events on the input topic.
    final History history = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
        .withSeed(42).withTransactions(300).withSessions(8).withKeys(30)
        .withInjections(Injection.parseList("LostUpdate:2,WriteSkew:1,LongFork:1")));
    final JsonNode check = CheckCommand.json(history, dir.resolve("history.jsonl"));
    final CheckResult online = OnlineChecker.check(
        new History(history.transactions().stream().map(t -> TransactionEvents.toCore(
            TransactionEvents.fromCore(TENANT, t))).toList()), CheckOptions.defaults());
    KAFKA.createTopics(TOPICS.all());
    produce(history.transactions().stream().map(t -> TransactionEvents.fromCore(TENANT, t)).toList());
    final Map<String, Object> props = appConfig(dir.resolve("state"));

    try (KafkaConsumer<String, Anomaly> anomalies = consumer(TOPICS.anomalies().name(), Anomaly.class);
        KafkaConsumer<String, TenantVerdict> verdicts = consumer(TOPICS.verdicts().name(), TenantVerdict.class)) {
      final List<Anomaly> seen = new ArrayList<>();
      final List<TenantVerdict> verdictsSeen = new ArrayList<>();
      // When: the app runs and the tenant's tail is flushed.
      try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
        await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
        tick();
        final int expected = check.get("anomalies").size();
        await().atMost(PATIENCE).until(() -> poll(anomalies, seen) >= expected);
        await().atMost(PATIENCE).until(() -> poll(verdicts, verdictsSeen) > 0
            && latest(verdictsSeen).getCounts().getTransactionsChecked() == history.size());
        // Then: the anomalies are those of `isowatch check` on the file (by id and name) ...
        assertEquals(checkAnomalies(check), names(seen));
        // ... and, field for field, those of the online engine's check of the same history.
        assertEquals(comparable(online.anomalies().stream()
            .map(a -> AnomalyRecords.toAvro(TENANT, a, 0L, null)).toList()), comparable(seen));
        final TenantVerdict verdict = latest(verdictsSeen);
        final Map<String, String> levels = new TreeMap<>();
        verdict.getLevels().forEach(l -> levels.put(l.getLevel().name(), l.getVerdict().name()));
        final Map<String, String> checkLevels = new TreeMap<>();
        check.get("verdicts").fields().forEachRemaining(e -> checkLevels.put(e.getKey(), e.getValue().asText()));
        assertEquals(checkLevels, levels);
        assertEquals(countsByName(check), verdict.getCounts().getAnomaliesByName());
        // ... and the HTTP endpoint reports it.
        assertEquals(200, get(app.httpPort(), "/health").statusCode());
        final String metrics = get(app.httpPort(), "/metrics").body();
        assertTrue(metrics.contains(MetricNames.TRANSACTIONS_CHECKED_TOTAL + "{tenant=\"acme\",} "
            + (double) history.size()), metrics);
        assertTrue(metrics.contains(MetricNames.KAFKA_STREAMS_PREFIX + "stream_thread_metrics_process_total"),
            "Kafka Streams metrics bridged");
      }

      // When: restarted on the same state directory, a new lost update arrives.
      final long lastEnd = history.transactions().stream().mapToLong(t -> t.end()).max().orElseThrow();
      final int before = seen.size();
      try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
        await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
        produce(TestEvents.lostUpdate(TENANT, "n1", "fresh-1", lastEnd + 10 - 5, lastEnd + 10));
        tick();
        await().atMost(PATIENCE).until(() -> poll(anomalies, seen) >= before + 1);
        assertEquals(1.0, app.metrics().sample(MetricNames.TENANT_RESTORES_TOTAL,
            new String[] {"tenant"}, new String[] {TENANT}));
      }
      // When: restarted on an empty state directory (restored from the changelogs), another one.
      props.put(IsoWatchStreamsConfig.STATE_DIR_CONFIG, dir.resolve("state-wiped").toString());
      try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
        await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
        produce(TestEvents.lostUpdate(TENANT, "n2", "fresh-2", lastEnd + 20 - 5, lastEnd + 20));
        tick();
        await().atMost(PATIENCE).until(() -> poll(anomalies, seen) >= before + 2);
        // A moment for anything republished to show up, read committed.
        await().during(Duration.ofSeconds(2)).atMost(PATIENCE).until(() -> poll(anomalies, seen) == before + 2);
      }
      // Then: exactly two new anomalies, the new lost updates, and no id twice.
      final List<Anomaly> fresh = seen.subList(before, seen.size());
      assertEquals(List.of(Set.of("n1-a", "n1-b"), Set.of("n2-a", "n2-b")), fresh.stream()
          .map(a -> Set.copyOf(a.getTransactions().stream().map(t -> t.getTxn()).toList())).toList());
      assertEquals(seen.size(), seen.stream().map(Anomaly::getUniqueId).distinct().count());
    }
  }

  private Map<String, Object> appConfig(final Path stateDir) {
    final Map<String, Object> p = CheckerItConfig.base(KAFKA.bootstrapServers(), REGISTRY.url(),
        "it-checker", stateDir);
    p.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "0");
    p.put(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "127.0.0.1");
    p.put(IsoWatchStreamsConfig.VERDICT_INTERVAL_MS_CONFIG, "300");
    p.put(IsoWatchStreamsConfig.CHECK_IDLE_FLUSH_MS_CONFIG, "1000");
    return p;
  }

  /** {@code isowatch check FILE --json}, in process. */
  private static Map<String, String> checkAnomalies(final JsonNode check) {
    final Map<String, String> out = new TreeMap<>();
    for (final JsonNode a : check.get("anomalies")) {
      final String name = a.get("name").isNull() ? null : a.get("name").asText();
      out.put(CheckJsonIds.uniqueId(TENANT, a), name == null ? a.get("type").asText() : name);
    }
    return out;
  }

  private static Map<String, Long> countsByName(final JsonNode check) {
    final Map<String, Long> out = new TreeMap<>();
    check.get("stats").get("anomaliesByName").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asLong()));
    return out;
  }

  private static Map<String, String> names(final List<Anomaly> anomalies) {
    final Map<String, String> out = new TreeMap<>();
    anomalies.forEach(a -> out.put(a.getUniqueId(), a.getName() == null ? a.getType() : a.getName()));
    return out;
  }

  private static Map<String, Anomaly> comparable(final List<Anomaly> anomalies) {
    final Map<String, Anomaly> out = new TreeMap<>();
    anomalies.forEach(a -> out.put(a.getUniqueId(),
        Anomaly.newBuilder(a).setDetectedAtMicros(0L).setDetectionLatencyMicros(null).build()));
    return out;
  }

  private void produce(final List<TransactionEvent> events) throws Exception {
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      for (final TransactionEvent e : events) {
        partition = producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), null, baseTimestamp,
            e.getTenant(), e)).get().partition();
      }
    }
  }

  /**
   * Moves the stream time of the tenant's partition five minutes further past the events' record
   * time, so that the idle-flush punctuator releases the tenant's buffer: a read-only transaction
   * of another tenant, sent to that partition (brokers refuse timestamps over an hour ahead).
   */
  private void tick() throws Exception {
    clockTicks++;
    final TransactionEvent tick = TransactionEvent.newBuilder()
        .setTenant(CLOCK).setSession("clock").setSeq(clockTicks).setTxn("tick-" + clockTicks)
        .setStatus(TxnStatus.COMMITTED).setOps(List.of(new Op(OpType.READ, "c", 0L, null))).build();
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), partition,
          baseTimestamp + Duration.ofMinutes(5 * clockTicks).toMillis(), CLOCK, tick)).get();
    }
  }

  private KafkaProducer<String, TransactionEvent> producer() {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(),
        serdes.valueSerde(TransactionEvent.class).serializer());
  }

  private <V extends org.apache.avro.specific.SpecificRecord> KafkaConsumer<String, V> consumer(
      final String topic, final Class<V> type) {
    return KAFKA.readCommitted(topic, "it-reader-" + topic, serdes.valueSerde(type).deserializer());
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

  private static TenantVerdict latest(final List<TenantVerdict> verdicts) {
    return verdicts.get(verdicts.size() - 1);
  }

  private static HttpResponse<String> get(final int port, final String path) throws Exception {
    return HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
