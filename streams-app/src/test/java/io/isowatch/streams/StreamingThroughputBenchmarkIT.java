package io.isowatch.streams;

import static org.awaitility.Awaitility.await;

import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.replay.EndOffsets;
import io.isowatch.streams.testkit.BenchmarkEvents;
import io.isowatch.streams.testkit.CheckerItConfig;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Throughput of {@code isowatch run}'s app against a real (in-JVM) broker with exactly-once v2:
 * the input is produced first, then the time from RUNNING until every tenant's verdict counts all
 * its transactions is measured. Opt-in (tag {@code benchmark}): {@code mvn -pl streams-app verify
 * -Dit.test=StreamingThroughputBenchmarkIT -Dsurefire.excludedGroups= -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@Tag("integration")
@Tag("benchmark")
class StreamingThroughputBenchmarkIT {
  private static final Logger LOG = LoggerFactory.getLogger(StreamingThroughputBenchmarkIT.class);
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final int TENANTS = 6;
  private static final long PER_TENANT = Long.getLong("isowatch.bench.transactions", 20_000L);
  private static final Topics TOPICS = Topics.defaults();

  @TempDir Path dir;

  @Test
  void shouldReportTheEventsPerSecondWhenRunAgainstARealBroker() throws Exception {
    // Given
    KAFKA.createTopics(TOPICS.all());
    final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url()));
    final List<TransactionEvent> events = BenchmarkEvents.generate(TENANTS, PER_TENANT, "LostUpdate:3");
    final Map<String, Object> producerConfig = new HashMap<>();
    producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
    producerConfig.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    try (KafkaProducer<String, TransactionEvent> producer = new KafkaProducer<>(producerConfig,
        new StringSerializer(), serdes.valueSerde(TransactionEvent.class).serializer())) {
      events.forEach(e -> producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), e.getTenant(), e)));
      producer.flush();
    }
    // The end of the input, as `isowatch replay` gives it: after each partition's last record the
    // checker flushes that partition's tenants, so every transaction gets checked. Without it the
    // reorder buffer keeps, for good, every transaction that follows in canonical order one whose
    // end the watermark (latest end - grace) has not passed: 30-50 per tenant here, not one.
    final EndOffsets ends = EndOffsets.capture(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers()),
        TOPICS.txnEvents().name(), serdes.valueSerde(TransactionEvent.class).deserializer());
    final Map<String, Object> props =
        CheckerItConfig.base(KAFKA.bootstrapServers(), REGISTRY.url(), "isowatch-checker", dir.resolve("state"));
    props.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "-1");
    props.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "1");
    props.put(IsoWatchStreamsConfig.VERDICT_INTERVAL_MS_CONFIG, "500");
    props.put(IsoWatchStreamsConfig.REPLAY_END_OFFSETS_CONFIG, ends.replayEnd().toString());
    try (KafkaConsumer<String, TenantVerdict> verdicts = new KafkaConsumer<>(Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG, "bench-reader",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
        new StringDeserializer(), serdes.valueSerde(TenantVerdict.class).deserializer());
        CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
      verdicts.subscribe(List.of(TOPICS.verdicts().name()));
      await().atMost(Duration.ofSeconds(60)).until(() -> app.state() == KafkaStreams.State.RUNNING);
      // When
      final long t0 = System.nanoTime();
      final Map<String, Long> checked = new HashMap<>();
      final long target = events.size();
      await().atMost(Duration.ofMinutes(10)).pollInterval(Duration.ofMillis(100)).until(() -> {
        verdicts.poll(Duration.ofMillis(100)).forEach(r ->
            checked.put(r.key(), r.value().getCounts().getTransactionsChecked()));
        return checked.values().stream().mapToLong(Long::longValue).sum() >= target;
      });
      // Then
      final double seconds = (System.nanoTime() - t0) / 1e9;
      LOG.info("Streaming throughput events=[{}] tenants=[{}] partitions=[{}] seconds=[{}] eventsPerSecond=[{}]",
          events.size(), TENANTS, TOPICS.txnEvents().partitions(), String.format("%.2f", seconds),
          String.format("%.0f", events.size() / seconds));
    }
  }
}
