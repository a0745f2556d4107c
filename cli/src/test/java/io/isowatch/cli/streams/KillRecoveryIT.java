package io.isowatch.cli.streams;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.cli.testkit.ChildChecker;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.avro.AnomalyRecords;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
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
  private final TenantFeed feed = new TenantFeed(KAFKA.bootstrapServers(), TOPICS, serdes, Map.of());

  @Test
  void shouldPublishEveryAnomalyExactlyOnceWhenTheCheckerIsKilledAndRestarted() throws Exception {
    // Given: twelve tenants' histories with injected anomalies, interleaved on the input topic.
    KAFKA.createTopics(TOPICS.all());
    final TenantHistories histories = TenantHistories.generate(TENANTS, 1_000, 400, 0.1, 0.8,
        AnomalyRecords::uniqueId);
    final Set<String> expected = histories.expected();
    feed.produce(histories, 0, histories.longest());
    final Path config = ChildChecker.writeConfig(dir.resolve("checker.properties"), KAFKA.bootstrapServers(),
        REGISTRY.url(), "kill-recovery", dir.resolve("state"));

    try (KafkaConsumer<String, Anomaly> anomalies = KAFKA.readCommitted(TOPICS.anomalies().name(),
        "kill-recovery-reader", serdes.valueSerde(Anomaly.class).deserializer())) {
      final List<Anomaly> seen = new ArrayList<>();
      // When: the first checker is killed as soon as its first anomalies are committed.
      final Process first = ChildChecker.start(config, "kill-recovery-first");
      try {
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(50)).until(() -> TenantFeed.poll(anomalies, seen) > 0);
      } finally {
        first.destroyForcibly();
        assertTrue(first.waitFor(30, TimeUnit.SECONDS));
      }
      LOG.info("Checker killed exitCode=[{}] anomaliesSeen=[{}] expected=[{}]", first.exitValue(), seen.size(),
          expected.size());
      assertEquals(137, first.exitValue(), "killed by SIGKILL");
      // ... and a second one starts on the same state directory; the tenants' tails are flushed.
      final Process second = ChildChecker.start(config, "kill-recovery-second");
      try {
        feed.tickEveryPartition();
        TenantFeed.awaitExactly(anomalies, seen, expected.size(), PATIENCE);
      } finally {
        second.destroy();
        if (!second.waitFor(60, TimeUnit.SECONDS)) {
          second.destroyForcibly();
        }
      }
      // Then: every anomaly exactly once.
      TenantFeed.assertEachOnce(expected, seen.stream().map(Anomaly::getUniqueId).toList());
    }
  }
}
