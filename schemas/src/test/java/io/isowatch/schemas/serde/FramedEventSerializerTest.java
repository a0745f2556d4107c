package io.isowatch.schemas.serde;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class FramedEventSerializerTest {
  private static final List<TransactionEvent> EVENTS = history("""
      A s1 w(x,1) w(y,2) seq=0
      B s2 r(x,1) r(y,2) w(z,3) seq=0
      C s1 r(z,3) seq=1
      D s3 r(x,0) w(x,4) seq=4
      E s3 r(q,0) seq=5
      F s2 w(a,5) w(b,6) w(c,7) w(d,8) seq=1
      """).transactions().stream().map(t -> TransactionEvents.fromCore("acme", t)).toList();

  @Test
  void shouldWriteExactlyWhatTheRegistrysSerializerWritesWhenItFramesAsConfluentDoes() {
    // Given: a registry serializer writing magic byte 0, a 4-byte id and the Avro binary encoding
    final AtomicInteger calls = new AtomicInteger();
    final Serializer<TransactionEvent> registry = counting(calls, e -> concat(new byte[] {0, 0, 0, 1, 7}, binary(e)));
    final FramedEventSerializer framed = new FramedEventSerializer(registry);

    // When / Then: every event's bytes are the registry's, and only the first event went through it
    for (final TransactionEvent e : EVENTS) {
      assertArrayEquals(concat(new byte[] {0, 0, 0, 1, 7}, binary(e)), framed.serialize("t", e), e.getTxn());
    }
    assertTrue(framed.framing());
    assertEquals(1, calls.get());
  }

  @Test
  void shouldWriteTheRegistrysBytesForEveryEventWhenSessionsSerializeFromTheirOwnThreads() throws Exception {
    // Given: the agent's sessions send, and so serialize, from their own threads
    final AtomicInteger calls = new AtomicInteger();
    final FramedEventSerializer framed =
        new FramedEventSerializer(counting(calls, e -> concat(new byte[] {0, 0, 0, 1, 7}, binary(e))));
    final ExecutorService sessions = Executors.newFixedThreadPool(4);
    try {
      // When: four threads serialize every event 500 times each, the first events at once
      final List<Future<Integer>> mismatches = new ArrayList<>();
      for (int thread = 0; thread < 4; thread++) {
        mismatches.add(sessions.submit(() -> {
          int wrong = 0;
          for (int round = 0; round < 500; round++) {
            for (final TransactionEvent e : EVENTS) {
              if (!java.util.Arrays.equals(concat(new byte[] {0, 0, 0, 1, 7}, binary(e)), framed.serialize("t", e))) {
                wrong++;
              }
            }
          }
          return wrong;
        }));
      }
      // Then: no thread saw another's bytes, and the registry decided the frame once
      for (final Future<Integer> m : mismatches) {
        assertEquals(0, m.get());
      }
    } finally {
      sessions.shutdownNow();
    }
    assertTrue(framed.framing());
    assertEquals(1, calls.get());
  }

  @Test
  void shouldLeaveEveryEventToTheRegistrysSerializerWhenItsFirstBytesAreFramedOtherwise() {
    for (final Function<TransactionEvent, byte[]> other : List.<Function<TransactionEvent, byte[]>>of(
        e -> concat(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 9}, binary(e)), // an 8-byte id
        e -> concat(new byte[] {1, 0, 0, 0, 9}, binary(e)), // another magic byte
        e -> concat(new byte[] {0, 0, 0, 0, 9}, json(e)), // another encoding
        e -> concat(new byte[] {0, 0, 0, 0, 9}, reversed(binary(e))))) { // as long, other bytes
      // Given
      final AtomicInteger calls = new AtomicInteger();
      final FramedEventSerializer framed = new FramedEventSerializer(counting(calls, other));

      // When / Then
      for (final TransactionEvent e : EVENTS) {
        assertArrayEquals(other.apply(e), framed.serialize("t", e), e.getTxn());
      }
      assertFalse(framed.framing());
      assertEquals(EVENTS.size(), calls.get());
    }
  }

  private static Serializer<TransactionEvent> counting(final AtomicInteger calls,
      final Function<TransactionEvent, byte[]> bytes) {
    return (topic, data) -> {
      calls.incrementAndGet();
      return bytes.apply(data);
    };
  }

  private static byte[] binary(final TransactionEvent e) {
    try {
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      final BinaryEncoder enc = EncoderFactory.get().binaryEncoder(out, null);
      new SpecificDatumWriter<>(TransactionEvent.getClassSchema()).write(e, enc);
      enc.flush();
      return out.toByteArray();
    } catch (final IOException x) {
      throw new AssertionError(x);
    }
  }

  private static byte[] json(final TransactionEvent e) {
    try {
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      final JsonEncoder enc = EncoderFactory.get().jsonEncoder(TransactionEvent.getClassSchema(), out);
      new SpecificDatumWriter<>(TransactionEvent.getClassSchema()).write(e, enc);
      enc.flush();
      return out.toByteArray();
    } catch (final IOException x) {
      throw new AssertionError(x);
    }
  }

  private static byte[] reversed(final byte[] b) {
    final byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = b[b.length - 1 - i];
    }
    return out;
  }

  private static byte[] concat(final byte[] a, final byte[] b) {
    final byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
