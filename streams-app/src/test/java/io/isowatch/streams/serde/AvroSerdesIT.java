package io.isowatch.streams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.apicurio.registry.rest.client.exception.ArtifactNotFoundException;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.Edge;
import io.isowatch.schemas.EdgeKind;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.Verdict;
import io.isowatch.schemas.VerdictCounts;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.serde.TopicSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.testkit.CcompatClient;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import io.isowatch.streams.testkit.TestEvents;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.Schema;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * IsoWatch's serdes through a real broker and a real registry: what goes on the wire is the
 * Confluent format, readable by id through the Confluent-compatible API.
 */
@Tag("integration")
class AvroSerdesIT {
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final Topics TOPICS = Topics.defaults();
  private static final Duration POLL_TIMEOUT = Duration.ofSeconds(30);

  @BeforeAll
  static void createTopics() throws Exception {
    KAFKA.createTopics(TOPICS.all());
  }

  @Test
  void shouldRoundTripEventsInConfluentWireFormatWhenAutoRegistering() throws Exception {
    // Given
    final TopicSerdes<String, TransactionEvent> serdes =
        new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url())).forTopic(TOPICS.txnEvents());
    final List<TransactionEvent> sent =
        List.of(
            TestEvents.rmw("acme", "s1", 0, "T1", "x", null, 1),
            TestEvents.rmw("acme", "s1", 1, "T2", "x", 1L, 2),
            TestEvents.abortedRead("acme", "s2", 0, "T3", "y"));
    // When
    produce(serdes, sent);
    final List<TransactionEvent> received =
        consume(serdes.topic(), sent.size(), serdes.value().deserializer());
    final List<byte[]> raw = consume(serdes.topic(), sent.size(), new ByteArrayDeserializer());
    // Then: the records come back equal, field for field.
    assertEquals(sent, received);
    // Then: each value is magic byte 0, a 4-byte schema id, and plain Avro binary of the record.
    final int id = ByteBuffer.wrap(raw.get(0), 1, 4).getInt();
    assertTrue(id > 0, "schema id " + id);
    for (int i = 0; i < raw.size(); i++) {
      final byte[] bytes = raw.get(i);
      assertEquals(0, bytes[0], "magic byte");
      assertEquals(id, ByteBuffer.wrap(bytes, 1, 4).getInt(), "one schema id for one schema");
      assertEquals(sent.get(i), decodePlainAvro(Arrays.copyOfRange(bytes, 5, bytes.length)));
    }
    // Then: the id resolves through the Confluent-compatible API to the event schema.
    final CcompatClient ccompat = new CcompatClient(REGISTRY.url());
    final CcompatClient.Response byId = ccompat.schemaById(id);
    assertEquals(200, byId.status());
    assertEquals(TransactionEvent.getClassSchema(), new Schema.Parser().parse(byId.body().get("schema").asText()));
    final JsonNode versions = ccompat.versions(TOPICS.txnEvents().valueSubject()).body();
    assertEquals("[1]", versions.toString());
  }

  @Test
  void shouldRefuseToSerializeWhenProductionAndTheSchemaIsNotRegistered() throws Exception {
    // Given: production serdes, and nobody registered the Anomaly schema yet.
    final Serde<Anomaly> production =
        new AvroSerdes(AvroSerdeConfig.production(REGISTRY.url())).forTopic(TOPICS.anomalies()).value();
    final Anomaly anomaly = lostUpdate();
    final String topic = TOPICS.anomalies().name();
    // When
    final ArtifactNotFoundException refused =
        assertThrows(ArtifactNotFoundException.class, () -> production.serializer().serialize(topic, anomaly));
    // Then
    assertTrue(refused.getMessage().contains("isowatch.anomalies.v1-value"), refused.getMessage());
  }

  @Test
  void shouldUseTheRegisteredIdWhenProductionAndTheSchemaWasRegisteredThroughCcompat() throws Exception {
    // Given: the release process registers the schema through the Confluent-compatible API.
    final CcompatClient ccompat = new CcompatClient(REGISTRY.url());
    final String subject = TOPICS.verdicts().valueSubject();
    final Schema schema = TenantVerdict.getClassSchema();
    final CcompatClient.Response registered = ccompat.register(subject, schema);
    assertEquals(200, registered.status(), registered.body().toString());
    final int registeredId = registered.body().get("id").asInt();
    final Serde<TenantVerdict> production =
        new AvroSerdes(AvroSerdeConfig.production(REGISTRY.url())).forTopic(TOPICS.verdicts()).value();
    final TenantVerdict verdict = verdict();
    // When
    final byte[] bytes = production.serializer().serialize(TOPICS.verdicts().name(), verdict);
    final TenantVerdict back =
        production.deserializer().deserialize(TOPICS.verdicts().name(), bytes);
    // Then
    assertEquals(0, bytes[0]);
    assertEquals(registeredId, ByteBuffer.wrap(bytes, 1, 4).getInt());
    assertEquals(verdict, back);
    assertEquals("[1]", ccompat.versions(subject).body().toString(), "nothing registered by the producer");
  }

  private static void produce(
      final TopicSerdes<String, TransactionEvent> serdes, final List<TransactionEvent> events)
      throws Exception {
    final Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<String, TransactionEvent> producer =
        new KafkaProducer<>(config, serdes.key().serializer(), serdes.value().serializer())) {
      for (final TransactionEvent e : events) {
        producer.send(new ProducerRecord<>(serdes.topic(), e.getTenant(), e)).get();
      }
    }
  }

  /** Reads {@code count} records from the start of the topic, in offset order (one tenant: one partition). */
  private static <V> List<V> consume(final String topic, final int count, final Deserializer<V> values) {
    final Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG, "it-" + System.nanoTime(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    final List<V> out = new ArrayList<>();
    try (KafkaConsumer<String, V> consumer = new KafkaConsumer<>(config, new StringDeserializer(), values)) {
      consumer.subscribe(List.of(topic));
      final long deadline = System.nanoTime() + POLL_TIMEOUT.toNanos();
      while (out.size() < count && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(500)).forEach(r -> out.add(r.value()));
      }
    }
    assertEquals(count, out.size(), "records consumed from " + topic);
    return out;
  }

  private static TransactionEvent decodePlainAvro(final byte[] avro) throws Exception {
    final SpecificDatumReader<TransactionEvent> reader = new SpecificDatumReader<>(TransactionEvent.class);
    return reader.read(null, DecoderFactory.get().binaryDecoder(avro, null));
  }

  private static Anomaly lostUpdate() {
    final Function<String, AnomalyTransaction> txn =
        id -> AnomalyTransaction.newBuilder()
            .setTxn(id).setSession("s-" + id).setStatus(TxnStatus.COMMITTED)
            .setOps(TestEvents.rmw("acme", "s", 0, id, "x", 0L, id.hashCode()).getOps())
            .build();
    return Anomaly.newBuilder()
        .setTenant("acme")
        .setAnomalyId(AnomalyIds.of("acme", "G-single", "LostUpdate", List.of("T1", "T2")))
        .setType("G-single")
        .setName("LostUpdate")
        .setViolates(List.of(Level.SSER, Level.SER, Level.SI))
        .setCycle(List.of(
            new Edge("T1", "T2", EdgeKind.RW, "x", 0L),
            new Edge("T2", "T1", EdgeKind.WW, "x", 2L)))
        .setTransactions(List.of(txn.apply("T1"), txn.apply("T2")))
        .setExplanation("T1 and T2 both read x=0 and both overwrote it.")
        .setDetectedAtMicros(1_700_000_000_000_000L)
        .build();
  }

  private static TenantVerdict verdict() {
    return TenantVerdict.newBuilder()
        .setTenant("acme")
        .setAtMicros(1_700_000_000_000_000L)
        .setLevels(List.of(
            new LevelVerdict(Level.SER, Verdict.VIOLATED, "LostUpdate T1,T2"),
            new LevelVerdict(Level.SI, Verdict.UNKNOWN, "blind writes")))
        .setCounts(new VerdictCounts(42L, Map.of("LostUpdate", 1L), 0L, Map.of("BLIND_WRITE", 3L)))
        .build();
  }
}
