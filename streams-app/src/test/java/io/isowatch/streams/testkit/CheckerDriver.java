package io.isowatch.streams.testkit;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.IsoWatchTopology;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;

/**
 * The checker's topology ({@link IsoWatchTopology#build}) in a {@link TopologyTestDriver} with real
 * RocksDB stores under a given state directory and the real registry's serdes (development
 * profile). Typed input and output topics, plus raw bytes for dead-letter tests.
 *
 * <p>Test defaults: grace 0 and idle flush after 1 s of stream time. All records carry the time
 * {@link #START}; {@link #flushIdleTenants} moves stream time on by an hour with a read-only
 * transaction of the tenant {@link #CLOCK}, whose outputs the readers here leave out.
 */
public final class CheckerDriver implements AutoCloseable {
  /** Start of the driver's mock wall clock and record timestamps. */
  public static final Instant START = Instant.parse("2026-11-21T12:00:00Z");

  /** The tenant whose transactions only move stream time on. */
  public static final String CLOCK = "test-clock";

  private long clockTicks;

  private final TopologyTestDriver driver;
  private final CheckerMetrics metrics = new CheckerMetrics();
  private final IsoWatchStreamsConfig config;
  private final TestInputTopic<String, TransactionEvent> events;
  private final TestInputTopic<byte[], byte[]> raw;
  private final TestOutputTopic<String, Anomaly> anomalies;
  private final TestOutputTopic<String, TenantVerdict> verdicts;
  private final TestOutputTopic<byte[], DeadLetter> deadLetters;

  /**
   * @param overrides configuration keys on top of the test defaults (registry, state dir, dev
   *     profile)
   */
  public CheckerDriver(final URI registry, final Path stateDir, final Map<String, String> overrides) {
    final Map<String, Object> props = new HashMap<>();
    props.put(IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.toString());
    props.put(IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true");
    props.put(IsoWatchStreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    props.put(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "ttd:9092");
    props.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "0");
    props.put(IsoWatchStreamsConfig.CHECK_IDLE_FLUSH_MS_CONFIG, "1000");
    props.putAll(overrides);
    config = new IsoWatchStreamsConfig(props);
    driver = new TopologyTestDriver(IsoWatchTopology.build(config, metrics), config.streamsProperties(), START);
    final Topics topics = config.topics();
    final AvroSerdes serdes = new AvroSerdes(config.avroSerdeConfig());
    events = driver.createInputTopic(topics.txnEvents().name(), Serdes.String().serializer(),
        serdes.valueSerde(TransactionEvent.class).serializer(), START, Duration.ZERO);
    raw = driver.createInputTopic(topics.txnEvents().name(), Serdes.ByteArray().serializer(),
        Serdes.ByteArray().serializer(), START, Duration.ZERO);
    anomalies = driver.createOutputTopic(topics.anomalies().name(), Serdes.String().deserializer(),
        serdes.valueSerde(Anomaly.class).deserializer());
    verdicts = driver.createOutputTopic(topics.verdicts().name(), Serdes.String().deserializer(),
        serdes.valueSerde(TenantVerdict.class).deserializer());
    deadLetters = driver.createOutputTopic(topics.deadLetters().name(), Serdes.ByteArray().deserializer(),
        serdes.valueSerde(DeadLetter.class).deserializer());
  }

  public CheckerDriver(final URI registry, final Path stateDir) {
    this(registry, stateDir, Map.of());
  }

  /** The events of a history for a tenant, in its order; sessions get seq numbers in line order. */
  public static List<TransactionEvent> events(final String tenant, final History history) {
    final Map<String, Long> nextSeq = new HashMap<>();
    final List<TransactionEvent> out = new ArrayList<>();
    for (final Transaction t : history.transactions()) {
      final long seq = t.hasSeq() ? t.seq() : nextSeq.getOrDefault(t.session(), 0L);
      nextSeq.put(t.session(), seq + 1);
      out.add(TransactionEvents.fromCore(tenant, t.withSeq(seq)));
    }
    return out;
  }

  /** Pipes events keyed by their tenant, with the driver's current record time. */
  public void pipe(final List<TransactionEvent> list) {
    for (final TransactionEvent e : list) {
      events.pipeInput(e.getTenant(), e);
    }
  }

  /** Pipes one event keyed by its tenant with this record timestamp (the checker's arrival time). */
  public void pipe(final TransactionEvent e, final Instant timestamp) {
    events.pipeInput(e.getTenant(), e, timestamp);
  }

  public void pipeRaw(final byte[] key, final byte[] value) {
    raw.pipeInput(key, value);
  }

  /**
   * Moves stream time on by an hour, so that the idle-flush punctuator releases every tenant's
   * buffer; the clock transaction itself stays buffered.
   */
  public void flushIdleTenants() {
    clockTicks++;
    final TransactionEvent tick = TransactionEvent.newBuilder()
        .setTenant(CLOCK).setSession("clock").setSeq(clockTicks).setTxn("tick-" + clockTicks)
        .setStatus(io.isowatch.schemas.TxnStatus.COMMITTED)
        .setOps(List.of(new io.isowatch.schemas.Op(io.isowatch.schemas.OpType.READ, "c", 0L, null)))
        .build();
    events.pipeInput(CLOCK, tick, START.plus(Duration.ofHours(clockTicks)));
  }

  /** Published anomalies, the clock's left out. */
  public List<Anomaly> anomalies() {
    return anomalies.readValuesToList().stream().filter(a -> !CLOCK.equals(a.getTenant())).toList();
  }

  /** Published verdicts, the clock's left out. */
  public List<TenantVerdict> verdicts() {
    return verdicts.readValuesToList().stream().filter(v -> !CLOCK.equals(v.getTenant())).toList();
  }

  public List<DeadLetter> deadLetters() {
    return deadLetters.readValuesToList();
  }

  /** Fires the wall-clock verdict punctuator once. */
  public void publishVerdicts() {
    driver.advanceWallClockTime(Duration.ofMillis(config.verdictIntervalMs()));
  }

  public CheckerMetrics metrics() {
    return metrics;
  }

  public TopologyTestDriver driver() {
    return driver;
  }

  @Override
  public void close() {
    driver.close();
  }
}
