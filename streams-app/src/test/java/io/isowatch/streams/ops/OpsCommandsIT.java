package io.isowatch.streams.ops;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.CheckerApp;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.testkit.CheckerItConfig;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import io.isowatch.streams.testkit.TestEvents;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code isowatch reset} and {@code isowatch dlq replay} against a real in-JVM broker and the real
 * registry, with the real checker.
 */
@Tag("integration")
class OpsCommandsIT {
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Topics TOPICS = Topics.defaults();
  private static final String APP_ID = "ops-it-checker";

  @TempDir Path dir;

  private final AvroSerdes serdes = new AvroSerdes(AvroSerdeConfig.development(REGISTRY.url()));

  @Test
  void shouldRefuseWhileRunningOrUnconfirmedAndStartOverWhenResetWithYes() throws Exception {
    // Given: the checker has processed five transactions and committed its offsets.
    KAFKA.createTopics(TOPICS.all());
    final Path state = dir.resolve("state");
    final Path config = configFile(state);
    produceEvents("acme", 5);
    try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(appConfig(state)))) {
      await().atMost(PATIENCE).until(() -> committed() == 5);
      assertEquals(5.0, app.metrics().sample(MetricNames.TRANSACTIONS_CHECKED_TOTAL,
          new String[] {"tenant"}, new String[] {"acme"}));
      // When: a reset is asked for while it runs
      final Run whileRunning = run(new ResetCommand(), "--config", config.toString(), "--yes");
      // Then: it is refused and nothing changes.
      assertEquals(ResetCommand.EXIT_REFUSED, whileRunning.exit(), whileRunning.toString());
      assertTrue(whileRunning.err().contains("refused: the checker is running"), whileRunning.err());
      assertFalse(internalTopics().isEmpty());
    }
    // When: asked without --yes
    final Run unconfirmed = run(new ResetCommand(), "--config", config.toString());
    // Then: it prints the plan and changes nothing.
    assertEquals(ResetCommand.EXIT_REFUSED, unconfirmed.exit(), unconfirmed.toString());
    assertTrue(unconfirmed.err().contains("nothing changed"), unconfirmed.err());
    assertTrue(unconfirmed.out().contains(APP_ID + "-tenant-transactions-changelog"), unconfirmed.out());
    assertTrue(unconfirmed.out().contains("committed offset"), unconfirmed.out());
    assertEquals(5, committed());
    assertFalse(internalTopics().isEmpty());
    assertTrue(Files.isDirectory(state.resolve(APP_ID)));

    // When: confirmed
    final Run confirmed = run(new ResetCommand(), "--config", config.toString(), "--yes");
    // Then: group, changelogs and local state are gone, the input and outputs are untouched ...
    assertEquals(ResetCommand.EXIT_DONE, confirmed.exit(), confirmed.toString());
    assertEquals(0, committed());
    await().atMost(PATIENCE).until(() -> internalTopics().isEmpty());
    assertFalse(Files.exists(state.resolve(APP_ID)));
    try (Admin admin = KAFKA.admin()) {
      assertTrue(admin.listTopics().names().get().containsAll(
          List.of(TOPICS.txnEvents().name(), TOPICS.anomalies().name(), TOPICS.verdicts().name())));
    }
    // ... and a new run checks the whole input again (a plain restart would restore and check nothing new).
    try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(appConfig(state)))) {
      await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING && committed() == 5);
      assertEquals(5.0, app.metrics().sample(MetricNames.TRANSACTIONS_CHECKED_TOTAL,
          new String[] {"tenant"}, new String[] {"acme"}));
    }
  }

  @Test
  void shouldRepublishTheRawBytesOfEachLetterOnlyWhenNotADryRun() throws Exception {
    // Given: a source topic and three dead letters from it (two with values, one tombstone) plus
    // a record on the DLQ that is no DeadLetter at all.
    final String source = "ops-it-source";
    KAFKA.createTopics(List.of(TOPICS.deadLetters()));
    try (Admin admin = KAFKA.admin()) {
      admin.createTopics(List.of(new NewTopic(source, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
    }
    final Serializer<TransactionEvent> events = serdes.valueSerde(TransactionEvent.class).serializer();
    final byte[] v1 = events.serialize(source, TestEvents.rmw("t1", "s1", 0, "s1-0", "x", 0L, 1));
    final byte[] v2 = events.serialize(source, TestEvents.rmw("t1", "s1", 1, "s1-1", "x", 1L, 2));
    final List<DeadLetter> letters = List.of(
        letter(source, 7, "t1", v1, "io.isowatch.streams.InvalidRecordException"),
        letter(source, 8, "t1", null, "io.isowatch.streams.InvalidRecordException"),
        letter(source, 9, "t1", v2, "org.apache.kafka.common.errors.SerializationException"));
    final Serializer<DeadLetter> dlqValues = serdes.valueSerde(DeadLetter.class).serializer();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
        Map.of("bootstrap.servers", KAFKA.bootstrapServers()), new ByteArraySerializer(), new ByteArraySerializer())) {
      for (final DeadLetter l : letters) {
        producer.send(new ProducerRecord<>(TOPICS.deadLetters().name(), bytes(l.getRawKey()),
            dlqValues.serialize(TOPICS.deadLetters().name(), l))).get();
      }
      producer.send(new ProducerRecord<>(TOPICS.deadLetters().name(), null,
          "not a dead letter".getBytes(StandardCharsets.UTF_8))).get();
    }
    final Path config = configFile(dir.resolve("state"));

    // When: a dry run
    final Run dry = run(new DlqCommand(), "replay", "--config", config.toString(), "--dry-run");
    // Then: it lists what it would do and publishes nothing.
    assertEquals(0, dry.exit(), dry.toString());
    assertTrue(dry.out().contains("would replay 2 dead letter(s); skipped 1 without value; 1 unreadable; next --from-offset 4"),
        dry.out());
    assertTrue(dry.out().contains("0/0 WOULD_REPLAY ops-it-source/0/7 -> ops-it-source"), dry.out());
    assertEquals(0, read(source).size());

    // When: replayed for real, then only from offset 2 and only SerializationExceptions
    final Run real = run(new DlqCommand(), "replay", "--config", config.toString());
    final Run filtered = run(new DlqCommand(), "replay", "--config", config.toString(),
        "--from-offset", "2", "--error", "SerializationException");
    // Then: the raw keys and values arrive byte for byte, in DLQ order.
    assertEquals(0, real.exit(), real.toString());
    assertTrue(real.out().contains("replayed 2 dead letter(s)"), real.out());
    assertEquals(0, filtered.exit(), filtered.toString());
    assertTrue(filtered.out().contains("replayed 1 dead letter(s)"), filtered.out());
    final List<ConsumerRecord<byte[], byte[]>> replayed = read(source);
    assertEquals(3, replayed.size());
    assertArrayEquals("t1".getBytes(StandardCharsets.UTF_8), replayed.get(0).key());
    assertArrayEquals(v1, replayed.get(0).value());
    assertArrayEquals(v2, replayed.get(1).value());
    assertArrayEquals(v2, replayed.get(2).value());
    assertNull(letters.get(1).getRawValue());
  }

  @Test
  void shouldServeEveryMetricTheOpsFilesUseWhenRunning() throws Exception {
    // Given: a tenant promised SER that loses an update, and one undecodable record.
    KAFKA.createTopics(TOPICS.all());
    final Map<String, Object> props = appConfig(dir.resolve("metrics-state"));
    props.put(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG, "ops-it-metrics");
    props.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "0");
    props.put(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "127.0.0.1");
    props.put(IsoWatchStreamsConfig.VERDICT_INTERVAL_MS_CONFIG, "200");
    // RC is promised but not decided (check.levels is SSER,SER,SI): exported as unchecked.
    props.put(IsoWatchStreamsConfig.TENANT_PROMISED_LEVELS_CONFIG, "lossy:SER,lossy:RC,*:SI");
    try (KafkaProducer<String, TransactionEvent> p = new KafkaProducer<>(
        Map.of("bootstrap.servers", KAFKA.bootstrapServers()), new StringSerializer(),
        serdes.valueSerde(TransactionEvent.class).serializer())) {
      // Both read x=0 and write it: a lost update.
      p.send(new ProducerRecord<>(TOPICS.txnEvents().name(), "lossy",
          TestEvents.rmw("lossy", "s1", 0, "s1-0", "x", 0L, 1))).get();
      p.send(new ProducerRecord<>(TOPICS.txnEvents().name(), "lossy",
          TestEvents.rmw("lossy", "s2", 1, "s2-1", "x", 0L, 2))).get();
      // A later transaction moves the tenant's watermark past both.
      p.send(new ProducerRecord<>(TOPICS.txnEvents().name(), "lossy",
          TestEvents.rmw("lossy", "s3", 9, "s3-9", "y", 0L, 1))).get();
    }
    try (KafkaProducer<String, byte[]> raw = new KafkaProducer<>(Map.of("bootstrap.servers", KAFKA.bootstrapServers()),
        new StringSerializer(), new ByteArraySerializer())) {
      raw.send(new ProducerRecord<>(TOPICS.txnEvents().name(), "lossy", new byte[] {1, 2, 3})).get();
    }
    // When
    try (CheckerApp app = CheckerApp.start(new IsoWatchStreamsConfig(props))) {
      final java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
      final java.net.http.HttpRequest get = java.net.http.HttpRequest.newBuilder(
          java.net.URI.create("http://127.0.0.1:" + app.httpPort() + "/metrics")).build();
      final String[] scrape = {""};
      await().atMost(PATIENCE).until(() -> {
        scrape[0] = http.send(get, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        return scrape[0].contains("isowatch_level_verdict{tenant=\"lossy\",level=\"SER\",verdict=\"VIOLATED\",} 1.0")
            && scrape[0].contains("isowatch_dlq_records_total{error=")
            && MetricNames.KAFKA_STREAMS_USED.stream().allMatch(n -> scrape[0].contains("\n" + n + "{"));
      });
      // Then: every family the rules and the dashboard use is served ...
      // (A labelled family is served from its first sample: this short run need have no finding, no
      // restore, no retraction, no quarantine and no cut, so no prune, checkpoint or filter of
      // retired versions; and no anomaly outside a promise, which would be "allowed".)
      final Set<String> eventDriven = Set.of(MetricNames.INPUT_FINDINGS_TOTAL, MetricNames.TENANT_RESTORES_TOTAL,
          MetricNames.PRUNED_TRANSACTIONS_TOTAL, MetricNames.PRUNE_SECONDS, MetricNames.CHECKPOINT_BYTES,
          MetricNames.CHECKPOINTS_TOTAL, MetricNames.CHECKPOINT_SECONDS, MetricNames.INPUTS_DELETED_TOTAL,
          MetricNames.FINDINGS, MetricNames.ANOMALIES_RETRACTED_TOTAL, MetricNames.RETIRED_FALSE_POSITIVE_RATIO,
          MetricNames.RETIRED_RUNS, MetricNames.RETIRED_RUN_BYTES, MetricNames.TENANT_QUARANTINED,
          MetricNames.PROMISE_ALLOWED_ANOMALIES_TOTAL);
      for (final String family : MetricNames.ALL) {
        if (!eventDriven.contains(family)) {
          assertTrue(scrape[0].contains("# TYPE " + family + " "), family + " missing in\n" + scrape[0]);
        }
      }
      // ... the promised levels as configured, the lost update under its level, the dead letter.
      assertTrue(scrape[0].contains("isowatch_promised_level{tenant=\"lossy\",level=\"SER\",} 1.0"), scrape[0]);
      assertFalse(scrape[0].contains("isowatch_promised_level{tenant=\"lossy\",level=\"SI\""), scrape[0]);
      assertTrue(scrape[0].contains("isowatch_promise_unchecked_level{tenant=\"lossy\",level=\"RC\",} 1.0"), scrape[0]);
      assertTrue(scrape[0].contains("isowatch_promise_broken_anomalies_total{tenant=\"lossy\","), scrape[0]);
      assertTrue(scrape[0].contains("isowatch_anomalies_total{tenant=\"lossy\",type=\"G-single\",name=\"LostUpdate\","
          + "level=\"SER\",} 1.0"), scrape[0]);
      assertTrue(scrape[0].contains("isowatch_dlq_records_total{error="), scrape[0]);
      // The main consumer's lag per partition, tagged with the input topic's name (the dashboard's filter).
      assertTrue(scrape[0].contains("StreamThread-1-consumer\",partition=\"0\",topic=\"isowatch.txn-events.v1\",}"),
          scrape[0]);
    }
  }

  private static DeadLetter letter(final String source, final long offset, final String key, final byte[] value,
      final String error) {
    return DeadLetter.newBuilder()
        .setSourceTopic(source).setSourcePartition(0).setSourceOffset(offset)
        .setSourceTimestampMillis(System.currentTimeMillis())
        .setErrorClass(error).setErrorMessage("test letter")
        .setRawKey(ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)))
        .setRawValue(value == null ? null : ByteBuffer.wrap(value))
        .setDeadLetteredAtMicros(System.currentTimeMillis() * 1_000L)
        .build();
  }

  private static byte[] bytes(final ByteBuffer b) {
    final ByteBuffer d = b.duplicate();
    final byte[] out = new byte[d.remaining()];
    d.get(out);
    return out;
  }

  private static List<ConsumerRecord<byte[], byte[]>> read(final String topic) {
    try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of("bootstrap.servers", KAFKA.bootstrapServers()),
        new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      final TopicPartition tp = new TopicPartition(topic, 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      final long end = c.endOffsets(List.of(tp)).get(tp);
      final List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
      await().atMost(PATIENCE).until(() -> {
        c.poll(Duration.ofMillis(200)).forEach(out::add);
        return c.position(tp) >= end;
      });
      return out;
    }
  }

  private void produceEvents(final String tenant, final int n) throws Exception {
    try (KafkaProducer<String, TransactionEvent> p = new KafkaProducer<>(
        Map.of("bootstrap.servers", KAFKA.bootstrapServers()), new StringSerializer(),
        serdes.valueSerde(TransactionEvent.class).serializer())) {
      for (int i = 0; i < n; i++) {
        p.send(new ProducerRecord<>(TOPICS.txnEvents().name(), tenant,
            TestEvents.rmw(tenant, "s1", i, "s1-" + i, "x", (long) i, i + 1))).get();
      }
    }
  }

  /** Sum of the group's committed input offsets. */
  private static long committed() throws Exception {
    try (Admin admin = KAFKA.admin()) {
      return admin.listConsumerGroupOffsets(APP_ID).partitionsToOffsetAndMetadata().get().values().stream()
          .filter(o -> o != null).mapToLong(o -> o.offset()).sum();
    }
  }

  private static Set<String> internalTopics() throws Exception {
    try (Admin admin = KAFKA.admin()) {
      return Set.copyOf(admin.listTopics().names().get().stream()
          .filter(t -> AppReset.isInternalTopic(APP_ID, t)).toList());
    }
  }

  private Map<String, Object> appConfig(final Path state) {
    final Map<String, Object> p = CheckerItConfig.base(KAFKA.bootstrapServers(), REGISTRY.url(), APP_ID, state);
    p.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "-1");
    p.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "0");
    return p;
  }

  private Path configFile(final Path state) throws Exception {
    final StringBuilder text = new StringBuilder();
    appConfig(state).forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
    final Path file = dir.resolve("checker.properties");
    Files.writeString(file, text.toString());
    return file;
  }

  private record Run(int exit, String out, String err) {}

  private static Run run(final Object command, final String... args) {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final CommandLine cl = new CommandLine(command);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    final int exit = cl.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }
}
