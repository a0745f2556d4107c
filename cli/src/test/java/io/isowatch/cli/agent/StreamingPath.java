package io.isowatch.cli.agent;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.run.AgentRun;
import io.isowatch.agent.run.MicroClock;
import io.isowatch.agent.run.RunSummary;
import io.isowatch.agent.sink.JsonlFileSink;
import io.isowatch.agent.sink.KafkaTransactionSink;
import io.isowatch.agent.sink.TeeSink;
import io.isowatch.agent.sink.TransactionSink;
import io.isowatch.agent.target.Target;
import io.isowatch.agent.testkit.AgentRuns;
import io.isowatch.cli.CliRun;
import io.isowatch.cli.Services;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.CheckerApp;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.testkit.CheckerItConfig;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Both checks of an agent run (issue 4, item 7): the agent records every transaction to a JSONL
 * file and publishes it to Kafka at once (its tee sink, as {@code isowatch agent --out F --kafka
 * B}); {@code isowatch check --json} checks the file; the real streaming checker ({@link
 * CheckerApp}: the topology of {@code IsoWatchTopology}, exactly-once v2) checks the topic; and the
 * two must agree anomaly for anomaly, level for level. One in-JVM broker, one registry and one
 * running checker (started on first use) serve a whole test class, each run under its own tenant:
 *
 * <pre>{@code
 * @RegisterExtension static final StreamingPath PATH = new StreamingPath();
 * ...
 * final StreamingPath.Checked c = PATH.run("pg-ser", target, config);
 * }</pre>
 *
 * <p>Both paths decide the default levels (SSER, SER, SI), or those given to {@link
 * #StreamingPath(String)}: {@code check.levels} of the checker and {@code --levels} of {@code check}.
 */
public final class StreamingPath implements BeforeAllCallback, AfterAllCallback {
  private static final Logger LOG = LoggerFactory.getLogger(StreamingPath.class);
  private static final Topics TOPICS = Topics.defaults();
  private static final Duration PATIENCE = Duration.ofSeconds(180);
  private static final String CLOCK = "it-clock";
  /** Both paths list every anomaly: the default cap (100) would cut lists at different points. */
  private static final int MAX_ANOMALIES = 100_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The levels both paths decide ({@code check.levels}, {@code --levels}); null: their defaults. */
  private final String levels;
  private final EmbeddedKafka kafka = new EmbeddedKafka();
  private final EmbeddedRegistry registry = new EmbeddedRegistry();
  private final Map<String, List<Anomaly>> anomaliesByTenant = new HashMap<>();
  private final Map<String, TenantVerdict> latestVerdicts = new HashMap<>();
  private Path workDir;
  private CheckerApp app;
  private KafkaConsumer<String, Anomaly> anomalies;
  private KafkaConsumer<String, TenantVerdict> verdicts;
  private int partitions;
  private long lastTickMs;
  private long ticks;

  /** Both paths decide their default levels. */
  public StreamingPath() {
    this(null);
  }

  /** Both paths decide {@code levels}, comma-separated as {@code check.levels} takes them (e.g. RC,SI). */
  public StreamingPath(final String levels) {
    this.levels = levels;
  }

  /** What a run recorded and what both paths concluded (they are equal). */
  public record Checked(AgentRuns.Outcome outcome, PathResult result, Path file) {
    /** A short description for assertion messages. */
    public String describe() {
      final RunSummary s = outcome.summary();
      return String.format(Locale.ROOT, "%d txns (committed %d, aborted %d, unknown %d) in %.1f s; %s; failures %s",
          s.total(), s.committed(), s.aborted(), s.unknown(), outcome.seconds(), result.summary(), s.failureCodes());
    }

    /** This, once asserted that the run completed (no fatal failure). */
    public Checked succeeded() {
      assertTrue(outcome.summary().succeeded(), "run failed: " + outcome.summary().failure());
      return this;
    }
  }

  @Override
  public void beforeAll(final ExtensionContext context) throws Exception {
    kafka.beforeAll(context);
    registry.beforeAll(context);
    kafka.createTopics(TOPICS.all());
    partitions = TOPICS.txnEvents().partitions();
    workDir = Files.createTempDirectory("isowatch-streaming-path");
  }

  /**
   * Starts the checker on first use, so that a test may first see the registry without the
   * schemas the checker registers.
   */
  private void startChecker() throws Exception {
    if (app != null) {
      return;
    }
    app = CheckerApp.start(new IsoWatchStreamsConfig(appConfig()));
    await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
    anomalies = consumer(TOPICS.anomalies().name(), Anomaly.class);
    verdicts = consumer(TOPICS.verdicts().name(), TenantVerdict.class);
  }

  @Override
  public void afterAll(final ExtensionContext context) throws Exception {
    // Closed last to first (consumers, then the checker); try-with-resources skips a null one.
    try (AutoCloseable checker = app; AutoCloseable verdictReader = verdicts; AutoCloseable anomalyReader = anomalies) {
      LOG.debug("Stopping the streaming path started=[{}]", checker != null);
    } finally {
      try {
        deleteWorkDir();
      } finally {
        try {
          registry.afterAll(context);
        } finally {
          kafka.afterAll(context);
        }
      }
    }
  }

  private void deleteWorkDir() throws IOException {
    if (workDir != null) {
      try (Stream<Path> files = Files.walk(workDir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  public URI registryUrl() {
    return registry.url();
  }

  /**
   * Runs the agent on {@code target} with a file sink and a Kafka sink for {@code tenant} (a tenant
   * no other run of the class uses), then {@link #verify}s the file against the stream.
   */
  public Checked run(final String tenant, final Target target, final AgentConfig config) throws Exception {
    final Path file = workDir.resolve(tenant + ".jsonl");
    final long t0 = System.nanoTime();
    final RunSummary summary;
    try (Target closing = target) {
      final TransactionSink sink = new TeeSink(List.of(
          KafkaTransactionSink.create(bootstrapServers(), AvroSerdeConfig.development(registryUrl()), tenant),
          JsonlFileSink.toFile(file)));
      try {
        summary = new AgentRun(config, closing, sink, MicroClock.system(), null).run();
      } finally {
        // Flushes the file and waits for every acknowledgement: the whole run is on the topic.
        sink.close();
      }
    }
    final double seconds = (System.nanoTime() - t0) / 1e9;
    final History history = HistoryIO.read(file, HistoryFormat.JSONL);
    return new Checked(new AgentRuns.Outcome(history, summary, seconds), verify(tenant, file, history.size()), file);
  }

  /**
   * Checks the recorded {@code file} with {@code isowatch check --json} and waits for the
   * streaming checker's final result for {@code tenant}, whose {@code transactions} are all on the
   * topic already; asserts that both agree and returns the result (the streamed one).
   */
  public PathResult verify(final String tenant, final Path file, final long transactions) throws Exception {
    startChecker();
    final PathResult checked = checkFile(tenant, file);
    final long t0 = System.nanoTime();
    final PathResult streamed = streamed(tenant, transactions, checked.anomalies().size());
    LOG.info("Streaming path tenant=[{}] transactions=[{}] anomalies=[{}] seconds=[{}]", tenant, transactions,
        streamed.anomalies().size(), String.format(Locale.ROOT, "%.1f", (System.nanoTime() - t0) / 1e9));
    if (io.isowatch.core.listappend.ListAppendCheck.isListAppend(HistoryIO.read(file, HistoryFormat.JSONL))) {
      assertListAppendAgrees(checked, streamed, file);
      return streamed;
    }
    assertTrue(checked.equals(streamed), () -> "the streaming checker disagrees with isowatch check on " + file
        + " (check vs stream): " + checked.differences(streamed));
    // Equal to checked: what the checker published on the verdicts and anomalies topics.
    return streamed;
  }

  /**
   * What a list-append tenant promises (docs/list-append.md, "Online"): check's verdicts, every
   * anomaly check lists published, and nothing published that violates a level check satisfies (an
   * anomaly published before the lists were complete may name a violation through another cycle).
   */
  private static void assertListAppendAgrees(final PathResult checked, final PathResult streamed, final Path file) {
    assertEquals(checked.verdicts(), streamed.verdicts(), () -> "verdicts on " + file + ": "
        + checked.differences(streamed));
    assertTrue(streamed.anomalies().keySet().containsAll(checked.anomalies().keySet()),
        () -> "the streaming checker did not publish every anomaly check lists on " + file + ": "
            + checked.differences(streamed));
    for (final PathResult.Found f : streamed.anomalies().values()) {
      for (final String l : f.violates()) {
        final Verdict v = checked.verdicts().get(Level.valueOf(l));
        assertTrue(v == null || v == Verdict.VIOLATED, () -> "published " + f + " but check finds " + l + " " + v);
      }
    }
  }

  /** {@code isowatch check FILE --json}, in process; its exit status must match its verdicts. */
  private PathResult checkFile(final String tenant, final Path file) throws Exception {
    final List<String> args = new ArrayList<>(List.of("check", file.toString(), "--json", "--max-anomalies",
        "" + MAX_ANOMALIES));
    if (levels != null) {
      args.addAll(List.of("--levels", levels));
    }
    final CliRun run = CliRun.run(Services.real(), args.toArray(String[]::new));
    final PathResult r = PathResult.fromCheckJson(tenant, JSON.readTree(run.out()));
    assertEquals(r.allSatisfied() ? 0 : 1, run.exit(), "isowatch check exit status; stderr: " + run.err());
    return r;
  }

  /**
   * The streaming checker's result once it has taken in all {@code transactions} of the tenant.
   *
   * <p>The end of a finite stream: the checker buffers a tenant's last transactions until its
   * watermark (latest end time − {@code check.grace.ms}) passes them, and no later transaction of
   * this run will come to move it. The checker here runs with {@code check.idle.flush.ms} = 1 s,
   * which flushes a tenant with buffered transactions once stream time (the largest record
   * timestamp of its partition) is 1 s past its last arrival, exactly as {@code isowatch check}
   * ends a file (docs/streaming.md, "Idle flush"). Stream time only moves with records, so a
   * read-only transaction of a clock tenant is sent to every partition with a timestamp a minute
   * ahead of the latest one sent; then the final verdict is the one counting every transaction as
   * checked.
   */
  private PathResult streamed(final String tenant, final long transactions, final int expectedAnomalies)
      throws Exception {
    tick();
    await().atMost(PATIENCE).until(() -> {
      poll();
      final TenantVerdict v = latestVerdicts.get(tenant);
      return v != null && v.getCounts().getTransactionsChecked() == transactions;
    });
    // The anomalies were committed with or before that verdict; read them all.
    final List<Anomaly> seen = anomaliesByTenant.computeIfAbsent(tenant, t -> new ArrayList<>());
    try {
      await().atMost(PATIENCE).until(() -> {
        poll();
        return seen.size() >= expectedAnomalies;
      });
    } catch (final ConditionTimeoutException e) {
      LOG.warn("Fewer anomalies streamed than check lists tenant=[{}] streamed=[{}] listed=[{}]",
          tenant, seen.size(), expectedAnomalies);
      // Carry on: the comparison in verify names the missing ones.
    }
    // A moment for anything beyond them (a duplicate, an anomaly check does not list) to show up.
    final int[] last = {-1};
    await().during(Duration.ofSeconds(1)).atMost(PATIENCE).until(() -> {
      poll();
      final boolean stable = seen.size() == last[0];
      last[0] = seen.size();
      return stable;
    });
    return PathResult.fromStream(seen, latestVerdicts.get(tenant));
  }

  /** A read-only transaction of the clock tenant on every partition, a minute past the latest. */
  private void tick() throws Exception {
    ticks++;
    lastTickMs = Math.max(lastTickMs, System.currentTimeMillis()) + Duration.ofMinutes(1).toMillis();
    final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.development(registryUrl()));
    try (KafkaProducer<String, TransactionEvent> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all"),
        new StringSerializer(), serdes.valueSerde(TransactionEvent.class).serializer())) {
      for (int p = 0; p < partitions; p++) {
        final TransactionEvent tick = TransactionEvent.newBuilder()
            .setTenant(CLOCK).setSession("clock-" + p).setSeq(ticks).setTxn("tick-" + p + "-" + ticks)
            .setStatus(TxnStatus.COMMITTED).setOps(List.of(new Op(OpType.READ, "c", 0L, null))).build();
        producer.send(new ProducerRecord<>(TOPICS.txnEvents().name(), p, lastTickMs, CLOCK, tick)).get();
      }
    }
  }

  private void poll() {
    anomalies.poll(Duration.ofMillis(100)).forEach(r ->
        anomaliesByTenant.computeIfAbsent(r.key(), t -> new ArrayList<>()).add(r.value()));
    verdicts.poll(Duration.ofMillis(100)).forEach(r -> latestVerdicts.put(r.key(), r.value()));
  }

  private Map<String, Object> appConfig() {
    final Map<String, Object> p = CheckerItConfig.base(bootstrapServers(), registryUrl(),
        "it-agent-checker", workDir.resolve("state"));
    p.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "0");
    p.put(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "127.0.0.1");
    p.put(IsoWatchStreamsConfig.CHECK_IDLE_FLUSH_MS_CONFIG, "1000");
    p.put(IsoWatchStreamsConfig.CHECK_MAX_ANOMALIES_CONFIG, "" + MAX_ANOMALIES);
    p.put(IsoWatchStreamsConfig.VERDICT_INTERVAL_MS_CONFIG, "300");
    if (levels != null) {
      p.put(IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, levels);
    }
    return p;
  }

  private <V extends SpecificRecord> KafkaConsumer<String, V> consumer(final String topic, final Class<V> type) {
    final KafkaConsumer<String, V> c = new KafkaConsumer<>(Map.of(
        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
        ConsumerConfig.GROUP_ID_CONFIG, "it-path-reader-" + topic,
        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
        new StringDeserializer(), new AvroSerdes(AvroSerdeConfig.development(registryUrl())).valueSerde(type).deserializer());
    c.subscribe(List.of(topic));
    return c;
  }
}
