package io.isowatch.schemas.topic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TopicsTest {
  private static final Topics TOPICS = Topics.defaults();

  @Test
  void shouldListTheFourDocumentedTopicsWhenAskedForDefaults() {
    // Given / When
    final List<String> names = TOPICS.all().stream().map(TopicSpec::name).toList();
    // Then
    assertEquals(
        List.of("isowatch.txn-events.v1", "isowatch.anomalies.v1", "isowatch.verdicts.v1", "isowatch.dlq.v1"),
        names);
  }

  @Test
  void shouldCarryTheDocumentedCleanupAndRetentionWhenAskedForDefaults() {
    // Given / When / Then: the table of docs/infrastructure.md.
    assertEquals(Map.of("cleanup.policy", "delete", "retention.ms", "604800000"), TOPICS.txnEvents().configs());
    assertEquals(Map.of("cleanup.policy", "delete", "retention.ms", "2592000000"), TOPICS.anomalies().configs());
    assertEquals(Map.of("cleanup.policy", "compact"), TOPICS.verdicts().configs());
    assertEquals(Map.of("cleanup.policy", "delete", "retention.ms", "1209600000"), TOPICS.deadLetters().configs());
  }

  @Test
  void shouldCoPartitionTenantKeyedTopicsWhenAskedForDefaults() {
    // Given / When / Then
    assertEquals(6, TOPICS.txnEvents().partitions());
    assertEquals(6, TOPICS.anomalies().partitions());
    assertEquals(6, TOPICS.verdicts().partitions());
    assertEquals(1, TOPICS.deadLetters().partitions());
    assertEquals(String.class, TOPICS.txnEvents().keyType());
    assertEquals(byte[].class, TOPICS.deadLetters().keyType());
  }

  @Test
  void shouldChangeOnlyTheTenantKeyedPartitionCountsWhenAskedForTenantPartitions() {
    // Given / When: a private broker carrying one tenant (replay --file)
    final Topics one = TOPICS.withReplication((short) 1).withTenantPartitions(1);
    // Then: one partition per tenant-keyed topic, the rest as before
    assertEquals(1, one.txnEvents().partitions());
    assertEquals(1, one.anomalies().partitions());
    assertEquals(1, one.verdicts().partitions());
    assertEquals(TOPICS.deadLetters().partitions(), one.deadLetters().partitions());
    assertEquals(TOPICS.all().stream().map(TopicSpec::name).toList(), one.all().stream().map(TopicSpec::name).toList());
    assertEquals(TOPICS.verdicts().configs(), one.verdicts().configs());
    assertEquals(Optional.of((short) 1), one.txnEvents().explicitReplication());
  }

  @Test
  void shouldBindEachTopicToItsAvroClassWhenAskedForDefaults() {
    // Given / When / Then
    assertEquals(TransactionEvent.class, TOPICS.txnEvents().valueType());
    assertEquals(Anomaly.class, TOPICS.anomalies().valueType());
    assertEquals(TenantVerdict.class, TOPICS.verdicts().valueType());
    assertEquals(DeadLetter.class, TOPICS.deadLetters().valueType());
    assertEquals("isowatch.txn-events.v1-value", TOPICS.txnEvents().valueSubject());
  }

  @Test
  void shouldUseBrokerDefaultReplicationUnlessOverridden() {
    // Given
    final Topics replicated = TOPICS.withReplication((short) 3);
    // When / Then
    assertEquals(Optional.empty(), TOPICS.txnEvents().explicitReplication());
    assertEquals(Optional.of((short) 3), replicated.txnEvents().explicitReplication());
    assertEquals(Optional.of((short) 3), replicated.deadLetters().explicitReplication());
    assertEquals(TOPICS.verdicts().configs(), replicated.verdicts().configs());
  }

  @Test
  void shouldFollowTheNamingConventionWhenAskedForDefaults() {
    // Given / When / Then
    TOPICS.all().forEach(t -> assertTrue(t.name().matches("isowatch\\.[a-z][a-z0-9-]*\\.v[1-9][0-9]*"), t.name()));
  }

  @Test
  void shouldRenameEveryTopicAndKeepItsSettingsWhenNamesAreConfigured() {
    // Given / When
    final Topics renamed = TOPICS.withNames("recorded.txns", "r1.isowatch.anomalies.v1",
        "r1.isowatch.verdicts.v1", "r1.isowatch.dlq.v1");
    // Then
    assertEquals(List.of("recorded.txns", "r1.isowatch.anomalies.v1", "r1.isowatch.verdicts.v1", "r1.isowatch.dlq.v1"),
        renamed.all().stream().map(TopicSpec::name).toList());
    assertEquals(TOPICS.verdicts().configs(), renamed.verdicts().configs());
    assertEquals(TOPICS.txnEvents().partitions(), renamed.txnEvents().partitions());
  }

  @Test
  void shouldRejectASpecWhenTheNameIsNotALegalTopicName() {
    // Given / When / Then
    final IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new TopicSpec<>("txn events", 1, (short) 1, Map.of(), String.class, "k", Anomaly.class, "p"));
    assertEquals("not a legal Kafka topic name: txn events", e.getMessage());
  }
}
