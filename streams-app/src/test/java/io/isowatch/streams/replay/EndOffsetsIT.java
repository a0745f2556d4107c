package io.isowatch.streams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.schemas.topic.Topics;
import io.isowatch.streams.testkit.EmbeddedKafka;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link EndOffsets} on a real broker: with a transactional producer the last data record is not
 * at {@code end - 1} (commit and abort markers occupy offsets), records of aborted transactions
 * are never processed, and records the checker would dead-letter never reach the check processor.
 */
@Tag("integration")
class EndOffsetsIT {
  @RegisterExtension static final EmbeddedKafka KAFKA = new EmbeddedKafka();
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  private static final String TOPIC = "recorded.transactional";

  @Test
  void shouldEndAtTheLastCommittedDecodableRecordWhenMarkersAbortsAndGarbageFollowIt() throws Exception {
    // Given: on partition 0, a committed transaction of two events (offsets 0, 1; marker 2), an
    // aborted one (3; marker 4), then a committed undecodable record (5; marker 6). Partition 1 is empty.
    KAFKA.createTopics(List.of(Topics.defaults().txnEvents().withName(TOPIC).withReplication((short) 1)));
    final AvroSerdeConfig serde = AvroSerdeConfig.development(REGISTRY.url());
    final Serializer<TransactionEvent> values = new AvroSerdes(serde).valueSerde(TransactionEvent.class).serializer();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers(),
        ProducerConfig.TRANSACTIONAL_ID_CONFIG, "end-offsets-it"), new ByteArraySerializer(), new ByteArraySerializer())) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(record(values, event("T1")));
      producer.send(record(values, event("T2")));
      producer.commitTransaction();
      producer.beginTransaction();
      producer.send(record(values, event("T3")));
      producer.flush();
      producer.abortTransaction();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(TOPIC, 0, "acme".getBytes(StandardCharsets.UTF_8), new byte[] {1, 2, 3}));
      producer.commitTransaction();
    }

    // When
    final EndOffsets ends = EndOffsets.capture(
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, KAFKA.bootstrapServers()), TOPIC,
        new AvroSerdes(serde).valueSerde(TransactionEvent.class).deserializer());

    // Then
    assertEquals(Map.of(0, 1L), ends.last());
    assertEquals(7L, ends.end().get(0));
    assertEquals(0L, ends.end().get(1));
    assertEquals("0:1", ends.replayEnd().toString());
  }

  private static ProducerRecord<byte[], byte[]> record(final Serializer<TransactionEvent> values,
      final TransactionEvent e) {
    return new ProducerRecord<>(TOPIC, 0, e.getTenant().getBytes(StandardCharsets.UTF_8), values.serialize(TOPIC, e));
  }

  private static TransactionEvent event(final String txn) {
    return TransactionEvent.newBuilder()
        .setTenant("acme").setSession(txn).setSeq(0).setTxn(txn).setStatus(TxnStatus.COMMITTED)
        .setOps(List.of(new Op(OpType.READ, "x", 0L, null))).build();
  }
}
