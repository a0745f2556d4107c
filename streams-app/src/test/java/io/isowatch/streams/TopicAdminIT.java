package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.topic.TopicReport;
import io.isowatch.schemas.topic.TopicSpec;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.testkit.EmbeddedKafka;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link TopicAdmin} against a real broker: creates, is idempotent, reports drift. */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TopicAdminIT {
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();

  private static final Topics TOPICS = Topics.defaults();

  @Test
  @Order(1)
  void shouldCreateEveryTopicWithItsDocumentedConfigWhenTheClusterIsEmpty() throws Exception {
    // Given: a fresh cluster.
    // When
    final List<TopicReport> reports = KAFKA.createTopics(TOPICS.all());
    // Then
    assertEquals(
        TOPICS.all().stream().map(t -> new TopicReport(t.name(), TopicReport.Outcome.CREATED, List.of())).toList(),
        reports);
    try (Admin admin = KAFKA.admin()) {
      final Map<String, TopicDescription> described =
          admin.describeTopics(names()).allTopicNames().get(30, TimeUnit.SECONDS);
      for (final TopicSpec<?, ?> spec : TOPICS.all()) {
        final TopicDescription d = described.get(spec.name());
        assertEquals(spec.partitions(), d.partitions().size(), spec.name());
        assertEquals(1, d.partitions().get(0).replicas().size(), spec.name() + " replication");
        final Config config = config(admin, spec.name());
        assertEquals(
            spec.configs(),
            spec.configs().keySet().stream().collect(Collectors.toMap(k -> k, k -> config.get(k).value())),
            spec.name());
      }
      // Spot-check the literal values too, so a wrong spec cannot pass by describing itself.
      assertEquals("604800000", config(admin, "isowatch.txn-events.v1").get("retention.ms").value());
      assertEquals("2592000000", config(admin, "isowatch.anomalies.v1").get("retention.ms").value());
      assertEquals("compact", config(admin, "isowatch.verdicts.v1").get("cleanup.policy").value());
      assertEquals("1209600000", config(admin, "isowatch.dlq.v1").get("retention.ms").value());
    }
  }

  @Test
  @Order(2)
  void shouldReportExistsWithoutChangesWhenRunAgain() throws Exception {
    // Given: the topics of the first test.
    // When
    final List<TopicReport> reports = KAFKA.createTopics(TOPICS.all());
    // Then
    assertEquals(
        TOPICS.all().stream().map(t -> new TopicReport(t.name(), TopicReport.Outcome.EXISTS, List.of())).toList(),
        reports);
  }

  @Test
  @Order(3)
  void shouldReportMismatchWithoutAlteringWhenAnExistingTopicDiffers() throws Exception {
    // Given: a v2 topic someone created by hand with other partitions, replication and retention.
    final TopicSpec<String, TransactionEvent> spec =
        new TopicSpec<>(
            "isowatch.txn-events.v2",
            6,
            (short) 2,
            Map.of("cleanup.policy", "delete", "retention.ms", "604800000"),
            String.class,
            "tenant",
            TransactionEvent.class,
            "drift probe");
    try (Admin admin = KAFKA.admin()) {
      admin.createTopics(List.of(new NewTopic(spec.name(), Optional.of(2), Optional.empty())
              .configs(Map.of("retention.ms", "1000"))))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    // When
    final List<TopicReport> reports = KAFKA.createTopics(List.of(spec));
    // Then
    assertEquals(
        List.of(
            new TopicReport(
                spec.name(),
                TopicReport.Outcome.MISMATCH,
                List.of(
                    "has 2 partitions, specified 6",
                    "has replication factor 1, specified 2",
                    "has retention.ms=1000, specified 604800000"))),
        reports);
    try (Admin admin = KAFKA.admin()) {
      assertEquals(
          2,
          admin.describeTopics(List.of(spec.name())).allTopicNames().get(30, TimeUnit.SECONDS)
              .get(spec.name()).partitions().size(),
          "left unchanged");
    }
  }

  private static List<String> names() {
    return TOPICS.all().stream().map(TopicSpec::name).toList();
  }

  private static Config config(final Admin admin, final String topic) throws Exception {
    final ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
    return admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
  }
}
