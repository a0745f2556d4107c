package io.isowatch.cli.security;

import static io.isowatch.cli.security.SecuredKafka.SASL;
import static io.isowatch.cli.security.SecuredKafka.TLS;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.sink.KafkaTransactionSink;
import io.isowatch.agent.sink.SinkException;
import io.isowatch.cli.CliRun;
import io.isowatch.cli.Services;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.CheckerApp;
import io.isowatch.streams.ConfigSources;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * IsoWatch's Kafka clients against a real broker that accepts only authenticated, encrypted
 * clients ({@link SecuredKafka}: a SASL_SSL listener for SCRAM-SHA-512 and a mutual-TLS listener,
 * certificates made by {@code keytool} for this run), configured as a user configures them
 * (docs/streaming.md, "Security"); one broker and one registry for the class.
 * {@code isowatch topics create --config FILE} creates the topics over SASL_SSL; the agent's sink
 * and the checker, configured by {@code ISOWATCH_KAFKA_*} variables, publish and check a lost update
 * whose anomaly is read back over SASL_SSL; {@code isowatch agent --client-config FILE} publishes
 * over mutual TLS. A client without the truststore, a plaintext one, a wrong password and a TLS
 * client without a certificate are refused, by the broker's own count.
 */
@Tag("integration")
class ScramSecurityIT {
  @RegisterExtension static final SecuredKafka KAFKA = new SecuredKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String TENANT = "acme";
  private static final Topics TOPICS = Topics.defaults();
  private static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final String REFUSAL_TIMEOUT_SECONDS = "5";
  private static final String WRONG_PASSWORD = "not-the-password";

  @TempDir Path dir;

  /** What an {@code isowatch} command line returned and printed. */
  /** A client configuration the broker must refuse, and what the client then reports. */
  record Refused(String description, String listener, Map<String, String> settings, String reported) {
    @Override
    public String toString() {
      return description;
    }
  }

  @BeforeAll
  static void createTopics(@TempDir final Path configDir) throws Exception {
    // As a user creates them on a secured cluster: a client file over SASL_SSL.
    final CliRun topics = isowatch("topics", "create", "--bootstrap-servers", KAFKA.bootstrap(SASL),
        "--replication", "1", "--config", clientFile(configDir, "topics", KAFKA.saslSsl(KAFKA.password())).toString());
    assertEquals(0, topics.exit(), topics.err());
    assertEquals(TOPICS.all().size(), topics.out().lines().filter(l -> l.endsWith("\tCREATED")).count(), topics.out());
  }

  @Test
  void shouldPublishCheckAndReadTheAnomalyBackOverSaslSslWhenConfiguredThroughTheEnvironment() throws Exception {
    // Given: the agent's sink and the checker configured by ISOWATCH_KAFKA_* variables: SASL_SSL,
    // SCRAM-SHA-512, the truststore.
    final IsoWatchStreamsConfig config = config(SASL, environment(KAFKA.saslSsl(KAFKA.password())), Optional.empty());
    // When: the sink publishes a lost update (s1 and s2 both read x=0 and write it) ...
    final KafkaTransactionSink sink = KafkaTransactionSink.create(KAFKA.bootstrap(SASL), config.avroSerdeConfig(),
        TENANT, config.clientProperties("producer."));
    sink.accept(rmw("s1", "x", 1, 1_000));
    sink.accept(rmw("s2", "x", 2, 2_000));
    sink.accept(rmw("s3", "y", 1, 9_000));
    sink.close();
    // ... and the checker, authenticated the same way, checks it (its web UI on a free port).
    try (CheckerApp app = CheckerApp.start(config);
        KafkaConsumer<String, Anomaly> anomalies = consumer(config, TOPICS.anomalies().name(), Anomaly.class)) {
      await().atMost(PATIENCE).until(() -> app.state() == KafkaStreams.State.RUNNING);
      // Then: the anomaly it published, read back over SASL_SSL, is that lost update.
      final List<ConsumerRecord<String, Anomaly>> read = poll(anomalies, TENANT, 1);
      assertEquals(1, read.size(), read.toString());
      final Anomaly anomaly = read.get(0).value();
      assertEquals(TENANT, anomaly.getTenant());
      assertEquals("G-single", anomaly.getType());
      assertEquals("LostUpdate", anomaly.getName());
      assertTrue(anomaly.getViolates().contains(Level.SER), anomaly.getViolates().toString());
      assertEquals(Set.of("s1-0", "s2-0"),
          anomaly.getTransactions().stream().map(AnomalyTransaction::getTxn).collect(Collectors.toSet()));
      // The web UI's feed, the checker's own consumer, read it over SASL_SSL too.
      final HttpRequest feed = HttpRequest.newBuilder(
          URI.create("http://127.0.0.1:" + app.httpPort() + "/api/anomalies?tenant=" + TENANT)).build();
      await().atMost(PATIENCE).until(() -> HttpClient.newHttpClient().send(feed, HttpResponse.BodyHandlers.ofString())
          .body().contains(anomaly.getAnomalyId()));
      assertEquals(0, sink.stats().get(0).failed(), "every transaction acknowledged");
      assertEquals(3, sink.stats().get(0).written());
    }
  }

