package io.isowatch.streams.ops;

import io.isowatch.schemas.DeadLetter;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Re-publishes dead letters: reads the dead-letter topic from an offset up to its end at the start
 * of the replay (a snapshot: letters arriving meanwhile wait for the next replay) and sends each
 * letter's raw key and value, byte for byte, to its source topic or to a given one. Use it once
 * the cause is fixed (a schema registered late, a producer bug corrected upstream); the checker
 * ignores transactions it has already seen, so a letter replayed twice does no harm.
 *
 * <p>A letter without a value (a tombstone) is skipped: it would only be dead-lettered again. A
 * record of the dead-letter topic that is not a readable {@code DeadLetter} is reported and
 * skipped.
 */
public final class DlqReplay {
  private static final Duration POLL = Duration.ofMillis(500);

  private final Map<String, Object> consumerProperties;
  private final Map<String, Object> producerProperties;
  private final Deserializer<DeadLetter> letters;

  /**
   * @param consumerProperties settings of the DLQ consumer (bootstrap, security); no group is used
   * @param producerProperties settings of the producer re-publishing the letters
   * @param letters the DeadLetter deserializer (registry)
   */
  public DlqReplay(final Map<String, Object> consumerProperties, final Map<String, Object> producerProperties,
      final Deserializer<DeadLetter> letters) {
    this.consumerProperties = consumerProperties;
    this.producerProperties = producerProperties;
    this.letters = letters;
  }

  /** One dead letter as replayed (or, in a dry run, as it would be). */
  public record Replayed(int dlqPartition, long dlqOffset, DeadLetter letter, String target, Status status,
      String detail) {}

  /** What happened to one DLQ record. */
  public enum Status { REPLAYED, WOULD_REPLAY, SKIPPED_NO_VALUE, UNREADABLE }

  /** The counts of a replay and where to continue from. */
  public record Summary(long replayed, long skipped, long unreadable, Map<Integer, Long> nextOffsets) {}

  /**
   * Replays the letters of {@code dlqTopic} from {@code fromOffset} (each partition) to its end.
   *
   * @param target the topic to publish to; empty: each letter's source topic
   * @param errorFilter only letters whose error class contains this text; empty: all
   * @param dryRun read and report, publish nothing
   * @param report called for every DLQ record, in order
   * @throws ExecutionException when a send failed (the letters before it were sent)
   */
  public Summary replay(final String dlqTopic, final long fromOffset, final Optional<String> target,
      final Optional<String> errorFilter, final boolean dryRun, final Consumer<Replayed> report)
      throws ExecutionException, InterruptedException {
    final Map<String, Object> cp = new HashMap<>(consumerProperties);
    cp.put("enable.auto.commit", false);
    cp.put("isolation.level", "read_committed");
    cp.put("client.id", "isowatch-dlq-replay");
    cp.remove("group.id");
    try (KafkaConsumer<byte[], byte[]> consumer =
            new KafkaConsumer<>(cp, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        KafkaProducer<byte[], byte[]> producer = dryRun ? null : producer()) {
      final List<TopicPartition> partitions = new ArrayList<>();
      for (final PartitionInfo p : consumer.partitionsFor(dlqTopic)) {
        partitions.add(new TopicPartition(dlqTopic, p.partition()));
      }
      consumer.assign(partitions);
      final Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
      final Map<Integer, Long> next = new HashMap<>();
      for (final TopicPartition tp : partitions) {
        final long begin = consumer.beginningOffsets(List.of(tp)).get(tp);
        final long start = Math.max(begin, fromOffset);
        consumer.seek(tp, start);
        next.put(tp.partition(), start);
      }
      long replayed = 0;
      long skipped = 0;
      long unreadable = 0;
      final List<Future<RecordMetadata>> sends = new ArrayList<>();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        for (final ConsumerRecord<byte[], byte[]> r : consumer.poll(POLL)) {
          final TopicPartition tp = new TopicPartition(r.topic(), r.partition());
          if (r.offset() >= end.get(tp)) {
            continue;
          }
          next.put(r.partition(), r.offset() + 1);
          final DeadLetter letter;
          try {
            letter = letters.deserialize(r.topic(), r.headers(), r.value());
          } catch (final SerializationException | IllegalStateException e) {
            unreadable++;
            report.accept(new Replayed(r.partition(), r.offset(), null, null, Status.UNREADABLE, e.toString()));
            continue;
          }
          if (letter == null || errorFilter.isPresent() && !letter.getErrorClass().contains(errorFilter.get())) {
            continue;
          }
          final String to = target.orElse(letter.getSourceTopic());
          if (letter.getRawValue() == null) {
            skipped++;
            report.accept(new Replayed(r.partition(), r.offset(), letter, to, Status.SKIPPED_NO_VALUE, "no value"));
            continue;
          }
          if (!dryRun) {
            sends.add(producer.send(new ProducerRecord<>(to, bytes(letter.getRawKey()), bytes(letter.getRawValue()))));
          }
          replayed++;
          report.accept(new Replayed(r.partition(), r.offset(), letter, to,
              dryRun ? Status.WOULD_REPLAY : Status.REPLAYED, ""));
        }
      }
      if (producer != null) {
        producer.flush();
        for (final Future<RecordMetadata> f : sends) {
          f.get();
        }
      }
      return new Summary(replayed, skipped, unreadable, next);
    }
  }

  private KafkaProducer<byte[], byte[]> producer() {
    final Map<String, Object> pp = new HashMap<>(producerProperties);
    pp.put("client.id", "isowatch-dlq-replay");
    pp.put("enable.idempotence", true);
    pp.put("acks", "all");
    return new KafkaProducer<>(pp, new org.apache.kafka.common.serialization.ByteArraySerializer(),
        new org.apache.kafka.common.serialization.ByteArraySerializer());
  }

  private static byte[] bytes(final ByteBuffer b) {
    if (b == null) {
      return null;
    }
    final ByteBuffer d = b.duplicate();
    final byte[] out = new byte[d.remaining()];
    d.get(out);
    return out;
  }
}
