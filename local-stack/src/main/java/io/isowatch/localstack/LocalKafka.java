package io.isowatch.localstack;

import io.isowatch.schemas.topic.TopicAdmin;
import io.isowatch.schemas.topic.TopicReport;
import io.isowatch.schemas.topic.TopicSpec;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka 4.3.1 cluster (KRaft, combined broker and controller) inside this JVM,
 * on a random port, with its log directories in a temporary directory removed on {@link #close}.
 * Used by {@code isowatch replay --file} and, through the test kit's {@code EmbeddedKafka}, by the
 * integration tests.
 *
 * <p>In the JVM rather than a child process: it starts in about 2 s, needs no class path or
 * server.properties assembled on disk, and cannot outlive its JVM even under {@code kill -9}; its
 * log lines go wherever the JVM's SLF4J binding sends them ({@code isowatch replay} sends them to a
 * file). A shutdown hook closes it when the JVM exits without {@link #close} (Ctrl-C).
 *
 * <p>Topic auto-creation is off, as on IsoWatch's clusters: create topics with {@link #createTopics}.
 */
public final class LocalKafka implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalKafka.class);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  private final KafkaClusterTestKit cluster;
  private final StopAtExit stopAtExit;
  private boolean closed;

  private LocalKafka(final KafkaClusterTestKit cluster) {
    this.cluster = cluster;
    this.stopAtExit = new StopAtExit("local-kafka-stop", this::closeQuietly);
  }

  /**
   * Formats and starts the cluster; returns once its broker is ready.
   *
   * <p>No port race here, unlike a port chosen free and bound later: the test kit binds each
   * listener's socket itself (port 0) before the broker starts and hands the bound socket over.
   *
   * @throws LocalServiceException when the broker could not start (the cause says why)
   */
  public static LocalKafka start() throws LocalServiceException, InterruptedException {
    final long t0 = System.nanoTime();
    final TestKitNodes nodes =
        new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1).setNumControllerNodes(1).build();
    final KafkaClusterTestKit cluster;
    try {
      cluster = singleNodeBuilder(nodes).build();
    } catch (final Exception e) {
      throw new LocalServiceException("the Kafka broker could not start: " + e, e);
    }
    final LocalKafka kafka = new LocalKafka(cluster);
    kafka.stopAtExit.register();
    try {
      formatQuietly(cluster);
      cluster.startup();
      cluster.waitForReadyBrokers();
    } catch (final InterruptedException e) {
      kafka.closeQuietly();
      throw e;
    } catch (final Exception e) {
      kafka.closeQuietly();
      throw new LocalServiceException("the Kafka broker could not start: " + e, e);
    }
    LOG.info("Local Kafka ready bootstrap=[{}] startMs=[{}]", cluster.bootstrapServers(),
        (System.nanoTime() - t0) / 1_000_000);
    return kafka;
  }

  /**
   * A test kit builder for {@code nodes} (one combined node) with the broker settings of IsoWatch's
   * clusters: topic auto-creation off, replication factor 1 for the internal topics, no initial
   * rebalance delay, one partition for each internal topic. {@link #start} builds on it; a caller
   * may add settings before {@code build()} (the security integration tests add SASL_SSL and TLS
   * listeners).
   */
  public static KafkaClusterTestKit.Builder singleNodeBuilder(final TestKitNodes nodes) {
    return new KafkaClusterTestKit.Builder(nodes)
        // Strings, as in server.properties: the broker's ConfigDef parses them to its types.
        .setConfigProp("auto.create.topics.enable", "false")
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
        .setConfigProp("share.coordinator.state.topic.min.isr", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        // One partition for each internal topic instead of 50: they are created at their first use
        // (the first group, the first transactional producer), which a client start waits for.
        .setConfigProp("offsets.topic.num.partitions", "1")
        .setConfigProp("transaction.state.log.num.partitions", "1");
  }

  /**
   * Formats the log directories. Kafka's formatter prints its progress on System.out, which is the
   * CLI's output (a JSON document with --json): it goes to the log instead.
   */
  private static void formatQuietly(final KafkaClusterTestKit cluster) throws Exception {
    final java.io.PrintStream stdout = System.out;
    final java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    System.setOut(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      cluster.format();
    } finally {
      System.setOut(stdout);
      captured.toString(java.nio.charset.StandardCharsets.UTF_8).lines()
          .forEach(line -> LOG.info("Kafka storage format: {}", line));
    }
  }

  /** Bootstrap servers of the running cluster, e.g. {@code localhost:40123}. */
  public String bootstrapServers() {
    if (closed) {
      throw new IllegalStateException("LocalKafka is closed");
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

  /**
   * Shuts the broker down (the controller of the combined node keeps running) and starts it again
   * on the same port with the same log directories, after {@code downtime}; returns once it is
   * ready. For tests of a broker restart under a running client.
   */
  public void restartBroker(final Duration downtime) throws Exception {
    cluster.brokers().values().forEach(b -> b.shutdown());
    LOG.info("Local Kafka broker stopped downtimeMs=[{}]", downtime.toMillis());
    // The broker is down for this long: the point of the test, not a wait for a result.
    Thread.sleep(downtime.toMillis());
    cluster.brokers().values().forEach(b -> b.startup());
    cluster.waitForReadyBrokers();
    LOG.info("Local Kafka broker restarted bootstrap=[{}]", cluster.bootstrapServers());
  }

  /** Stops the broker and deletes its log directories; idempotent. */
  @Override
  public synchronized void close() throws Exception {
    if (closed) {
      return;
    }
    closed = true;
    stopAtExit.cancel();
    cluster.close();
    LOG.info("Local Kafka stopped");
  }

  private void closeQuietly() {
    try {
      close();
    } catch (final Exception e) {
      LOG.warn("Local Kafka did not stop cleanly at JVM exit error=[{}]", e.toString());
    }
  }
}
