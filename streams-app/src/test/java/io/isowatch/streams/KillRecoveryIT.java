package io.isowatch.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.streams.avro.AnomalyRecords;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.streams.avro.TransactionEvents;
import io.isowatch.streams.serde.AvroSerdeConfig;
import io.isowatch.streams.serde.AvroSerdes;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once across a crash: {@code isowatch run} in a child JVM is killed with SIGKILL (no
 * shutdown hook, no commit, no checkpoint) while it publishes anomalies, then started again on the
 * same state directory. A read-committed consumer must see every anomaly of the histories exactly
 * once.
 */
@Tag("integration")
class KillRecoveryIT {
  private static final Logger LOG = LoggerFactory.getLogger(KillRecoveryIT.class);

  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final Topics TOPICS = Topics.defaults();
  private static final int TENANTS = 12;
  private static final Duration PATIENCE = Duration.ofSeconds(90);

  @TempDir Path dir;

  private final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url()));
  private final long baseTimestamp = System.currentTimeMillis() - Duration.ofHours(1).toMillis();

  @Test
  void shouldPublishEveryAnomalyExactlyOnceWhenTheCheckerIsKilledAndRestarted() throws Exception {
    // Given: twelve tenants' histories with injected anomalies, interleaved on the input topic.
    KAFKA.createTopics(TOPICS.all());
    final Set<String> expected = new TreeSet<>();
    final List<List<TransactionEvent>> histories = new ArrayList<>();
    for (int i = 0; i < TENANTS; i++) {
      final String tenant = "tenant-" + i;
      final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
          .withSeed(1_000 + i).withTransactions(400).withSessions(6).withKeys(40)
          .withInjectAt(0.1 + 0.8 * i / TENANTS)
          .withInjections(Injection.parseList("LostUpdate:2,WriteSkew:1,FracturedRead:1")));
      final List<TransactionEvent> events = h.transactions().stream()
          .map(t -> TransactionEvents.fromCore(tenant, t)).toList();
      histories.add(events);
      OnlineChecker.check(new History(events.stream().map(TransactionEvents::toCore).toList()),
          CheckOptions.defaults()).anomalies().forEach(a ->
              expected.add(AnomalyRecords.uniqueId(tenant, a)));
    }
    produceInterleaved(histories);
    final Path config = writeConfig();

    try (KafkaConsumer<String, Anomaly> anomalies = consumer()) {
      final List<Anomaly> seen = new ArrayList<>();
      // When: the first checker is killed as soon as its first anomalies are committed.
      final Process first = startChecker(config, "first");
      try {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).until(() -> poll(anomalies, seen) > 0);
      } finally {
        first.destroyForcibly();
        assertTrue(first.waitFor(30, TimeUnit.SECONDS));
      }
      LOG.info("Checker killed exitCode=[{}] anomaliesSeen=[{}] expected=[{}]", first.exitValue(), seen.size(),
          expected.size());
      assertEquals(137, first.exitValue(), "killed by SIGKILL");
      // ... and a second one starts on the same state directory; the tenants' tails are flushed.
      final Process second = startChecker(config, "second");
      try {
        tickEveryPartition();
        await().atMost(PATIENCE).until(() -> poll(anomalies, seen) >= expected.size());
        await().during(Duration.ofSeconds(3)).atMost(PATIENCE).until(() -> poll(anomalies, seen) == expected.size());
      } finally {
        second.destroy();
        if (!second.waitFor(60, TimeUnit.SECONDS)) {
          second.destroyForcibly();
        }
      }
      // Then: every anomaly exactly once.
      final List<String> ids = seen.stream().map(Anomaly::getUniqueId).toList();
      assertEquals(ids.size(), Set.copyOf(ids).size(), "an anomaly was published twice");
      assertEquals(expected, new TreeSet<>(ids));
    }
  }

  private Path writeConfig() throws IOException {
    final Path file = dir.resolve("checker.properties");
    Files.writeString(file, String.join("\n",
        "bootstrap.servers=" + KAFKA.bootstrapServers(),
        "schema.registry.url=" + REGISTRY.url(),
        "schemas.auto.register=true",
        "application.id=kill-recovery",
        "state.dir=" + dir.resolve("state"),
        "http.port=" + freePort(),
        "http.host=127.0.0.1",
        // Generated histories span a few milliseconds: a 1 ms grace releases them as they arrive.
        "check.grace.ms=1",
        "check.idle.flush.ms=1000",
        "verdict.interval.ms=1000",
        "kafka.commit.interval.ms=100",
        // The killed member never leaves the group: the broker's minimum session timeout lets the
        // second one take its partitions in seconds instead of the default 45.
        "kafka.consumer.session.timeout.ms=6000",
        ""));
    return file;
  }

  /** {@code isowatch run --config FILE} in a child JVM with the test class path. */
  private Process startChecker(final Path config, final String name) throws IOException {
    final String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    final Path log = Path.of("target", "kill-recovery-" + name + ".log").toAbsolutePath();
    final Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-Xmx384m",
        "-cp", classPath, "io.isowatch.cli.Main", "run", "--config", config.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    LOG.info("Checker started name=[{}] pid=[{}] log=[{}]", name, p.pid(), log);
    return p;
  }

  private void produceInterleaved(final List<List<TransactionEvent>> histories) throws Exception {
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      final int longest = histories.stream().mapToInt(List::size).max().orElse(0);
      for (int i = 0; i < longest; i++) {
        for (final List<TransactionEvent> h : histories) {
          if (i < h.size()) {
            producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), null, baseTimestamp,
                h.get(i).getTenant(), h.get(i)));
          }
        }
      }
      producer.flush();
    }
  }

  /** A read-only transaction of a clock tenant on every partition, five minutes later: idle flush. */
  private void tickEveryPartition() throws Exception {
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      for (int p = 0; p < TOPICS.txnEvents().partitions(); p++) {
        final TransactionEvent tick = TransactionEvent.newBuilder()
            .setTenant("clock-" + p).setSession("clock").setSeq(0).setTxn("tick")
            .setStatus(TxnStatus.COMMITTED).setOps(List.of(new Op(OpType.READ, "c", 0L))).build();
        producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), p,
            baseTimestamp + Duration.ofMinutes(5).toMillis(), tick.getTenant(), tick)).get();
      }
    }
  }

  private KafkaProducer<String, TransactionEvent> producer() {
    final Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers());
    config.put(ProducerConfig.ACKS_CONFIG, "all");
    return new KafkaProducer<>(config, new StringSerializer(), serdes.valueSerde(TransactionEvent.class).serializer());
  }

  private KafkaConsumer<String, Anomaly> consumer() {
    final KafkaConsumer<String, Anomaly> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "kill-recovery-reader",
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
        new StringDeserializer(), serdes.valueSerde(Anomaly.class).deserializer());
    c.subscribe(List.of(TOPICS.anomalies().name()));
    return c;
  }

  private static int poll(final KafkaConsumer<String, Anomaly> consumer, final List<Anomaly> into) {
    consumer.poll(Duration.ofMillis(200)).forEach(r -> into.add(r.value()));
    return into.size();
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
