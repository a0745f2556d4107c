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
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Publishes a history file's transactions through the producer path ({@link TransactionProducers}):
 * one tenant, in file order, each as the {@code TransactionEvent} an agent would publish.
 *
 * <p>The history format lets a session's transactions go without {@code seq} (file order is then
 * session order), while events always carry one: a session none of whose transactions has a seq
 * gets 0, 1, 2... in file order, the order {@code isowatch check} reads into it.
 */
public final class HistoryPublisher {
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
}
