package io.isowatch.streams.archfixture;

import org.apache.kafka.common.TopicPartition;

/** A class that depends on Kafka, to prove that {@code CoreIsKafkaFreeTest}'s rule can fail. */
public final class UsesKafka {
  private UsesKafka() {}

  public static String describe(final TopicPartition tp) {
    return tp.topic() + "-" + tp.partition();
  }
}
