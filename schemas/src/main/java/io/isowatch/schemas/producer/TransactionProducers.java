package io.isowatch.schemas.producer;

import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.serde.FramedEventSerializer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The producer path of transaction events, shared by the agent's Kafka sink and {@code isowatch
 * replay}: {@code TransactionEvent} values in the Confluent wire format through the schema registry
 * ({@link AvroSerdes}), keys the tenant (UTF-8), an idempotent producer with {@code acks=all} so
 * that a retried batch is neither duplicated nor reordered and each session stays in order.
 */
public final class TransactionProducers {
  /** How long a full producer buffer may block the sender before a send fails: a long while. */
  public static final Duration MAX_BLOCK = Duration.ofMinutes(10);

  private TransactionProducers() {}

  /**
   * The values' serializer: the registry's ({@link AvroSerdes}) for the first event, which
   * registers or looks up the schema, then its frame reused ({@link FramedEventSerializer}), the
   * same bytes for a fraction of the CPU.
   */
  public static Serializer<TransactionEvent> valueSerializer(final AvroSerdeConfig serde) {
    return new FramedEventSerializer(new AvroSerdes(serde).valueSerde(TransactionEvent.class).serializer());
  }

  /** The producer's configuration. */
  public static Map<String, Object> config(final String bootstrap, final String clientId) {
    final Map<String, Object> p = new HashMap<>();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    // Exactly once per partition and in order: retries neither duplicate nor reorder.
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5);
    // Bounded memory; a full buffer blocks the sender instead of failing it.
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 32L * 1024 * 1024);
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, MAX_BLOCK.toMillis());
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    return p;
  }

  /** A producer of transaction events keyed by tenant; the caller closes it. */
  public static KafkaProducer<String, TransactionEvent> create(final String bootstrap, final AvroSerdeConfig serde,
      final String clientId) {
    return new KafkaProducer<>(config(bootstrap, clientId), new StringSerializer(),
        new AvroSerdes(serde).valueSerde(TransactionEvent.class).serializer());
  }
}
