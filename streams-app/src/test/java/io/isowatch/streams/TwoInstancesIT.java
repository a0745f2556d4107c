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
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.streams.avro.TransactionEvents;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.serde.AvroSerdeConfig;
import io.isowatch.streams.serde.AvroSerdes;
import io.isowatch.streams.testkit.CheckerItConfig;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two instances of one checker (issue 10, item 3): instance A ({@code isowatch run} in a child JVM)
 * checks the first part of twelve tenants' histories on the six input partitions; instance B (same
 * application id, its own state directory, in this JVM) joins mid-stream and takes tasks; then A is
 * killed with SIGKILL and B takes over A's tasks. A read-committed consumer sees every anomaly of
 * the histories exactly once, and both instances owned tasks: A published anomalies before B
 * existed, B checked transactions while A was alive.
 */
@Tag("integration")
class TwoInstancesIT {
  private static final Logger LOG = LoggerFactory.getLogger(TwoInstancesIT.class);

  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final Topics TOPICS = Topics.defaults();
  private static final int TENANTS = 12;
  private static final String APP_ID = "two-instances";
  private static final Duration PATIENCE = Duration.ofSeconds(120);

  @TempDir Path dir;

  private final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url()));
  private final long baseTimestamp = System.currentTimeMillis() - Duration.ofHours(1).toMillis();

  @Test
  void shouldPublishEveryAnomalyOnceWhenASecondInstanceJoinsAndTheFirstIsKilled() throws Exception {
    // Given: twelve tenants' histories with injected anomalies; the first third of each is published.
    assertTrue(TOPICS.txnEvents().partitions() >= 2, "tasks to share");
    KAFKA.createTopics(TOPICS.all());
    final Set<String> expected = new TreeSet<>();
    final List<List<TransactionEvent>> histories = new ArrayList<>();
    for (int i = 0; i < TENANTS; i++) {
      final String tenant = "tenant-" + i;
      final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
          .withSeed(3_000 + i).withTransactions(300).withSessions(6).withKeys(40)
          .withInjectAt(0.1 + 0.8 * i / TENANTS)
          .withInjections(Injection.parseList("LostUpdate:2,WriteSkew:1,FracturedRead:1")));
      final List<TransactionEvent> events = h.transactions().stream().map(t -> TransactionEvents.fromCore(tenant, t))
          .toList();
      histories.add(events);
      OnlineChecker.check(new History(events.stream().map(TransactionEvents::toCore).toList()),
          CheckOptions.defaults()).anomalies().forEach(a ->
              expected.add(AnomalyIds.of(tenant, a.type(), a.name(), a.txnIds())));
    }
    produce(histories, 0, 100);

    try (KafkaConsumer<String, Anomaly> anomalies = KAFKA.readCommitted(TOPICS.anomalies().name(), "two-reader",
        serdes.valueSerde(Anomaly.class).deserializer())) {
      final List<Anomaly> seen = new ArrayList<>();
      // When: A runs alone and publishes its first anomalies (it owns every task) ...
      final Process a = startChecker(writeConfig());
      try {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).until(() -> poll(anomalies, seen) > 0);
        final int byAAlone = seen.size();
        // ... B joins with its own state directory, takes tasks, and checks the next third ...
        final Map<String, Object> props = CheckerItConfig.base(KAFKA.bootstrapServers(), REGISTRY.url(), APP_ID,
            dir.resolve("state-b"));
        props.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "-1");
        props.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "1");
        props.put(IsoWatchStreamsConfig.CHECK_IDLE_FLUSH_MS_CONFIG, "1000");
        props.put("kafka.consumer.session.timeout.ms", "6000");
        try (CheckerApp b = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
          await().atMost(PATIENCE).until(() -> b.state() == KafkaStreams.State.RUNNING);
          produce(histories, 100, 200);
          await().atMost(PATIENCE).until(() -> checkedBy(b) > 0);
          final double checkedByB = checkedBy(b);
          // ... then A is killed with SIGKILL and B takes over its tasks; the last third comes.
          a.destroyForcibly();
          assertTrue(a.waitFor(30, TimeUnit.SECONDS));
          assertEquals(137, a.exitValue(), "killed by SIGKILL");
          produce(histories, 200, 300);
          tickEveryPartition();
          // Then: every anomaly exactly once, and both instances owned tasks.
          await().atMost(PATIENCE).until(() -> poll(anomalies, seen) >= expected.size());
          await().during(Duration.ofSeconds(3)).atMost(PATIENCE).until(() -> poll(anomalies, seen) == expected.size());
          LOG.info("Two instances anomaliesByAAlone=[{}] transactionsCheckedByBWithA=[{}] anomalies=[{}]", byAAlone,
              checkedByB, seen.size());
          assertTrue(byAAlone > 0, "A owned tasks");
          assertTrue(checkedByB > 0, "B owned tasks while A was alive");
          assertTrue(checkedBy(b) > checkedByB, "B took over");
          assertEquals(KafkaStreams.State.RUNNING, b.state());
        }
      } finally {
        a.destroyForcibly();
      }
      final List<String> ids = seen.stream().map(Anomaly::getAnomalyId).toList();
      assertEquals(ids.size(), Set.copyOf(ids).size(), "an anomaly was published twice");
      assertEquals(expected, new TreeSet<>(ids));
    }
  }

  /** Transactions instance B checked, all tenants. */
  private static double checkedBy(final CheckerApp app) {
    return app.metrics().scrape().lines()
        .filter(l -> l.startsWith(MetricNames.TRANSACTIONS_CHECKED_TOTAL + "{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }

  private Path writeConfig() throws IOException {
    final Path file = dir.resolve("checker-a.properties");
    Files.writeString(file, String.join("\n",
        "bootstrap.servers=" + KAFKA.bootstrapServers(),
        "schema.registry.url=" + REGISTRY.url(),
        "schemas.auto.register=true",
        "application.id=" + APP_ID,
        "state.dir=" + dir.resolve("state-a"),
        "http.port=" + freePort(),
        "http.host=127.0.0.1",
        "check.grace.ms=1",
        "check.idle.flush.ms=1000",
        "verdict.interval.ms=1000",
        "kafka.commit.interval.ms=100",
        // The killed member never leaves the group: B takes its partitions after this, not 45 s.
        "kafka.consumer.session.timeout.ms=6000",
        ""));
    return file;
  }

  /** {@code isowatch run --config FILE} in a child JVM with the test class path. */
  private Process startChecker(final Path config) throws IOException {
    final String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    final Path log = Path.of("target", "two-instances-a.log").toAbsolutePath();
    final Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-Xmx384m",
        "-cp", classPath, "io.isowatch.cli.Main", "run", "--config", config.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    LOG.info("Checker A started pid=[{}] log=[{}]", p.pid(), log);
    return p;
  }

  private void produce(final List<List<TransactionEvent>> histories, final int from, final int to) throws Exception {
    try (KafkaProducer<String, TransactionEvent> producer = producer()) {
      for (int i = from; i < to; i++) {
        for (final List<TransactionEvent> h : histories) {
          if (i < h.size()) {
            producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), null, baseTimestamp, h.get(i).getTenant(),
                h.get(i)));
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
    return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), serdes.valueSerde(TransactionEvent.class).serializer());
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
