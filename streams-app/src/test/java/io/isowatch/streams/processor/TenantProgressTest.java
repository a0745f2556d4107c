package io.isowatch.streams.processor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serde;
import org.junit.jupiter.api.Test;

class TenantProgressTest {
  private final Serde<TenantProgress> serde = TenantProgress.serde();

  @Test
  void shouldReadBackWhatItWritesWhenBinary() {
    // Given
    final TenantProgress p = new TenantProgress(12, 1, 3, Long.MIN_VALUE, 1_700_000_000_123L);
    // When
    final byte[] bytes = serde.serializer().serialize("t", p);
    // Then
    assertEquals(41, bytes.length);
    assertEquals(TenantProgress.BINARY_V1, bytes[0]);
    assertEquals(p, serde.deserializer().deserialize("t", bytes));
  }

  @Test
  void shouldReadTheJsonOfEarlierVersionsWhenRestoringOldState() {
    // Given: a value as the JSON serde of earlier versions wrote it
    final byte[] json = ("{\"inputs\":5,\"malformed\":0,\"published\":2,\"maxEndMicros\":-9223372036854775808,"
        + "\"lastArrivalMs\":1000}").getBytes(StandardCharsets.UTF_8);
    // When
    final TenantProgress p = serde.deserializer().deserialize("t", json);
    // Then
    assertEquals(new TenantProgress(5, 0, 2, Long.MIN_VALUE, 1000), p);
    assertArrayEquals(p.toBytes(), serde.serializer().serialize("t", p));
  }

  @Test
  void shouldRefuseBytesWhenNeitherFormat() {
    // Given
    final byte[] junk = {9, 1, 2};
    // When / Then
    assertThrows(SerializationException.class, () -> serde.deserializer().deserialize("t", junk));
  }
}
