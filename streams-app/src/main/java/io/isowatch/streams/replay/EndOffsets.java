package io.isowatch.streams.replay;

import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.processor.DecodeTransactionsProcessor;
import io.isowatch.streams.processor.ReplayEnd;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Where a replay starts and ends, captured before the topology starts: per input partition, the
 * first offset and the offset of the last record that reaches the check processor.
 *
 * <p>The last offset is found by reading the partition's tail with {@code read_committed}, as the
 * exactly-once checker reads it: transaction markers occupy offsets but are never delivered, and
 * records of aborted transactions are skipped, so the last <em>data</em> record is usually not
 * {@code end - 1}. Records that the checker would dead-letter are skipped too (they never reach
 * the check processor). The tail window grows until a record is found or the partition's start is
 * reached.
 *
 * @param topic the input topic
 * @param start per partition, its first offset (the log start)
 * @param end per partition, its end for read_committed (the last stable offset)
 * @param last per partition holding a replayable record, that record's offset
 */
public record EndOffsets(String topic, Map<Integer, Long> start, Map<Integer, Long> end, Map<Integer, Long> last) {
  private static final int FIRST_WINDOW = 64;
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  public EndOffsets {
    start = Map.copyOf(start);
    end = Map.copyOf(end);
    last = Map.copyOf(last);
  }

  /** The configuration value that tells the check processor where to flush. */
  public ReplayEnd replayEnd() {
    return new ReplayEnd(last);
  }

  /** Offsets between start and end over all partitions (records, transaction markers included). */
  public long total() {
    long sum = 0;
    for (final Map.Entry<Integer, Long> e : end.entrySet()) {
      sum += e.getValue() - start.getOrDefault(e.getKey(), e.getValue());
    }
    return sum;
  }

  /** True when no partition holds a record to replay. */
  public boolean isEmpty() {
    return last.isEmpty();
  }

  /**
   * Captures the offsets of {@code topic}.
   *
   * @param consumerConfig bootstrap servers and any security settings; deserializers, group and
   *     isolation are set here
   * @param events the deserializer of the input values (the registry's), to skip records that
   *     would be dead-lettered
   */
  public static EndOffsets capture(final Map<String, Object> consumerConfig, final String topic,
      final Deserializer<TransactionEvent> events) {
    final Predicate<ConsumerRecord<byte[], byte[]>> replayable = r -> {
      try {
        DecodeTransactionsProcessor.decode(events, r.topic(), r.headers(), r.key(), r.value());
        return true;
      } catch (final RuntimeException deadLettered) {
        return false;
      }
    };
    final Map<String, Object> config = new java.util.HashMap<>(consumerConfig);
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    config.remove(ConsumerConfig.GROUP_ID_CONFIG);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      return capture(consumer, topic, replayable);
    }
  }

  static EndOffsets capture(final Consumer<byte[], byte[]> consumer, final String topic,
      final Predicate<ConsumerRecord<byte[], byte[]>> replayable) {
    final List<PartitionInfo> infos = consumer.partitionsFor(topic, PATIENCE);
    if (infos == null || infos.isEmpty()) {
      throw new IllegalArgumentException("topic " + topic + " does not exist");
    }
    final List<TopicPartition> partitions = infos.stream()
        .map(i -> new TopicPartition(topic, i.partition())).toList();
    final Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, PATIENCE);
    final Map<TopicPartition, Long> stable = consumer.endOffsets(partitions, PATIENCE);
    final Map<Integer, Long> start = new TreeMap<>();
    final Map<Integer, Long> end = new TreeMap<>();
    final Map<Integer, Long> last = new TreeMap<>();
    for (final TopicPartition tp : partitions) {
      start.put(tp.partition(), begin.get(tp));
      end.put(tp.partition(), stable.get(tp));
      lastReplayable(consumer, tp, begin.get(tp), stable.get(tp), replayable)
          .ifPresent(o -> last.put(tp.partition(), o));
    }
    return new EndOffsets(topic, start, end, last);
  }

  private static java.util.Optional<Long> lastReplayable(final Consumer<byte[], byte[]> consumer,
      final TopicPartition tp, final long begin, final long end,
      final Predicate<ConsumerRecord<byte[], byte[]>> replayable) {
    long window = FIRST_WINDOW;
    while (true) {
      final long from = Math.max(begin, end - window);
      consumer.assign(List.of(tp));
      consumer.seek(tp, from);
      long found = -1;
      final long deadline = System.nanoTime() + PATIENCE.toNanos();
      while (consumer.position(tp) < end) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("could not read " + tp + " up to offset " + end + " within " + PATIENCE);
        }
        for (final ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL).records(tp)) {
          if (r.offset() < end && replayable.test(r)) {
            found = r.offset();
          }
        }
      }
      if (found >= 0) {
        return java.util.Optional.of(found);
      }
      if (from == begin) {
        return java.util.Optional.empty();
      }
      window *= 4;
    }
  }
}
