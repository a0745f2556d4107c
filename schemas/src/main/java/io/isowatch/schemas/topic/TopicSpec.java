package io.isowatch.schemas.topic;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * One IsoWatch topic as it must exist on the cluster, bound to the types of its keys and values.
 *
 * @param name the topic name, {@code isowatch.<entity>.v<N>} for IsoWatch's own (a rename is a
 *     migration), any legal Kafka name when set by configuration
 * @param partitions number of partitions; for tenant-keyed topics it caps the parallelism, since
 *     one tenant's records always land in one partition
 * @param replication replication factor, or {@link #BROKER_DEFAULT_REPLICATION} to let the cluster
 *     decide ({@code default.replication.factor}: 1 on a single dev node, 3 on a production cluster)
 * @param configs topic-level configs set at creation (cleanup policy, retention)
 * @param keyType the key type: {@code String} (UTF-8) or {@code byte[]} (raw)
 * @param keyDescription what the key holds, for people
 * @param valueType the generated Avro class of the values (Confluent wire format, subject {@code
 *     <name>-value})
 * @param purpose one sentence on what the topic carries
 * @param <K> key type
 * @param <V> value type
 */
public record TopicSpec<K, V extends SpecificRecord>(
    String name,
    int partitions,
    short replication,
    Map<String, String> configs,
    Class<K> keyType,
    String keyDescription,
    Class<V> valueType,
    String purpose) {

  /** Leaves the replication factor to the broker's {@code default.replication.factor}. */
  public static final short BROKER_DEFAULT_REPLICATION = -1;

  public TopicSpec {
    Objects.requireNonNull(name, "name");
    // IsoWatch's own names follow isowatch.<entity>.v<N> (Topics.defaults(), TopicsTest); names set
    // by configuration (a replay's own topics, a recorded input topic) need only be legal.
    if (!name.matches("[A-Za-z0-9._-]{1,249}") || ".".equals(name) || "..".equals(name)) {
      throw new IllegalArgumentException("not a legal Kafka topic name: " + name);
    }
    if (partitions < 1) {
      throw new IllegalArgumentException(name + ": partitions must be positive: " + partitions);
    }
    if (replication < 1 && replication != BROKER_DEFAULT_REPLICATION) {
      throw new IllegalArgumentException(name + ": bad replication factor " + replication);
    }
    configs = Map.copyOf(configs);
    Objects.requireNonNull(keyType, "keyType");
    Objects.requireNonNull(valueType, "valueType");
  }

  /** The replication factor to request, empty for the broker's default. */
  public Optional<Short> explicitReplication() {
    return replication == BROKER_DEFAULT_REPLICATION ? Optional.empty() : Optional.of(replication);
  }

  /** The registry subject of the values (Confluent's TopicNameStrategy). */
  public String valueSubject() {
    return name + "-value";
  }

  /** The same topic under another name (set by configuration). */
  public TopicSpec<K, V> withName(final String newName) {
    return new TopicSpec<>(
        newName, partitions, replication, configs, keyType, keyDescription, valueType, purpose);
  }

  /** The same topic with another replication factor. */
  public TopicSpec<K, V> withReplication(final short newReplication) {
    return new TopicSpec<>(
        name, partitions, newReplication, configs, keyType, keyDescription, valueType, purpose);
  }

  /** The same topic with another partition count. */
  public TopicSpec<K, V> withPartitions(final int newPartitions) {
    return new TopicSpec<>(
        name, newPartitions, replication, configs, keyType, keyDescription, valueType, purpose);
  }
}
