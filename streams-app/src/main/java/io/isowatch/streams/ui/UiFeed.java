package io.isowatch.streams.ui;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TenantVerdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Feeds a {@link Sink} (the web UI's {@link UiState}, the demo's terminal feed) from the checker's
 * own output topics: one consumer thread, no consumer
 * group (every partition assigned, read from the beginning, no offsets committed), {@code
 * read_committed} so that only anomalies and verdicts of committed checker transactions show. So
 * the UI shows what any downstream consumer sees, and works the same whichever instance serves it.
 *
 * <p>Nothing here stops the checker: a record that cannot be decoded is logged with its
 * coordinates and skipped; a missing topic or an unreachable broker is retried every second.
 */
public final class UiFeed implements AutoCloseable {
  /** What the feed hands each record to, on its own thread, in the order read. */
  public interface Sink {
    void onAnomaly(Anomaly anomaly);

    void onVerdict(TenantVerdict verdict);
  }

  private static final Logger LOG = LoggerFactory.getLogger(UiFeed.class);
  private static final Duration POLL = Duration.ofMillis(500);
  private static final long RETRY_MS = 1_000;

  private final Consumer<String, SpecificRecord> consumer;
  private final List<String> topics;
  private final Sink sink;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final Thread thread;

  private UiFeed(final String name, final Consumer<String, SpecificRecord> consumer, final List<String> topics,
      final Sink sink) {
    this.consumer = consumer;
    this.topics = topics;
    this.sink = sink;
    this.thread = new Thread(this::run, name);
    this.thread.setDaemon(true);
  }

  /**
   * Starts the feed.
   *
   * @param name the consumer's client id and the thread's name (unique per JVM)
   * @param consumerProperties connection and security settings (bootstrap servers, SASL, TLS)
   * @param values the Avro value deserializer (registry), configured
   * @param anomaliesTopic the anomalies topic
   * @param verdictsTopic the verdicts topic
   */
  public static UiFeed start(final String name, final Map<String, Object> consumerProperties,
      final Deserializer<SpecificRecord> values, final String anomaliesTopic, final String verdictsTopic,
      final Sink sink) {
    final Map<String, Object> p = new HashMap<>(consumerProperties);
    p.remove(ConsumerConfig.GROUP_ID_CONFIG);
    p.put(ConsumerConfig.CLIENT_ID_CONFIG, name);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    final KafkaConsumer<String, SpecificRecord> consumer = new KafkaConsumer<>(p, new StringDeserializer(), values);
    final UiFeed feed = new UiFeed(name, consumer, List.of(anomaliesTopic, verdictsTopic), sink);
    feed.thread.start();
    return feed;
  }

  private void run() {
    try {
      while (stop.getCount() > 0) {
        try {
          if (consumer.assignment().isEmpty() && !assign()) {
            stop.await(RETRY_MS, TimeUnit.MILLISECONDS);
            continue;
          }
          for (final ConsumerRecord<String, SpecificRecord> r : consumer.poll(POLL)) {
            take(r);
          }
        } catch (final RecordDeserializationException e) {
          LOG.warn("UI feed skips an undecodable record topic=[{}] partition=[{}] offset=[{}] error=[{}]",
              e.topicPartition().topic(), e.topicPartition().partition(), e.offset(), e.getMessage());
          consumer.seek(e.topicPartition(), e.offset() + 1);
        } catch (final WakeupException e) {
          return;
        } catch (final KafkaException e) {
          LOG.warn("UI feed cannot read, retrying retryMs=[{}] error=[{}]", RETRY_MS, e.toString());
          stop.await(RETRY_MS, TimeUnit.MILLISECONDS);
        }
      }
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      consumer.close(Duration.ofSeconds(5));
    }
  }

  /** Assigns every partition of both topics from the beginning; false while a topic is missing. */
  private boolean assign() {
    final List<TopicPartition> partitions = new ArrayList<>();
    for (final String topic : topics) {
      final List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
      if (infos == null || infos.isEmpty()) {
        LOG.info("UI feed waits for its topic topic=[{}]", topic);
        return false;
      }
      infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
    }
    consumer.assign(partitions);
    consumer.seekToBeginning(partitions);
    LOG.info("UI feed reading topics=[{}] partitions=[{}]", topics, partitions.size());
    return true;
  }

  private void take(final ConsumerRecord<String, SpecificRecord> r) {
    if (r.value() instanceof Anomaly a) {
      sink.onAnomaly(a);
    } else if (r.value() instanceof TenantVerdict v) {
      sink.onVerdict(v);
    } else {
      LOG.warn("UI feed skips a record of another type topic=[{}] partition=[{}] offset=[{}] type=[{}]",
          r.topic(), r.partition(), r.offset(), r.value() == null ? "null" : r.value().getClass().getName());
    }
  }

  /** Stops the thread and closes the consumer. */
  @Override
  public void close() {
    stop.countDown();
    consumer.wakeup();
    try {
      thread.join(Duration.ofSeconds(10).toMillis());
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
