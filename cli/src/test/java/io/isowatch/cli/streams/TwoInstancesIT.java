package io.isowatch.cli.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.cli.testkit.ChildChecker;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.CheckerApp;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.metrics.MetricNames;
import io.isowatch.streams.testkit.CheckerItConfig;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import io.isowatch.streams.testkit.TenantFeed;
import io.isowatch.streams.testkit.TenantHistories;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.KafkaConsumer;
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
  private final TenantFeed feed = new TenantFeed(KAFKA.bootstrapServers(), TOPICS, serdes, Map.of());

  @Test
  void shouldPublishEveryAnomalyOnceWhenASecondInstanceJoinsAndTheFirstIsKilled() throws Exception {
    // Given: twelve tenants' histories with injected anomalies; the first third of each is published.
    assertTrue(TOPICS.txnEvents().partitions() >= 2, "tasks to share");
    KAFKA.createTopics(TOPICS.all());
    final TenantHistories histories = TenantHistories.generate(TENANTS, 3_000, 300, 0.1, 0.8,
        (tenant, a) -> AnomalyIds.of(tenant, a.type(), a.name(), a.txnIds()));
    final Set<String> expected = histories.expected();
    feed.produce(histories, 0, 100);

    try (KafkaConsumer<String, Anomaly> anomalies = KAFKA.readCommitted(TOPICS.anomalies().name(), "two-reader",
        serdes.valueSerde(Anomaly.class).deserializer())) {
      final List<Anomaly> seen = new ArrayList<>();
      // When: A runs alone and publishes its first anomalies (it owns every task) ...
      final Process a = ChildChecker.start(ChildChecker.writeConfig(dir.resolve("checker-a.properties"),
          KAFKA.bootstrapServers(), REGISTRY.url(), APP_ID, dir.resolve("state-a")), "two-instances-a");
      try {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).until(() -> TenantFeed.poll(anomalies, seen) > 0);
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
          feed.produce(histories, 100, 200);
          await().atMost(PATIENCE).until(() -> checkedBy(b) > 0);
          final double checkedByB = checkedBy(b);
          // ... then A is killed with SIGKILL and B takes over its tasks; the last third comes.
          a.destroyForcibly();
          assertTrue(a.waitFor(30, TimeUnit.SECONDS));
          assertEquals(137, a.exitValue(), "killed by SIGKILL");
          feed.produce(histories, 200, 300);
          feed.tickEveryPartition();
          // Then: every anomaly exactly once, and both instances owned tasks.
          TenantFeed.awaitExactly(anomalies, seen, expected.size(), PATIENCE);
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
      TenantFeed.assertEachOnce(expected, seen.stream().map(Anomaly::getAnomalyId).toList());
    }
  }

  /** Transactions instance B checked, all tenants. */
  private static double checkedBy(final CheckerApp app) {
    return app.metrics().scrape().lines()
        .filter(l -> l.startsWith(MetricNames.TRANSACTIONS_CHECKED_TOTAL + "{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }
}
