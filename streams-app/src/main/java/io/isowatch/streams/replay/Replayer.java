package io.isowatch.streams.replay;

import io.isowatch.core.check.CheckResult;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.TopicSpec;
import io.isowatch.streams.CheckerApp;
import io.isowatch.streams.IsoWatchStreamsConfig;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the checker topology ({@link CheckerApp}, exactly-once v2) over a finite input until it has
 * consumed everything, then reads back what it published and builds each tenant's report.
 *
 * <p>The configuration must carry the replay's end ({@code replay.end.offsets}, from {@link
 * EndOffsets}): the check processor then flushes each partition's tenants after its last record and
 * publishes their verdicts in the same transaction as that record's offset. So once the
 * application's committed offsets pass every partition's last record, the final verdicts and every
 * anomaly are committed on the output topics, and reading those topics with {@code read_committed}
 * up to their end gives the complete result: no wall-clock guess anywhere.
 */
public final class Replayer {
  private static final Logger LOG = LoggerFactory.getLogger(Replayer.class);
  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  private Replayer() {}

  /**
   * Replays and returns the report of each tenant, by tenant name.
   *
   * @param config the checker's configuration, with {@code replay.end.offsets} set from {@code ends}
   * @param ends where the input starts and ends
   * @param stall how long the committed offsets may stand still before the replay fails
   * @throws ReplayException when the checker stops with an error or makes no progress
   */
  public static Map<String, CheckResult> run(final IsoWatchStreamsConfig config, final EndOffsets ends,
      final Progress progress, final Duration stall) throws Exception {
    return run(config, ends, progress, stall, () -> { });
  }

  /**
   * Replays while something else runs alongside, e.g. the publishing of the input that {@code ends}
   * predicts ({@code isowatch replay --file}).
   *
   * @param alongside called on every poll of the committed offsets; it throws to end the replay
   *     (its exception is thrown from here), e.g. when the publishing failed
   */
  public static Map<String, CheckResult> run(final IsoWatchStreamsConfig config, final EndOffsets ends,
      final Progress progress, final Duration stall, final Runnable alongside) throws Exception {
    if (ends.isEmpty()) {
      return Map.of();
    }
    final String appId = config.getString(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG);
    final long t0 = System.nanoTime();
    final AtomicLong consumed = new AtomicLong();
    try (Admin admin = Admin.create(config.adminProperties());
        CheckerApp app = CheckerApp.start(config);
        Progress.Phase phase = progress.phase("checking  ", ends.total(), consumed::get)) {
      long lastAdvance = System.nanoTime();
      while (true) {
        alongside.run();
        final Map<Integer, Long> committed = committed(admin, appId, ends.topic());
        final long now = consumed(committed, ends);
        if (now != consumed.getAndSet(now)) {
          lastAdvance = System.nanoTime();
        }
        if (finished(committed, ends)) {
          break;
        }
        if (app.state() == KafkaStreams.State.ERROR || app.state() == KafkaStreams.State.PENDING_ERROR
            || app.state() == KafkaStreams.State.NOT_RUNNING) {
          throw new ReplayException("the checker stopped before the end of the input (state " + app.state()
              + "); see the log");
        }
        if (System.nanoTime() - lastAdvance > stall.toNanos()) {
          throw new ReplayException("no progress for " + stall.toSeconds() + " s (committed " + committed
              + ", last records " + ends.last() + "); see the log");
        }
        TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
      }
    }
    final double seconds = (System.nanoTime() - t0) / 1e9;
    LOG.info("Replay consumed its input appId=[{}] seconds=[{}]", appId, seconds);
    return reports(config, seconds);
  }

  /** The application's committed offsets on the input topic, by partition. */
  private static Map<Integer, Long> committed(final Admin admin, final String appId, final String topic)
      throws InterruptedException, ExecutionException, java.util.concurrent.TimeoutException {
    final Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(appId)
        .partitionsToOffsetAndMetadata().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    final Map<Integer, Long> out = new TreeMap<>();
    offsets.forEach((tp, om) -> {
      if (tp.topic().equals(topic) && om != null) {
        out.put(tp.partition(), om.offset());
      }
    });
    return out;
  }

  private static long consumed(final Map<Integer, Long> committed, final EndOffsets ends) {
    long sum = 0;
    for (final Map.Entry<Integer, Long> e : ends.end().entrySet()) {
      final long start = ends.start().get(e.getKey());
      final long at = committed.getOrDefault(e.getKey(), start);
      sum += Math.max(0, Math.min(at, e.getValue()) - start);
    }
    return sum;
  }

  /** Every partition's committed offset is past its last record to replay. */
  static boolean finished(final Map<Integer, Long> committed, final EndOffsets ends) {
    for (final Map.Entry<Integer, Long> e : ends.last().entrySet()) {
      final Long at = committed.get(e.getKey());
      if (at == null || at <= e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** Reads the verdicts and anomalies topics back and builds each tenant's result. */
  private static Map<String, CheckResult> reports(final IsoWatchStreamsConfig config, final double seconds) {
    final AvroSerdes serdes = new AvroSerdes(config.avroSerdeConfig());
    final Map<String, TenantVerdict> verdicts = new TreeMap<>();
    for (final ConsumerRecord<String, TenantVerdict> r : readAll(config, config.topics().verdicts(), serdes)) {
      verdicts.put(r.key(), r.value());
    }
    final Map<String, Map<String, Anomaly>> anomalies = new HashMap<>();
    for (final ConsumerRecord<String, Anomaly> r : readAll(config, config.topics().anomalies(), serdes)) {
      // A retraction (docs/streaming.md) repeats its anomaly's ids: the report lists what the last verdict
      // lists, which no longer names a retracted anomaly, so the anomaly's own record is the one kept.
      if (r.value().getRetraction() == null) {
        anomalies.computeIfAbsent(r.key(), k -> new HashMap<>()).put(AnomalyIds.identity(r.value()), r.value());
      }
    }
    final Map<String, CheckResult> out = new TreeMap<>();
    verdicts.forEach((tenant, v) -> out.put(tenant,
        ReplayReports.result(v, anomalies.getOrDefault(tenant, Map.of()), seconds)));
    return out;
  }

  /** Every committed record of a topic, from its start to its current end. */
  private static <V extends SpecificRecord> List<ConsumerRecord<String, V>> readAll(
      final IsoWatchStreamsConfig config, final TopicSpec<String, V> topic, final AvroSerdes serdes) {
    final Map<String, Object> props = new HashMap<>(config.adminProperties());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    final List<ConsumerRecord<String, V>> out = new java.util.ArrayList<>();
    try (KafkaConsumer<String, V> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
        serdes.valueSerde(topic.valueType()).deserializer())) {
      final List<TopicPartition> partitions = consumer.partitionsFor(topic.name(), ADMIN_TIMEOUT).stream()
          .map(p -> new TopicPartition(topic.name(), p.partition())).toList();
      consumer.assign(partitions);
      consumer.seekToBeginning(partitions);
      final Map<TopicPartition, Long> end = consumer.endOffsets(partitions, ADMIN_TIMEOUT);
      final long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
      while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
        if (System.nanoTime() > deadline) {
          throw new ReplayException("could not read " + topic.name() + " to its end " + end);
        }
        consumer.poll(POLL).forEach(out::add);
      }
    }
    return out;
  }

  /** The replay could not complete; the message says why. */
  public static final class ReplayException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ReplayException(final String message) {
      super(message);
    }
  }
}
