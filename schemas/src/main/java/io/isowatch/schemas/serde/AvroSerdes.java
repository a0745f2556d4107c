package io.isowatch.schemas.serde;

import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.isowatch.schemas.topic.TopicSpec;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;

/**
 * Kafka serdes for IsoWatch's topics: Avro values in the Confluent wire format through the schema
 * registry (Apicurio's serdes, configured by {@link AvroSerdeConfig}), plain string or byte keys.
 * The wire format is never hand-written here.
 *
 * <p>Registry subjects follow Confluent's TopicNameStrategy ({@code <topic>-value}), Apicurio's
 * default.
 */
public final class AvroSerdes {
  private final AvroSerdeConfig config;

  public AvroSerdes(final AvroSerdeConfig config) {
    this.config = config;
  }

  /** Key and value serdes of a topic. */
  public <K, V extends SpecificRecord> TopicSerdes<K, V> forTopic(final TopicSpec<K, V> topic) {
    return new TopicSerdes<>(topic.name(), keySerde(topic.keyType()), valueSerde(topic.valueType()));
  }

  /**
   * A value serde for a generated Avro class. The class only fixes the type: the deserializer
   * finds the class to decode into from the writer schema's full name.
   */
  public <V extends SpecificRecord> Serde<V> valueSerde(final Class<V> type) {
    final AvroKafkaSerializer<V> serializer = new AvroKafkaSerializer<>();
    serializer.configure(config.serdeProperties(), false);
    final AvroKafkaDeserializer<V> deserializer = new AvroKafkaDeserializer<>();
    deserializer.configure(config.serdeProperties(), false);
    return Serdes.serdeFrom(serializer, deserializer);
  }

  @SuppressWarnings("unchecked") // Checked: each branch returns the serde of exactly that class.
  private static <K> Serde<K> keySerde(final Class<K> type) {
    if (type == String.class) {
      return (Serde<K>) Serdes.String();
    }
    if (type == byte[].class) {
      return (Serde<K>) Serdes.ByteArray();
    }
    throw new IllegalArgumentException("no key serde for " + type.getName() + " (String or byte[])");
  }
}
