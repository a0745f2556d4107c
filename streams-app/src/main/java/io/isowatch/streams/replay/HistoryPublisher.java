package io.isowatch.streams.replay;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.producer.TransactionProducers;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Publishes a history file's transactions through the producer path ({@link TransactionProducers}):
 * one tenant, in file order, each as the {@code TransactionEvent} an agent would publish.
 *
 * <p>The history format lets a session's transactions go without {@code seq} (file order is then
 * session order), while events always carry one: a session none of whose transactions has a seq
 * gets 0, 1, 2... in file order, the order {@code isowatch check} reads into it.
 */
public final class HistoryPublisher {
  /** The batch size on a replay's own topic: large, below the broker's default 1 MiB message limit. */
  static final int PRIVATE_BATCH_BYTES = 512 * 1024;

  private HistoryPublisher() {}

  /** The events of a history, in file order. */
  public static List<TransactionEvent> events(final History history, final String tenant) {
    final Set<String> sequenced = new HashSet<>();
    for (final Transaction t : history.transactions()) {
      if (t.hasSeq()) {
        sequenced.add(t.session());
      }
    }
    final Map<String, Long> next = new HashMap<>();
    final List<TransactionEvent> out = new ArrayList<>(history.size());
    for (final Transaction t : history.transactions()) {
      final Transaction numbered = t.hasSeq() || sequenced.contains(t.session())
          ? t
          : t.withSeq(next.merge(t.session(), 1L, Long::sum) - 1);
      out.add(TransactionEvents.fromCore(tenant, numbered));
    }
    return out;
  }

  /**
   * Sends the events to {@code topic} keyed by tenant, waits for every acknowledgement.
   *
   * @param acknowledged counts acknowledged events as they come (for the progress bar)
   * @throws org.apache.kafka.common.KafkaException when a send fails
   */
  public static void publish(final String bootstrap, final AvroSerdeConfig serde, final String topic,
      final List<TransactionEvent> events, final AtomicLong acknowledged) {
    final AtomicReference<Exception> failure = new AtomicReference<>();
    try (KafkaProducer<String, TransactionEvent> producer =
        TransactionProducers.create(bootstrap, serde, "isowatch-replay")) {
      for (final TransactionEvent e : events) {
        producer.send(new ProducerRecord<>(topic, e.getTenant(), e), (meta, error) -> {
          if (error == null) {
            acknowledged.incrementAndGet();
          } else {
            failure.compareAndSet(null, error);
          }
        });
      }
      producer.flush();
    }
    if (failure.get() != null) {
      throw new org.apache.kafka.common.KafkaException("publishing the history failed: " + failure.get(),
          failure.get());
    }
  }

  /**
   * The producer settings of a replay's own topic on its own local broker: the producer path's
   * ({@link TransactionProducers#config}: idempotent, acks=all) with no compression and large
   * batches, since the bytes never leave the machine and compressing them cost CPU three times
   * (the producer, the broker's validation, the checker's consumer) on a machine the checker shares
   * (docs/benchmarks.md, Part 3, run O).
   */
  public static Map<String, Object> privateTopicConfig(final String bootstrap, final String clientId) {
    final Map<String, Object> p = TransactionProducers.config(bootstrap, clientId);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, PRIVATE_BATCH_BYTES);
    return p;
  }

  /**
   * Sends the events, in order, to partition 0 of a topic that is new and empty (a replay's own),
   * and checks that event {@code i} was stored at offset {@code i}: so the last event is at offset
   * {@code events.size() - 1} and no offset in between is a transaction marker, which is what lets
   * {@code isowatch replay --file} start the checker with that end before the publishing is done.
   * The values are the registry's serializer's bytes, framed once ({@link TransactionProducers#valueSerializer}).
   * Waits for every acknowledgement.
   *
   * @param acknowledged counts acknowledged events as they come
   * @throws org.apache.kafka.common.KafkaException when a send fails or an event lands elsewhere
   */
  public static void publishToNewPartition(final String bootstrap, final AvroSerdeConfig serde, final String topic,
      final List<TransactionEvent> events, final AtomicLong acknowledged) {
    final AtomicReference<Exception> failure = new AtomicReference<>();
    try (KafkaProducer<String, TransactionEvent> producer = new KafkaProducer<>(
        privateTopicConfig(bootstrap, "isowatch-replay"), new StringSerializer(),
        TransactionProducers.valueSerializer(serde))) {
      long index = 0;
      for (final TransactionEvent e : events) {
        final long expected = index++;
        producer.send(new ProducerRecord<>(topic, 0, e.getTenant(), e), (meta, error) -> {
          if (error != null) {
            failure.compareAndSet(null, error);
          } else if (meta.partition() != 0 || meta.offset() != expected) {
            failure.compareAndSet(null, new IllegalStateException("event " + expected + " was stored at partition "
                + meta.partition() + " offset " + meta.offset() + ", not partition 0 offset " + expected));
          } else {
            acknowledged.incrementAndGet();
          }
        });
        if (failure.get() != null) {
          break;
        }
      }
      producer.flush();
    }
    if (failure.get() != null) {
      throw new org.apache.kafka.common.KafkaException("publishing the history failed: " + failure.get().getMessage(),
          failure.get());
    }
  }
}
