package io.isowatch.streams.testkit;

import io.isowatch.localstack.LocalKafka;
import io.isowatch.schemas.topic.TopicReport;
import io.isowatch.schemas.topic.TopicSpec;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit extension over {@link LocalKafka}: a real single-node Kafka 4.3.1 cluster in the test JVM,
 * on a random port, started once per test class:
 *
 * <pre>{@code
 * @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
 * }</pre>
 *
 * <p>Topic auto-creation is off, as on IsoWatch's clusters: create topics with {@link
 * #createTopics}.
 */
public final class EmbeddedKafka implements BeforeAllCallback, AfterAllCallback {
  private LocalKafka kafka;

  @Override
  public void beforeAll(final ExtensionContext context) throws Exception {
    kafka = LocalKafka.start();
  }

  @Override
  public void afterAll(final ExtensionContext context) throws Exception {
    if (kafka != null) {
      kafka.close();
      kafka = null;
    }
  }

  /** Bootstrap servers of the running cluster, e.g. {@code localhost:40123}. */
  public String bootstrapServers() {
    return running().bootstrapServers();
  }

  /** A new Admin client; the caller closes it. */
  /**
   * A consumer of an Avro topic as downstream consumers read it: subscribed in group {@code group},
   * from the earliest offset, {@code read_committed}, String keys.
   */
  public <V extends SpecificRecord> KafkaConsumer<String, V>
      readCommitted(final String topic, final String group,
          final Deserializer<V> values) {
    final KafkaConsumer<String, V> c =
        new KafkaConsumer<>(Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
            ConsumerConfig.GROUP_ID_CONFIG, group,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
            new StringDeserializer(), values);
    c.subscribe(List.of(topic));
    return c;
  }

  /** Stops the broker for {@code downtime} and starts it again, same port and log directories. */
  public void restartBroker(final java.time.Duration downtime) throws Exception {
    running().restartBroker(downtime);
  }

  public Admin admin() {
    return running().admin();
  }

  /** Creates the topics through IsoWatch's own {@link io.isowatch.schemas.topic.TopicAdmin}. */
  public List<TopicReport> createTopics(final Collection<TopicSpec<?, ?>> topics) throws Exception {
    return running().createTopics(topics);
  }

  private LocalKafka running() {
    if (kafka == null) {
      throw new IllegalStateException("EmbeddedKafka is not running (register it as a static extension)");
    }
    return kafka;
  }
}
