package io.isowatch.cli.agent;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.cli.AgentCommand;
import io.isowatch.cli.CliRun;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.history.Transaction;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isowatch agent --kafka} end to end: the agent runs the faulty target and publishes to a
 * real in-JVM broker through the real registry while also writing the file; what a consumer reads
 * back with the registry's deserializer is the file's history, session by session in order, every
 * record keyed by the tenant; and the streaming checker finds the lost updates the agent injected,
 * as {@code isowatch check} does on the file ({@link StreamingPath}).
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KafkaSinkIT {
  @RegisterExtension static final StreamingPath PATH = new StreamingPath();

  private static final String TENANT = "acme";
  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Topics TOPICS = Topics.defaults();

  @TempDir Path dir;

  @Test
  @Order(2)
  void shouldPublishTheFilesTransactionsKeyedByTenantInSessionOrderWhenRunWithKafkaAndOut() throws Exception {
    // Given
    final Path file = dir.resolve("faulty.jsonl");

    // When
    final CliRun r = publishLostUpdates(TENANT, 7, file);

    // Then: the run succeeded and says every record was acknowledged.
    assertEquals(0, r.exit(), r.err() + r.out());
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

    // When
    final CliRun r = agent("--target", "faulty", "--sessions", "2", "--keys", "10", "--txns", "20",
        "--seed", "7", "--progress", "0", "--tenant", TENANT,
        "--kafka", PATH.bootstrapServers(), "--registry", PATH.registryUrl().toString());

    // Then: exit 1 before any transaction ran, with the reason.
    assertEquals(1, r.exit(), r.err() + r.out());
    assertTrue(r.err().contains("the TransactionEvent schema of isowatch.txn-events.v1 could not be found "
        + "(it must be registered; --dev registers it)"), r.err());
    assertTrue(r.err().contains("No artifact with ID 'isowatch.txn-events.v1-value'"), r.err());
    assertEquals("", r.out());
  }

  @Test
  @Order(3)
  void shouldLetTheStreamingCheckerFindTheInjectedLostUpdatesWhenTheAgentPublishes() throws Exception {
    // Given: a faulty run published for its own tenant and written to a file.
    final String tenant = "streamed";
    final Path file = dir.resolve("streamed.jsonl");
    final CliRun r = publishLostUpdates(tenant, 11, file);
    assertEquals(0, r.exit(), r.err() + r.out());
    assertTrue(r.out().matches("(?s).*injected\\s+lostupdate [1-9].*"), r.out());

    // When: the streaming checker runs over the topic and `isowatch check` over the file.
    final PathResult result = PATH.verify(tenant, file, 400);

    // Then: both found the lost updates (and agree: verify asserts it).
    assertTrue(result.names().contains("LostUpdate"), result.summary());
  }

  /** 400 transactions of 4 sessions on 10 keys of the faulty store, losing updates, published with --dev and --out. */
  private static CliRun publishLostUpdates(final String tenant, final long seed, final Path file) {
    return agent("--target", "faulty:lostupdate=0.05", "--sessions", "4", "--keys", "10",
        "--txns", "400", "--seed", Long.toString(seed), "--progress", "0", "--tenant", tenant,
        "--kafka", PATH.bootstrapServers(), "--registry", PATH.registryUrl().toString(), "--dev",
        "--out", file.toString());
  }

  private static CliRun agent(final String... args) {
    return CliRun.of(new AgentCommand(), args);
  }

  private List<ConsumerRecord<String, TransactionEvent>> consumeAll(final int expected) {
    final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.production(PATH.registryUrl()));
    final List<ConsumerRecord<String, TransactionEvent>> seen = new ArrayList<>();
    try (KafkaConsumer<String, TransactionEvent> consumer = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, PATH.bootstrapServers(),
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
