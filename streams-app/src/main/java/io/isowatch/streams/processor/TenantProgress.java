package io.isowatch.streams.processor;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;

/**
 * What the checker has done for one tenant, kept in the {@code tenant-progress} store (JSON).
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

  /** The JSON serde of the store. */
  public static Serde<TenantProgress> serde() {
    final Serializer<TenantProgress> ser = (topic, p) -> {
      try {
        return p == null ? null : JSON.writeValueAsBytes(p);
      } catch (final IOException e) {
        throw new UncheckedIOException(e);
      }
    };
    final Deserializer<TenantProgress> de = (topic, bytes) -> {
      try {
        return bytes == null ? null : JSON.readValue(bytes, TenantProgress.class);
      } catch (final IOException e) {
        throw new SerializationException("unreadable tenant-progress value", e);
      }
    };
    return Serdes.serdeFrom(ser, de);
  }
}
