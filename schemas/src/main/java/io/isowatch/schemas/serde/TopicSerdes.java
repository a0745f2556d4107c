package io.isowatch.schemas.serde;

import org.apache.kafka.common.serialization.Serde;

/**
 * The key and value serdes of one topic.
 *
 * @param topic the topic name
 * @param key serde of its keys
 * @param value serde of its values
 * @param <K> key type
 * @param <V> value type
 */
public record TopicSerdes<K, V>(String topic, Serde<K> key, Serde<V> value) {}
