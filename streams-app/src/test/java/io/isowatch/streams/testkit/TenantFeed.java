package io.isowatch.streams.testkit;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Feeds {@link TenantHistories} to a real checker's input topic and reads its anomalies back: the
 * shared moves of the exactly-once integration tests (broker restart, kill and recovery, two
 * instances). Every event carries one record time, an hour ago; {@link #tickEveryPartition} moves
 * stream time five minutes on, so that the idle flush releases the tenants' tails.
 */
public final class TenantFeed {
  private final Map<String, Object> producerConfig;
  private final Topics topics;
  private final AvroSerdes serdes;
  private final long baseTimestamp = System.currentTimeMillis() - Duration.ofHours(1).toMillis();

  /**
   * @param producerOverrides settings of the test's producers on top of {@code acks=all} (e.g. no
   *     idempotence where the broker restarts)
   */
  public TenantFeed(final String bootstrapServers, final Topics topics, final AvroSerdes serdes,
      final Map<String, Object> producerOverrides) {
    final Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    config.putAll(producerOverrides);
    this.producerConfig = Map.copyOf(config);
    this.topics = topics;
    this.serdes = serdes;
  }

  /** Events {@code from} (inclusive) to {@code to} (exclusive) of every history, interleaved by index. */
  public void produce(final TenantHistories histories, final int from, final int to) throws Exception {
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      for (int i = from; i < to; i++) {
        for (final List<TransactionEvent> h : histories.histories()) {
          if (i < h.size()) {
            producer.send(new ProducerRecord<>(topics.txnEvents().name(), null, baseTimestamp, h.get(i).getTenant(),
                h.get(i)));
          }
        }
      }
      producer.flush();
    }
  }

  /** A read-only transaction of a clock tenant on every partition, five minutes later: idle flush. */
  public void tickEveryPartition() throws Exception {
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      for (int p = 0; p < topics.txnEvents().partitions(); p++) {
        final TransactionEvent tick = TransactionEvent.newBuilder()
            .setTenant("clock-" + p).setSession("clock").setSeq(0).setTxn("tick")
            .setStatus(TxnStatus.COMMITTED).setOps(List.of(new Op(OpType.READ, "c", 0L, null))).build();
        producer.send(new ProducerRecord<>(topics.txnEvents().name(), p,
            baseTimestamp + Duration.ofMinutes(5).toMillis(), tick.getTenant(), tick)).get();
      }
    }
  }

  /** Polls once and keeps what came; returns how many are kept in all. */
  public static <V> int poll(final KafkaConsumer<String, V> consumer, final List<V> into) {
    consumer.poll(Duration.ofMillis(200)).forEach(r -> into.add(r.value()));
    return into.size();
  }

  /**
   * Waits until {@code expected} values are kept, then three more seconds in which no further one
   * comes (a duplicate would show up here).
   */
  public static <V> void awaitExactly(final KafkaConsumer<String, V> consumer, final List<V> into,
      final int expected, final Duration patience) {
    await().atMost(patience).until(() -> poll(consumer, into) >= expected);
    await().during(Duration.ofSeconds(3)).atMost(patience).until(() -> poll(consumer, into) == expected);
  }

  /** Every id once, and the ids are those expected. */
  public static void assertEachOnce(final Set<String> expected, final List<String> ids) {
    assertEquals(ids.size(), Set.copyOf(ids).size(), "an anomaly was published twice");
    assertEquals(expected, new TreeSet<>(ids));
  }

  private KafkaProducer<String, TransactionEvent> producer() {
    return new KafkaProducer<>(producerConfig, new StringSerializer(),
        serdes.valueSerde(TransactionEvent.class).serializer());
  }
}
