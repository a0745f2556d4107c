package io.isowatch.streams.testkit;

import io.isowatch.streams.TopicAdmin;
import io.isowatch.streams.TopicReport;
import io.isowatch.streams.TopicSpec;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka 4.3.1 cluster (KRaft, combined broker and controller) inside the test
 * JVM, on a random port, started once per test class:
 *
 * <pre>{@code
 * @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
 * }</pre>
 *
 * <p>Topic auto-creation is off, as on IsoWatch's clusters: create topics with {@link
 * #createTopics}.
 */
public final class EmbeddedKafka implements BeforeAllCallback, AfterAllCallback {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedKafka.class);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  private KafkaClusterTestKit cluster;

  @Override
  public void beforeAll(final ExtensionContext context) throws Exception {
    final long t0 = System.nanoTime();
    final TestKitNodes nodes =
        new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build();
    cluster =
        new KafkaClusterTestKit.Builder(nodes)
            // Strings, as in server.properties: the broker's ConfigDef parses them to its types.
            .setConfigProp("auto.create.topics.enable", "false")
            .setConfigProp("offsets.topic.replication.factor", "1")
            .setConfigProp("transaction.state.log.replication.factor", "1")
            .setConfigProp("transaction.state.log.min.isr", "1")
            .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
            .setConfigProp("share.coordinator.state.topic.min.isr", "1")
            .setConfigProp("group.initial.rebalance.delay.ms", "0")
            .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
    LOG.info(
        "Embedded Kafka ready bootstrap=[{}] startMs=[{}]",
        cluster.bootstrapServers(),
        (System.nanoTime() - t0) / 1_000_000);
  }

  @Override
  public void afterAll(final ExtensionContext context) throws Exception {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }

  /** Bootstrap servers of the running cluster, e.g. {@code localhost:40123}. */
  public String bootstrapServers() {
    if (cluster == null) {
      throw new IllegalStateException("EmbeddedKafka is not running (register it as a static extension)");
    }
    return cluster.bootstrapServers();
  }

  /** A new Admin client; the caller closes it. */
  public Admin admin() {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()));
  }

  /** Creates the topics through IsoWatch's own {@link TopicAdmin}. */
  public List<TopicReport> createTopics(final Collection<TopicSpec<?, ?>> topics) throws Exception {
    try (Admin admin = admin()) {
      return new TopicAdmin(admin, ADMIN_TIMEOUT).ensure(topics);
    }
  }
}