  @Test
  void shouldPublishAndReadBackOverMutualTlsWhenTheAgentPresentsItsCertificate() throws Exception {
    // Given: a client file for the listener that requires a client certificate: SSL, the
    // truststore and the client's keystore.
    final Path file = clientFile(dir, "mtls", KAFKA.mutualTls());
    // When: `isowatch agent --client-config FILE` runs 20 transactions on H2 and publishes them.
    final CliRun agent = isowatch("agent", "--target", "h2", "--sessions", "2", "--keys", "5", "--txns", "20",
        "--seed", "3", "--progress", "0", "--tenant", "tls-agent", "--kafka", KAFKA.bootstrap(TLS),
        "--registry", REGISTRY.url().toString(), "--dev", "--client-config", file.toString());
    // Then: all acknowledged, and a consumer with the same file reads them back over mutual TLS.
    assertEquals(0, agent.exit(), agent.err() + agent.out());
    assertTrue(agent.out().contains(": 20 accepted, 20 acknowledged,"), agent.out());
    final IsoWatchStreamsConfig config = config(TLS, Map.of(), Optional.of(file));
    try (KafkaConsumer<String, TransactionEvent> events =
        consumer(config, TOPICS.txnEvents().name(), TransactionEvent.class)) {
      final List<ConsumerRecord<String, TransactionEvent>> read = poll(events, "tls-agent", 20);
      assertEquals(20, read.size(), read.toString());
      assertTrue(read.stream().allMatch(r -> "tls-agent".equals(r.value().getTenant())), read.toString());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refusedClients")
  void shouldRefuseTheClientWhenItsSecurityDoesNotMatchTheListener(final Refused client) throws Exception {
    // Given
    final double failedBefore = KAFKA.failedAuthentications(client.listener());
    final Path file = clientFile(dir, "refused", client.settings());
    // When: `isowatch topics create` tries with that configuration.
    final CliRun topics = isowatch("topics", "create", "--bootstrap-servers", KAFKA.bootstrap(client.listener()),
        "--replication", "1", "--timeout-seconds", REFUSAL_TIMEOUT_SECONDS, "--config", file.toString());
    // Then: it fails with the client's reason, and the broker counted a failed authentication.
    assertEquals(2, topics.exit(), topics.err() + topics.out());
    assertTrue(topics.err().contains(client.reported()), topics.err());
    await().atMost(PATIENCE).until(() -> KAFKA.failedAuthentications(client.listener()) > failedBefore);
    // No secret in what the command printed: neither SCRAM password nor a store's password.
    Stream.concat(Stream.of(KAFKA.password(), WRONG_PASSWORD), client.settings().entrySet().stream()
            .filter(e -> e.getKey().endsWith(".password")).map(Map.Entry::getValue))
        .forEach(secret -> assertFalse((topics.out() + topics.err()).contains(secret), "a secret printed"));
  }

  static Stream<Refused> refusedClients() {
    final Map<String, String> noTruststore = new TreeMap<>(KAFKA.saslSsl(KAFKA.password()));
    noTruststore.keySet().removeIf(k -> k.startsWith("kafka.ssl.truststore."));
    final Map<String, String> saslPlaintext = new TreeMap<>(noTruststore);
    saslPlaintext.put("kafka.security.protocol", "SASL_PLAINTEXT");
    final Map<String, String> noCertificate = new TreeMap<>(KAFKA.mutualTls());
    noCertificate.keySet().removeIf(k -> k.startsWith("kafka.ssl.keystore."));
    return Stream.of(
        new Refused("SASL_SSL without the truststore", SASL, noTruststore, "SslAuthenticationException"),
        new Refused("SASL_SSL with a wrong password", SASL, KAFKA.saslSsl(WRONG_PASSWORD),
            "SaslAuthenticationException"),
        new Refused("SASL_PLAINTEXT on the SASL_SSL listener", SASL, saslPlaintext, "TimeoutException"),
        new Refused("PLAINTEXT on the SASL_SSL listener", SASL, Map.of(), "TimeoutException"),
        new Refused("TLS without a client certificate", TLS, noCertificate, "SslAuthenticationException"));
  }

  @Test
  void shouldRefuseTheAgentsSinkWhenThePasswordIsWrong() throws Exception {
    // Given
    final IsoWatchStreamsConfig config =
        config(SASL, environment(KAFKA.saslSsl(WRONG_PASSWORD)), Optional.empty());
    // When / Then: refused up front, before any transaction runs.
    final SinkException e = assertThrows(SinkException.class, () -> KafkaTransactionSink.create(
        KAFKA.bootstrap(SASL), config.avroSerdeConfig(), TENANT, config.clientProperties("producer.")));
    assertTrue(String.valueOf(e.getMessage()).contains("Authentication failed")
        || String.valueOf(e.getCause()).contains("SaslAuthenticationException"), e.toString());
  }

  /** The settings as the ISOWATCH_KAFKA_* variables that carry them. */
  private static Map<String, String> environment(final Map<String, String> settings) {
    return settings.entrySet().stream()
        .collect(Collectors.toMap(e -> IsoWatchStreamsConfig.envName(e.getKey()), Map.Entry::getValue));
  }

  /** The settings as a properties file, as a user writes it. */
  private static Path clientFile(final Path in, final String name, final Map<String, String> settings)
      throws Exception {
    final Path file = in.resolve(name + ".properties");
    Files.writeString(file, settings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue() + "\n")
        .collect(Collectors.joining()));
    return file;
  }

  private IsoWatchStreamsConfig config(final String listener, final Map<String, String> env,
      final Optional<Path> file) throws Exception {
    final Map<String, String> flags = new HashMap<>();
    flags.put(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrap(listener));
    flags.put(IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, REGISTRY.url().toString());
    flags.put(IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true");
    flags.put(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG, "secured-it");
    flags.put(IsoWatchStreamsConfig.STATE_DIR_CONFIG, dir.resolve("state").toString());
    flags.put(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "127.0.0.1");
    flags.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "0");
    flags.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "0");
    flags.put(IsoWatchStreamsConfig.SHUTDOWN_TIMEOUT_MS_CONFIG, "20000");
    return ConfigSources.load(file, env, flags);
  }

