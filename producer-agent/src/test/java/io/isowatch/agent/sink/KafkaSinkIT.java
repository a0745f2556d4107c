package io.isowatch.agent.sink;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.cli.AgentCommand;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.history.Transaction;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.streams.CheckerApp;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.Topics;
import io.isowatch.streams.avro.TransactionEvents;
import io.isowatch.streams.serde.AvroSerdeConfig;
import io.isowatch.streams.serde.AvroSerdes;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code isowatch agent --kafka} end to end: the agent runs the faulty target and publishes to a
 * real in-JVM broker through the real registry while also writing the file; what a consumer reads
 * back with the registry's deserializer is the file's history, session by session in order, every
 * record keyed by the tenant; and the streaming checker finds the lost updates the agent injected.
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaSinkIT {
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String TENANT = "acme";
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Topics TOPICS = Topics.defaults();

  @TempDir Path dir;

  private record Result(int code, String out, String err) {}

  @Test
  @Order(2)
  void shouldPublishTheFilesTransactionsKeyedByTenantInSessionOrderWhenRunWithKafkaAndOut() throws Exception {
    // Given: the topics (created by the first test or now).
    KAFKA.createTopics(TOPICS.all());
    final Path file = dir.resolve("faulty.jsonl");

    // When
    final Result r = agent("--target", "faulty:lostupdate=0.05", "--sessions", "4", "--keys", "10",
        "--txns", "400", "--seed", "7", "--progress", "0", "--tenant", TENANT,
        "--kafka", KAFKA.bootstrapServers(), "--registry", REGISTRY.url().toString(), "--dev",
        "--out", file.toString());

    // Then: the run succeeded and says every record was acknowledged.
    assertEquals(0, r.code(), r.err() + r.out());
    assertTrue(r.out().contains(": 400 accepted, 400 acknowledged,"), r.out());
    assertTrue(r.out().contains(": 400 accepted, 400 written,"), r.out());
    final List<Transaction> recorded = HistoryIO.read(file, HistoryFormat.JSONL).transactions().stream()
        .map(KafkaSinkIT::withoutLine).toList();
    assertEquals(400, recorded.size());
    final List<ConsumerRecord<String, TransactionEvent>> consumed = consumeAll(recorded.size());
    assertEquals(Set.of(TENANT), consumed.stream().map(ConsumerRecord::key).collect(Collectors.toSet()));
    assertEquals(1, consumed.stream().map(ConsumerRecord::partition).distinct().count(), "one tenant, one partition");
    assertEquals(bySession(recorded),
        bySession(consumed.stream().map(c -> TransactionEvents.toCore(c.value())).toList()));
  }

  @Test
  @Order(1)
  void shouldFailTheRunLoudlyWhenTheSchemaIsNotRegisteredOutsideDevMode() throws Exception {
    // Given: a registry that does not know the schema yet (this test runs first), and no --dev.
    KAFKA.createTopics(TOPICS.all());

    // When
    final Result r = agent("--target", "faulty", "--sessions", "2", "--keys", "10", "--txns", "20",
        "--seed", "7", "--progress", "0", "--tenant", TENANT,
        "--kafka", KAFKA.bootstrapServers(), "--registry", REGISTRY.url().toString());

    // Then: exit 1 before any transaction ran, with the reason.
    assertEquals(1, r.code(), r.err() + r.out());
    assertTrue(r.err().contains("the TransactionEvent schema of isowatch.txn-events.v1 could not be found "
        + "(it must be registered; --dev registers it)"), r.err());
    assertTrue(r.err().contains("No artifact with ID 'isowatch.txn-events.v1-value'"), r.err());
    assertEquals("", r.out());
  }

  @Test
  @Order(3)
  void shouldLetTheStreamingCheckerFindTheInjectedLostUpdatesWhenTheAgentPublishes() throws Exception {
    // Given: a faulty run published for its own tenant.
    KAFKA.createTopics(TOPICS.all());
    final String tenant = "streamed";
    final Result r = agent("--target", "faulty:lostupdate=0.05", "--sessions", "4", "--keys", "10",
        "--txns", "400", "--seed", "11", "--progress", "0", "--tenant", tenant,
        "--kafka", KAFKA.bootstrapServers(), "--registry", REGISTRY.url().toString(), "--dev");
    assertEquals(0, r.code(), r.err() + r.out());
    assertTrue(r.out().matches("(?s).*injected\\s+lostupdate [1-9].*"), r.out());
    final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url()));

    // When: the streaming checker runs over the topic, and the tenant's partition's stream time is
    // moved past the idle flush by another tenant's record five minutes ahead.
    final List<Anomaly> seen = new ArrayList<>();
    try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(appConfig()));
        KafkaConsumer<String, Anomaly> anomalies = new KafkaConsumer<>(Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG, "it-anomaly-reader",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
            new StringDeserializer(), serdes.valueSerde(Anomaly.class).deserializer())) {
      await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
      tick(serdes, partitionOf(tenant));
      anomalies.subscribe(List.of(TOPICS.anomalies().name()));
      await().atMost(PATIENCE).until(() -> {
        anomalies.poll(Duration.ofMillis(200)).forEach(a -> {
          if (tenant.equals(a.key())) {
            seen.add(a.value());
          }
        });
        return seen.stream().anyMatch(a -> "LostUpdate".equals(a.getName()));
      });
    }

    // Then: a LostUpdate for the tenant was published.
    assertTrue(seen.stream().allMatch(a -> tenant.equals(a.getTenant())));
    assertTrue(seen.stream().anyMatch(a -> "LostUpdate".equals(a.getName())));
  }

  private int partitionOf(final String tenant) {
    try (KafkaConsumer<String, TransactionEvent> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "it-partition-finder",
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
        new StringDeserializer(), new AvroSerdes(AvroSerdeConfig.production(REGISTRY.url()))
            .valueSerde(TransactionEvent.class).deserializer())) {
      c.subscribe(List.of(TOPICS.txnEvents().name()));
      final int[] partition = {-1};
      await().atMost(PATIENCE).until(() -> {
        c.poll(Duration.ofMillis(200)).forEach(rec -> {
          if (tenant.equals(rec.key())) {
            partition[0] = rec.partition();
          }
        });
        return partition[0] >= 0;
      });
      return partition[0];
    }
  }

  /** A read-only transaction of a clock tenant, five minutes ahead, on the tenant's partition. */
  private void tick(final AvroSerdes serdes, final int partition) throws Exception {
    final TransactionEvent tick = TransactionEvent.newBuilder()
        .setTenant("it-clock").setSession("clock").setSeq(0).setTxn("tick-0")
        .setStatus(TxnStatus.COMMITTED).setOps(List.of(new Op(OpType.READ, "c", 0L))).build();
    try (KafkaProducer<String, TransactionEvent> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
        new StringSerializer(), serdes.valueSerde(TransactionEvent.class).serializer())) {
      producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), partition,
          System.currentTimeMillis() + Duration.ofMinutes(5).toMillis(), "it-clock", tick)).get();
    }
  }

  private Map<String, Object> appConfig() {
    final Map<String, Object> p = new HashMap<>();
    p.put(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
    p.put(IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, REGISTRY.url().toString());
    p.put(IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true");
    p.put(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG, "it-agent-checker");
    p.put(IsoWatchStreamsConfig.STATE_DIR_CONFIG, dir.resolve("state").toString());
    p.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "0");
    p.put(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "127.0.0.1");
    p.put(IsoWatchStreamsConfig.CHECK_IDLE_FLUSH_MS_CONFIG, "1000");
    p.put(IsoWatchStreamsConfig.SHUTDOWN_TIMEOUT_MS_CONFIG, "20000");
    p.put("kafka.commit.interval.ms", "100");
    return p;
  }

  private static Result agent(final String... args) {
    final CommandLine cl = new CommandLine(new AgentCommand());
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    final int code = cl.execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  private List<ConsumerRecord<String, TransactionEvent>> consumeAll(final int expected) {
    final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.production(REGISTRY.url()));
    final List<ConsumerRecord<String, TransactionEvent>> seen = new ArrayList<>();
    try (KafkaConsumer<String, TransactionEvent> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "it-agent-reader",
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
        new StringDeserializer(), serdes.valueSerde(TransactionEvent.class).deserializer())) {
      consumer.subscribe(List.of(TOPICS.txnEvents().name()));
      await().atMost(PATIENCE).until(() -> {
        consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
        return seen.size() >= expected;
      });
      // A moment for anything beyond the expected count (a duplicate) to show up.
      await().during(Duration.ofSeconds(1)).atMost(PATIENCE).until(() -> {
        consumer.poll(Duration.ofMillis(100)).forEach(seen::add);
        return seen.size() == expected;
      });
    }
    return seen;
  }

  private static Map<String, List<Transaction>> bySession(final List<Transaction> txns) {
    return txns.stream().collect(Collectors.groupingBy(Transaction::session, LinkedHashMap::new, Collectors.toList()))
        .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
  }

  /** The file's transactions carry their line number; events do not. */
  private static Transaction withoutLine(final Transaction t) {
    return new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops(), t.tenant(),
        t.level(), 0);
  }
}
