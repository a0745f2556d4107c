package io.isowatch.streams.processor;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * What the checker has done for one tenant, kept in the {@code tenant-progress} store: a format
 * byte ({@value #BINARY_V1}) then the five fields as big-endian longs, 41 bytes. Values written
 * as JSON by earlier versions (they start with <code>'{'</code>) are still read, so existing state
 * and changelogs restore; the next write of the tenant replaces them. Binary because the store is
 * written once per input record: JSON encoding and decoding was a tenth of the stream thread's
 * time in the streaming benchmark's profile (docs/benchmarks.md).
 *
 * @param inputs engine inputs (arrivals and flushes) stored in {@code tenant-transactions}: the next
 *     index
 * @param malformed well-formed events that are impossible transactions (e.g. a write without a
 *     value): counted as findings, not stored, not checked
 * @param published anomalies published on the anomalies topic
 * @param maxEndMicros the largest end time seen, or {@link Long#MIN_VALUE} when none had one; the
 *     tenant's watermark is this minus the grace
 * @param lastArrivalMs record timestamp of the latest arrival (stream time), for idle flushes
 */
public record TenantProgress(long inputs, long malformed, long published, long maxEndMicros, long lastArrivalMs) {
  /** First byte of the binary format. */
  public static final byte BINARY_V1 = 1;

  private static final int BINARY_SIZE = 1 + 5 * Long.BYTES;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A tenant never seen. */
  public static TenantProgress empty() {
    return new TenantProgress(0, 0, 0, Long.MIN_VALUE, Long.MIN_VALUE);
  }

  /** After storing one more arrival, with its end time ({@link Long#MIN_VALUE}: none) and record time. */
  public TenantProgress arrived(final long endMicros, final long recordTimestampMs) {
    return new TenantProgress(inputs + 1, malformed, published, Math.max(maxEndMicros, endMicros),
        Math.max(lastArrivalMs, recordTimestampMs));
  }

  /** After storing a flush. */
  public TenantProgress flushed() {
    return new TenantProgress(inputs + 1, malformed, published, maxEndMicros, lastArrivalMs);
  }

  public TenantProgress malformedOne() {
    return new TenantProgress(inputs, malformed + 1, published, maxEndMicros, lastArrivalMs);
  }

  public TenantProgress publishedOne() {
    return new TenantProgress(inputs, malformed, published + 1, maxEndMicros, lastArrivalMs);
  }

  /** The serde of the store: writes the binary format, reads it and the JSON of earlier versions. */
  public static Serde<TenantProgress> serde() {
    final Serializer<TenantProgress> ser = (topic, p) -> p == null ? null : p.toBytes();
    final Deserializer<TenantProgress> de = (topic, bytes) -> bytes == null ? null : fromBytes(bytes);
    return Serdes.serdeFrom(ser, de);
  }

  /** The binary format. */
  public byte[] toBytes() {
    return ByteBuffer.allocate(BINARY_SIZE).put(BINARY_V1).putLong(inputs).putLong(malformed).putLong(published)
        .putLong(maxEndMicros).putLong(lastArrivalMs).array();
  }

  /**
   * Reads the binary format or the JSON of earlier versions.
   *
   * @throws SerializationException when the bytes are neither
   */
  public static TenantProgress fromBytes(final byte[] bytes) {
    if (bytes.length > 0 && bytes[0] == '{') {
      try {
        return JSON.readValue(bytes, TenantProgress.class);
      } catch (final IOException e) {
        throw new SerializationException("unreadable tenant-progress value (JSON)", e);
      }
    }
    if (bytes.length != BINARY_SIZE || bytes[0] != BINARY_V1) {
      throw new SerializationException("unreadable tenant-progress value: " + bytes.length + " bytes, format byte "
          + (bytes.length == 0 ? "none" : Byte.toString(bytes[0])));
    }
    final ByteBuffer b = ByteBuffer.wrap(bytes, 1, BINARY_SIZE - 1);
    return new TenantProgress(b.getLong(), b.getLong(), b.getLong(), b.getLong(), b.getLong());
  }
}