  /** A read-committed consumer of {@code topic} from the start, with the configuration's security. */
  private static <V extends SpecificRecord> KafkaConsumer<String, V> consumer(final IsoWatchStreamsConfig config,
      final String topic, final Class<V> type) {
    final Map<String, Object> p = new HashMap<>(config.clientProperties("consumer."));
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "secured-it-reader-" + SelfSignedTls.secret());
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    final KafkaConsumer<String, V> c = new KafkaConsumer<>(p, new StringDeserializer(),
        new AvroSerdes(config.avroSerdeConfig()).valueSerde(type).deserializer());
    c.subscribe(List.of(topic));
    return c;
  }

  /**
   * The records keyed {@code key}, once there are at least {@code expected}, with whatever more
   * arrives within a second after them.
   */
  private static <V> List<ConsumerRecord<String, V>> poll(final KafkaConsumer<String, V> consumer, final String key,
      final int expected) {
    final List<ConsumerRecord<String, V>> seen = new ArrayList<>();
    final Runnable pollOnce = () -> consumer.poll(Duration.ofMillis(100)).forEach(r -> {
      if (key.equals(r.key())) {
        seen.add(r);
      }
    });
    await().atMost(PATIENCE).until(() -> {
      pollOnce.run();
      return seen.size() >= expected;
    });
    await().during(Duration.ofSeconds(1)).atMost(PATIENCE).until(() -> {
      pollOnce.run();
      return true;
    });
    return seen;
  }

  private static CliRun isowatch(final String... args) {
    return CliRun.run(Services.real(), args);
  }

  private static Transaction rmw(final String session, final String key, final long write, final long end) {
    return new Transaction(session + "-0", session, 0, TxnStatus.COMMITTED, end - 100, end,
        List.of(Op.read(key, 0L), Op.write(key, write)), TENANT, "serializable", 0);
  }
}
