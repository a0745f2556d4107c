package io.isowatch.cli.agent;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.isowatch.agent.sink.KafkaTransactionSink;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The agent's events are framed once instead of going through the registry's serializer each time
 * ({@link KafkaTransactionSink#valueSerializer}); what it writes must stay byte for byte what the
 * registry's serializer writes, against a real (Apicurio) registry, so that the checker and any
 * Confluent-compatible consumer read the same records.
 */
class AgentEventBytesTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();

  @Test
  void shouldWriteTheRegistrysBytesForEveryEventWhenTheAgentFramesThemItself() {
    // Given: the agent's serializer and the registry's, on the same registry; the agent's first
    // event is its schema probe, as in KafkaTransactionSink.create
    final AvroSerdeConfig serde = AvroSerdeConfig.development(REGISTRY.url());
    final Serializer<TransactionEvent> agent = KafkaTransactionSink.valueSerializer(serde);
    final Serializer<TransactionEvent> registry = new AvroSerdes(serde).valueSerde(TransactionEvent.class).serializer();
    final String topic = "isowatch.txn-events.v1";
    final List<TransactionEvent> events = new ArrayList<>();
    events.add(TransactionEvents.fromCore("acme", new Transaction("probe", "probe", 0, TxnStatus.COMMITTED,
        Transaction.NO_TIME, Transaction.NO_TIME, List.of(), "acme", null, 0)));
    for (final Transaction t : history("""
        T1 s1 r(x,0) w(x,1) w(y,2) @10..20 seq=0
        T2 s2 r(x,1) r(y,2) w(z,3) @15..30 seq=0
        T3 s1 r(z,3) seq=1
        T4 s3 r(x,0) w(x,4) seq=4
        T5 s3 r(q,0) w(q,123456789012) seq=5
        T6 s2 w(a,5) w(b,6) w(c,7) w(d,8) w(e,9) w(f,10) seq=1
        """).transactions()) {
      events.add(TransactionEvents.fromCore("acme", t));
      events.add(TransactionEvents.fromCore("tenant-é-" + "k".repeat(300), t));
    }

    // When / Then: every event's bytes are the registry's
    for (final TransactionEvent e : events) {
      assertArrayEquals(registry.serialize(topic, e), agent.serialize(topic, e), e.getTenant() + " " + e.getTxn());
    }
  }
}
