package io.isowatch.cli.security;

import io.isowatch.localstack.LocalKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.network.ListenerName;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.apache.kafka.common.test.JaasUtils;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JUnit extension: a real single-node Kafka 4.3.1 cluster in the test JVM (the test kit under
 * {@link LocalKafka}) that accepts only authenticated, encrypted clients, with certificates made
 * for this run ({@link SelfSignedTls}), started once per test class. Two client listeners:
 *
 * <ul>
 *   <li>{@value #SASL}: SASL_SSL; IsoWatch's user {@value #USER} authenticates with SCRAM-SHA-512
 *       (its random password is {@link #password()}); the test kit's own admin and the broker's
 *       inter-broker client use PLAIN;
 *   <li>{@value #TLS}: SSL with {@code ssl.client.auth=required}; the client's principal is its
 *       certificate's subject.
 * </ul>
 *
 * <p>The controller listener stays PLAINTEXT: clients never use it. {@link #saslSsl} and {@link
 * #mutualTls} are the {@code kafka.*} settings a user gives IsoWatch for each listener.
 */
final class SecuredKafka implements BeforeAllCallback, AfterAllCallback {
  static final String SASL = "EXTERNAL";
  static final String TLS = "MTLS";
  static final String USER = "isowatch";

  private static final Logger LOG = LoggerFactory.getLogger(SecuredKafka.class);

  private final String password = SelfSignedTls.secret();
  private Path dir;
  private SelfSignedTls tls;
  private KafkaClusterTestKit cluster;

  @Override
  public void beforeAll(final ExtensionContext context) throws Exception {
    final long t0 = System.nanoTime();
    dir = Files.createTempDirectory("isowatch-secured-kafka");
    tls = SelfSignedTls.create(dir);
    final long t1 = System.nanoTime();
    cluster = build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    try (Admin admin = Admin.create(plainAdmin())) {
      admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(USER,
          new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096), password))).all().get(30, TimeUnit.SECONDS);
    }
    LOG.info("Secured Kafka ready sasl=[{}] tls=[{}] certificatesMs=[{}] brokerMs=[{}]", bootstrap(SASL), bootstrap(TLS),
        (t1 - t0) / 1_000_000, (System.nanoTime() - t1) / 1_000_000);
  }

  @Override
  public void afterAll(final ExtensionContext context) throws Exception {
    try {
      if (cluster != null) {
        cluster.close();
      }
    } finally {
      if (dir != null) {
        Utils.delete(dir.toFile());
      }
    }
  }

  /**
   * The test kit only knows SASL_PLAINTEXT brokers (it then writes the JAAS file of its PLAIN
   * admin and inter-broker login and turns on the authorizer); the listener settings here make
   * that listener SASL_SSL and add the mutual-TLS one.
   */
  private KafkaClusterTestKit build() throws Exception {
    final TestKitNodes nodes = new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
        .setNumControllerNodes(1).setBrokerSecurityProtocol(SecurityProtocol.SASL_PLAINTEXT).build();
    final String controller = nodes.controllerListenerName().value();
    if (!SASL.equals(nodes.brokerListenerName().value())) {
      throw new IllegalStateException("the test kit's broker listener is " + nodes.brokerListenerName());
    }
    final KafkaClusterTestKit.Builder builder = LocalKafka.singleNodeBuilder(nodes)
        .setConfigProp("listener.security.protocol.map", SASL + ":SASL_SSL," + TLS + ":SSL," + controller + ":PLAINTEXT")
        // Port 0: the test kit binds the SASL and controller ports itself, the broker picks the TLS one.
        .setConfigProp("listeners", Stream.of(SASL, TLS, controller).map(l -> l + "://localhost:0")
            .collect(Collectors.joining(",")))
        // Authentication is what is tested, not ACLs: the test kit's admin, the controller listener
        // (ANONYMOUS), IsoWatch's SCRAM user and the TLS client are super users.
        .setConfigProp("super.users", "User:" + JaasUtils.KAFKA_PLAIN_ADMIN + ";User:ANONYMOUS;User:" + USER
            + ";User:" + SelfSignedTls.CLIENT_DN)
        .setConfigProp("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-512")
        .setConfigProp(listenerPrefix(SASL) + "scram-sha-512.sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required;")
        .setConfigProp(listenerPrefix(TLS) + "ssl.client.auth", "required");
    tls.server().settings("ssl.keystore.").forEach(builder::setConfigProp);
    // The broker's own inter-broker client (transaction markers) connects over SASL_SSL too.
    tls.serverTrust().settings("ssl.truststore.").forEach(builder::setConfigProp);
    tls.clientTrust().settings(listenerPrefix(TLS) + "ssl.truststore.").forEach(builder::setConfigProp);
    return builder.build();
  }

  /** IsoWatch's user's SCRAM password, random per run. */
  String password() {
    return password;
  }

  /** The bootstrap address of {@code listener} ({@link #SASL} or {@link #TLS}). */
  String bootstrap(final String listener) {
    return "localhost:" + running().brokers().values().iterator().next().boundPort(ListenerName.normalised(listener));
  }

  /** What a client of the SASL_SSL listener is given: SCRAM-SHA-512 credentials and the truststore. */
  Map<String, String> saslSsl(final String scramPassword) {
    final Map<String, String> s = new TreeMap<>(tls.serverTrust().settings("kafka.ssl.truststore."));
    s.put("kafka.security.protocol", "SASL_SSL");
    s.put("kafka.sasl.mechanism", "SCRAM-SHA-512");
    s.put("kafka.sasl.jaas.config", "org.apache.kafka.common.security.scram.ScramLoginModule required username=\""
        + USER + "\" password=\"" + scramPassword + "\";");
    return s;
  }

  /** What a client of the TLS listener is given: the truststore and its own keystore. */
  Map<String, String> mutualTls() {
    final Map<String, String> s = new TreeMap<>(tls.serverTrust().settings("kafka.ssl.truststore."));
    s.putAll(tls.client().settings("kafka.ssl.keystore."));
    s.put("kafka.security.protocol", "SSL");
    return s;
  }

  /** Connections the broker refused on {@code listener} for failed authentication (TLS or SASL). */
  double failedAuthentications(final String listener) {
    return running().brokers().values().stream().flatMap(b -> b.metrics().metrics().entrySet().stream())
        .filter(m -> m.getKey().name().equals("failed-authentication-total")
            && listener.equals(m.getKey().tags().get("listener")))
        .mapToDouble(m -> ((Number) m.getValue().metricValue()).doubleValue()).sum();
  }

  /** The test kit's PLAIN admin over SASL_SSL: it creates IsoWatch's SCRAM user. */
  private Map<String, Object> plainAdmin() {
    final Map<String, Object> p = new HashMap<>(tls.serverTrust().settings("ssl.truststore."));
    p.put("bootstrap.servers", bootstrap(SASL));
    p.put("security.protocol", "SASL_SSL");
    p.put("sasl.mechanism", "PLAIN");
    p.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
        + JaasUtils.KAFKA_PLAIN_ADMIN + "\" password=\"" + JaasUtils.KAFKA_PLAIN_ADMIN_PASSWORD + "\";");
    return p;
  }

  private static String listenerPrefix(final String listener) {
    return "listener.name." + listener.toLowerCase(Locale.ROOT) + ".";
  }

  private KafkaClusterTestKit running() {
    if (cluster == null) {
      throw new IllegalStateException("SecuredKafka is not running (register it as a static extension)");
    }
    return cluster;
  }
}
