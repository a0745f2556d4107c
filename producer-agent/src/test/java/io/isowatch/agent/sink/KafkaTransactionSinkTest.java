package io.isowatch.agent.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class KafkaTransactionSinkTest {
  private static final String TOPIC = "isowatch.txn-events.v1";

  private static Transaction txn(final String session, final long seq) {
    return new Transaction(session + "-" + seq, session, seq, TxnStatus.COMMITTED, 10 * seq, 10 * seq + 5,
        List.of(Op.read("k1", 0L), Op.write("k1", seq + 1)), "acme", "serializable", 0);
  }

  private static MockProducer<String, TransactionEvent> producer(final boolean autoComplete) {
    return new MockProducer<>(autoComplete, null, new StringSerializer(), (topic, value) -> new byte[0]);
  }

  @Test
  void shouldPublishEveryTransactionKeyedByTheTenantInOrderWhenAcknowledged() throws Exception {
    // Given
    final MockProducer<String, TransactionEvent> producer = producer(true);
    final KafkaTransactionSink sink = new KafkaTransactionSink("kafka test", TOPIC, "acme", producer);
    final List<Transaction> txns = List.of(txn("s1", 0), txn("s2", 0), txn("s1", 1));

    // When
    for (final Transaction t : txns) {
      sink.accept(t);
    }
    sink.close();

    // Then
    final List<ProducerRecord<String, TransactionEvent>> sent = producer.history();
    assertEquals(List.of(TOPIC, TOPIC, TOPIC), sent.stream().map(ProducerRecord::topic).toList());
    assertEquals(List.of("acme", "acme", "acme"), sent.stream().map(ProducerRecord::key).toList());
    assertEquals(txns, sent.stream().map(r -> TransactionEvents.toCore(r.value())).toList());
    assertEquals(new SinkStats("kafka test", 3, 3, 0, 0, 0, "acknowledged"),
        withoutWaits(sink.stats().get(0)));
    assertTrue(producer.closed());
  }

  @Test
  void shouldWaitForEveryAcknowledgementWhenClosed() throws Exception {
    // Given: the broker has not answered yet.
    final MockProducer<String, TransactionEvent> producer = producer(false);
    final KafkaTransactionSink sink = new KafkaTransactionSink("kafka test", TOPIC, "acme", producer);
    sink.accept(txn("s1", 0));
    sink.accept(txn("s1", 1));
    assertEquals(0, sink.stats().get(0).written());

    // When
    sink.close();

    // Then
    assertTrue(producer.flushed());
    assertEquals(2, sink.stats().get(0).written());
  }

  @Test
  void shouldFailLoudlyAndCountTheLossWhenTheBrokerRefusesASend() throws Exception {
    // Given
    final MockProducer<String, TransactionEvent> producer = producer(false);
    final KafkaTransactionSink sink = new KafkaTransactionSink("kafka test", TOPIC, "acme", producer);
    sink.accept(txn("s1", 0));
    sink.accept(txn("s1", 1));

    // When
    producer.completeNext();
    producer.errorNext(new TimeoutException("delivery timed out"));

    // Then
    final SinkException next = assertThrows(SinkException.class, () -> sink.accept(txn("s1", 2)));
    assertTrue(next.getMessage().contains("1 of 2 transactions not acknowledged (1 acknowledged)"), next.getMessage());
    assertTrue(next.getMessage().contains("delivery timed out"), next.getMessage());
    final SinkException atClose = assertThrows(SinkException.class, sink::close);
    assertTrue(atClose.getMessage().contains("not acknowledged"), atClose.getMessage());
    final SinkStats stats = sink.stats().get(0);
    assertEquals(1, stats.failed());
    assertEquals(1, stats.written());
  }

  @Test
  void shouldFailTheSendWhenTheSerializerRefusesTheEvent() {
    // Given: e.g. the schema is not registered and auto-registration is off.
    final MockProducer<String, TransactionEvent> producer = new MockProducer<>(true, null, new StringSerializer(),
        (topic, value) -> {
          throw new SerializationException("artifact isowatch.txn-events.v1-value not found");
        });
    final KafkaTransactionSink sink = new KafkaTransactionSink("kafka test", TOPIC, "acme", producer);

    // When
    final SinkException e = assertThrows(SinkException.class, () -> sink.accept(txn("s1", 0)));

    // Then
    assertTrue(e.getMessage().contains("artifact isowatch.txn-events.v1-value not found"), e.getMessage());
    assertEquals(1, sink.stats().get(0).failed());
    assertEquals(0, sink.stats().get(0).written());
  }

  @Test
  void shouldConfigureAnIdempotentProducerThatBlocksRatherThanDrops() {
    // Given / When
    final var config = KafkaTransactionSink.producerConfig("b:9092");

    // Then
    assertEquals(true, config.get("enable.idempotence"));
    assertEquals("all", config.get("acks"));
    assertEquals(KafkaTransactionSink.MAX_BLOCK.toMillis(), config.get("max.block.ms"));
  }

  @Test
  void shouldKeepTheSinksGuaranteesAndAddTheClientSecurityWhenGivenClientProperties() {
    // Given
    final java.util.Map<String, Object> client = java.util.Map.of(
        "security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512", "acks", "0", "linger.ms", "50");
    // When
    final var producer = KafkaTransactionSink.producerConfig("b:9092", client);
    final var admin = KafkaTransactionSink.adminConfig("b:9092", client);
    // Then: security reaches both clients; idempotence and acks=all cannot be weakened.
    assertEquals("SASL_SSL", producer.get("security.protocol"));
    assertEquals("SCRAM-SHA-512", producer.get("sasl.mechanism"));
    assertEquals("all", producer.get("acks"));
    assertEquals(true, producer.get("enable.idempotence"));
    assertEquals("SASL_SSL", admin.get("security.protocol"));
    assertEquals("b:9092", admin.get("bootstrap.servers"));
    assertTrue(!admin.containsKey("linger.ms") && !admin.containsKey("acks"), admin.toString());
  }

  private static SinkStats withoutWaits(final SinkStats s) {
    return new SinkStats(s.sink(), s.accepted(), s.written(), 0, 0, s.failed(), s.writtenAs());
  }
}
