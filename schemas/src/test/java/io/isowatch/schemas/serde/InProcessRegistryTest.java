package io.isowatch.schemas.serde;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

/**
 * The in-process registry of {@code replay --file}: Apicurio's serdes, configured by {@link
 * AvroSerdeConfig} for an {@code inprocess://} URL, write the Confluent wire format (magic byte 0,
 * the 4-byte content id, the Avro binary encoding) and read it back, with no registry server.
 */
class InProcessRegistryTest {
  private static final List<TransactionEvent> EVENTS = history("""
      A s1 w(x,1) w(y,2) seq=0
      B s2 r(x,1) r(y,2) w(z,3) seq=0
      C s1 r(z,3) seq=1
      """).transactions().stream().map(t -> TransactionEvents.fromCore("acme", t)).toList();

  @Test
  void shouldWriteTheConfluentWireFormatAndReadItBackWhenTheRegistryIsInProcess() {
    try (InProcessRegistry registry = InProcessRegistry.open()) {
      // Given: the serdes of a development configuration naming the in-process registry
      final Serde<TransactionEvent> serde =
          new AvroSerdes(AvroSerdeConfig.development(registry.url())).valueSerde(TransactionEvent.class);
      for (final TransactionEvent e : EVENTS) {
        // When
        final byte[] bytes = serde.serializer().serialize("t", e);
        // Then: magic byte 0, content id 1, then the event's own Avro binary encoding; read back equal
        assertEquals(0, bytes[0]);
        assertEquals(1, ByteBuffer.wrap(bytes, 1, 4).getInt());
        assertArrayEquals(binary(e), Arrays.copyOfRange(bytes, 5, bytes.length));
        assertEquals(e, serde.deserializer().deserialize("t", bytes));
      }
      assertEquals(1, registry.size());
    }
  }

  @Test
  void shouldReadWhatAnotherSerdeWroteWithTheCheckersDeserializerAndFrameEventsAfterTheFirst() {
    try (InProcessRegistry registry = InProcessRegistry.open()) {
      // Given: the publisher's serializer and the checker's deserializer, configured apart
      final AvroSerdeConfig config = AvroSerdeConfig.development(registry.url());
      final FramedEventSerializer publisher =
          new FramedEventSerializer(new AvroSerdes(config).valueSerde(TransactionEvent.class).serializer());
      try (TransactionEventDeserializer checker = new TransactionEventDeserializer()) {
        checker.configure(config.serdeProperties(), false);
        for (final TransactionEvent e : EVENTS) {
          // When
          final byte[] bytes = publisher.serialize("t", e);
          // Then
          assertEquals(e, checker.deserialize("t", new RecordHeaders(), bytes));
          assertArrayEquals(binary(e), checker.takeBody());
        }
      }
      assertTrue(publisher.framing(), "the first event's bytes were the frame and the encoding");
    }
  }

  @Test
  void shouldGiveEqualContentOneIdAndOtherContentTheNextWhenRegistered() {
    try (InProcessRegistry registry = InProcessRegistry.open()) {
      // Given
      final byte[] a = TransactionEvent.getClassSchema().toString().getBytes(StandardCharsets.UTF_8);
      final byte[] b = "\"string\"".getBytes(StandardCharsets.UTF_8);
      // When
      final long first = registry.idOf(a, true).orElseThrow();
      final long again = registry.idOf(a.clone(), true).orElseThrow();
      final long other = registry.idOf(b, true).orElseThrow();
      // Then
      assertEquals(1, first);
      assertEquals(first, again);
      assertEquals(2, other);
      assertArrayEquals(b, registry.content(other).orElseThrow());
      assertEquals(2, registry.size());
    }
  }

  @Test
  void shouldFailWhenTheSerdesDoNotRegisterAndTheSchemaIsUnknown() {
    try (InProcessRegistry registry = InProcessRegistry.open()) {
      // Given: a production configuration (schemas registered beforehand, not by the serializer)
      final Serde<TransactionEvent> serde =
          new AvroSerdes(AvroSerdeConfig.production(registry.url())).valueSerde(TransactionEvent.class);
      // When / Then
      final RuntimeException e =
          assertThrows(RuntimeException.class, () -> serde.serializer().serialize("t", EVENTS.get(0)));
      assertTrue(String.valueOf(e.getMessage()).contains("not registered"), e.toString());
      assertEquals(0, registry.size());
    }
  }

  @Test
  void shouldFailToReadAnUnknownContentIdAndAnyRegistryNotOpen() {
    final byte[] bytes;
    final Deserializer<TransactionEvent> reader;
    try (InProcessRegistry registry = InProcessRegistry.open()) {
      final Serde<TransactionEvent> serde =
          new AvroSerdes(AvroSerdeConfig.development(registry.url())).valueSerde(TransactionEvent.class);
      bytes = serde.serializer().serialize("t", EVENTS.get(0));
      reader = serde.deserializer();
      // Given: the record's id changed to one never registered
      final byte[] unknown = bytes.clone();
      ByteBuffer.wrap(unknown, 1, 4).putInt(42);
      // When / Then
      assertThrows(RuntimeException.class, () -> reader.deserialize("t", unknown));
    }
    // And: once closed, the registry's URL names nothing, so new serdes cannot be configured with it
    final InProcessRegistry other = InProcessRegistry.open();
    final AvroSerdeConfig closed = AvroSerdeConfig.development(other.url());
    other.close();
    assertThrows(IllegalStateException.class, () -> new AvroSerdes(closed).valueSerde(TransactionEvent.class));
    try (InProcessRegistry fresh = InProcessRegistry.open()) {
      assertNotEquals(closed.registryUrl(), fresh.url(), "every registry has a name of its own");
    }
  }

  private static byte[] binary(final TransactionEvent e) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    try {
      new SpecificDatumWriter<>(TransactionEvent.class).write(e, encoder);
      encoder.flush();
    } catch (final IOException x) {
      throw new AssertionError(x);
    }
    return out.toByteArray();
  }
}
