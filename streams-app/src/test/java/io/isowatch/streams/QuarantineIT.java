package io.isowatch.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.processor.VerdictRecords;
import io.isowatch.streams.testkit.CheckerItConfig;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import io.isowatch.streams.testkit.TestEvents;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record the broker refuses for good, on a real broker under exactly-once (issue 10, item 3): the
 * anomalies topic accepts at most 6,000 bytes per message while the producer may send 1 MiB, so the
 * check processor's own sizing lets a large anomaly through and the broker refuses it, which aborts
 * the transaction. The production exception handler names the tenant, the stream thread is replaced,
 * the task quarantines the tenant on its retry, the healthy tenant's anomaly is published, the app
 * stays RUNNING, and a restart does not fail again.
 */
@Tag("integration")
class QuarantineIT {
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final Topics TOPICS = Topics.defaults();
  private static final Duration PATIENCE = Duration.ofSeconds(120);
  private static final String KEY = "k".repeat(3_000);
  private static final Set<KafkaStreams.State> STOPPED = EnumSet.of(KafkaStreams.State.PENDING_ERROR,
      KafkaStreams.State.ERROR, KafkaStreams.State.PENDING_SHUTDOWN, KafkaStreams.State.NOT_RUNNING);

  @TempDir Path dir;

  private final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url()));
  private final long baseTimestamp = System.currentTimeMillis() - Duration.ofHours(1).toMillis();
  private int ticks;

  @Test
  void shouldQuarantineTheTenantAndStayRunningWhenTheBrokerRefusesItsAnomaly() throws Exception {
    // Given: an anomalies topic that refuses messages over 6,000 bytes; a lost update on a huge key
    // (tenant big) next to an ordinary one (tenant ok).
    KAFKA.createTopics(TOPICS.all());
    try (var admin = KAFKA.admin()) {
      final Map<ConfigResource, Collection<AlterConfigOp>> change = Map.of(
          new ConfigResource(ConfigResource.Type.TOPIC, TOPICS.anomalies().name()),
          List.of(new AlterConfigOp(new ConfigEntry("max.message.bytes", "6000"), AlterConfigOp.OpType.SET)));
      admin.incrementalAlterConfigs(change).all().get();
    }
    produce(TestEvents.lostUpdate("big", "b", KEY, 1_000L, 2_000L));
    produce(TestEvents.lostUpdate("ok", "o", "x", 1_000L, 2_000L));
    final Map<String, Object> props = CheckerItConfig.base(KAFKA.bootstrapServers(), REGISTRY.url(), "quarantine-it",
        dir.resolve("state"));
    props.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "-1");
    props.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "1");
    props.put(IsoWatchStreamsConfig.CHECK_IDLE_FLUSH_MS_CONFIG, "1000");
    props.put(IsoWatchStreamsConfig.VERDICT_INTERVAL_MS_CONFIG, "300");
    // The failed stream thread does not leave the group (Streams closes its consumer without a
    // LeaveGroup), so its replacement's rebalance waits for the dead member's session to expire:
    // 45 s by default, a third of PATIENCE on a loaded machine. The broker's minimum is 6 s.
    props.put("kafka.consumer.session.timeout.ms", "10000");
    try (KafkaConsumer<String, Anomaly> anomalies = KAFKA.readCommitted(TOPICS.anomalies().name(), "q-anomalies",
        serdes.valueSerde(Anomaly.class).deserializer());
        KafkaConsumer<String, TenantVerdict> verdicts = KAFKA.readCommitted(TOPICS.verdicts().name(), "q-verdicts",
            serdes.valueSerde(TenantVerdict.class).deserializer())) {
      final List<Anomaly> seen = new ArrayList<>();
      final List<TenantVerdict> verdictsSeen = new ArrayList<>();
      // When: the checker runs and both tenants are flushed.
      try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
        await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
        tickEveryPartition();
        // Then: the healthy tenant's anomaly is published, big is quarantined, the app runs. Stream
        // time moves on while waiting: the thread replaced after the failure resumes from the last
        // commit, which may already lie past the tick that would have flushed ok.
        whileRunning(app).pollInterval(Duration.ofSeconds(2))
            .until(() -> poll(anomalies, seen) >= 1 && quarantined(app) == 1.0 || tickedEveryPartition());
        whileRunning(app).until(() -> poll(verdicts, verdictsSeen) > 0 && verdictsSeen.stream().anyMatch(v ->
            v.getTenant().equals("big") && v.getCounts().getFindingsByKind().containsKey(VerdictRecords.TENANT_QUARANTINED)));
        await().during(Duration.ofSeconds(3)).atMost(PATIENCE).until(() -> poll(verdicts, verdictsSeen) >= 0
            && app.state() == KafkaStreams.State.RUNNING);
        assertEquals(List.of("ok"), seen.stream().map(Anomaly::getTenant).toList());
        // Only big: the records the aborted transaction failed with big's refusal name no tenant.
        assertEquals(Set.of("big"), verdictsSeen.stream()
            .filter(v -> v.getCounts().getFindingsByKind().containsKey(VerdictRecords.TENANT_QUARANTINED))
            .map(TenantVerdict::getTenant).collect(Collectors.toSet()));
      }
      // When: restarted on the same state directory, big sends again and ok has a new lost update.
      try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
        await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
        produce(TestEvents.lostUpdate("big", "b2", KEY, 1_000L, 2_000L));
        produce(TestEvents.lostUpdate("ok", "o2", "y", 1_000L, 2_000L));
        tickEveryPartition();
        // Then: no failure again; ok's new anomaly is published, big stays skipped.
        whileRunning(app).pollInterval(Duration.ofSeconds(2))
            .until(() -> poll(anomalies, seen) >= 2 || tickedEveryPartition());
        await().during(Duration.ofSeconds(3)).atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING
            && poll(anomalies, seen) == 2);
        assertEquals(List.of("ok", "ok"), seen.stream().map(Anomaly::getTenant).toList());
        assertTrue(app.metrics().scrape().contains(MetricNames.TENANT_QUARANTINED + "{tenant=\"big\",} 1.0"));
      }
    }
  }

  /**
   * A wait of at most PATIENCE that fails at once when the checker stops: a failure the handlers
   * did not name a tenant for shuts the client down instead of replacing its stream thread.
   */
  private static ConditionFactory whileRunning(final CheckerApp app) {
    return await().atMost(PATIENCE).failFast("the checker stopped instead of replacing its stream thread",
        () -> STOPPED.contains(app.state()));
  }

  private static double quarantined(final CheckerApp app) {
    final Double v = app.metrics().sample(MetricNames.TENANT_QUARANTINED, new String[] {"tenant"}, new String[] {"big"});
    return v == null ? 0 : v;
  }

  private void produce(final List<TransactionEvent> events) throws Exception {
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      for (final TransactionEvent e : events) {
        producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), null, baseTimestamp, e.getTenant(), e)).get();
      }
    }
  }

  /** As {@link #tickEveryPartition}, for a wait's condition: the condition is not met yet. */
  private boolean tickedEveryPartition() throws Exception {
    tickEveryPartition();
    return false;
  }

  /**
   * A read-only transaction of a clock tenant on every partition, 10 s of record time after the
   * previous one (the idle flush takes 1 s; record times stay behind the broker's wall clock).
   */
  private void tickEveryPartition() throws Exception {
    final int n = ++ticks;
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      for (int p = 0; p < TOPICS.txnEvents().partitions(); p++) {
        final TransactionEvent tick = TransactionEvent.newBuilder()
            .setTenant("clock-" + p).setSession("clock").setSeq(n).setTxn("tick-" + n)
            .setStatus(TxnStatus.COMMITTED).setOps(List.of(new Op(OpType.READ, "c", 0L, null))).build();
        producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), p,
            baseTimestamp + Duration.ofSeconds(10L * n).toMillis(), tick.getTenant(), tick)).get();
      }
    }
  }

  private KafkaProducer<String, TransactionEvent> producer() {
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), serdes.valueSerde(TransactionEvent.class).serializer());
  }

  private static <V> int poll(final KafkaConsumer<String, V> consumer, final List<V> into) {
    consumer.poll(Duration.ofMillis(200)).forEach(r -> into.add(r.value()));
    return into.size();
  }
}
