package io.isowatch.streams.processor;

import io.isowatch.streams.fault.ClientLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Whether an output record fits in what the checker's producer may send ({@code max.request.size}),
 * decided before it is forwarded: a record the producer refuses aborts the whole exactly-once
 * transaction, and the task would fail on it again after every restart. Sized as the sink writes
 * it: the Confluent header (5 bytes), the Avro binary body, the key, and Kafka's record overhead.
 * Only anomalies and verdicts are sized (a few per input at most); not thread-safe, one per task.
 */
final class PublishLimit {
  private static final int CONFLUENT_HEADER_BYTES = 5;

  private final long maxBytes;
  private final Map<Schema, SpecificDatumWriter<SpecificRecord>> writers = new HashMap<>();
  private BinaryEncoder encoder;

  /** @param maxRequestBytes the producer's {@code max.request.size} */
  PublishLimit(final long maxRequestBytes) {
    this.maxBytes = maxRequestBytes - ClientLimits.RECORD_OVERHEAD_BYTES;
  }

  /** Throws {@link UnpublishableRecordException} when the record would be larger than allowed. */
  void check(final String key, final SpecificRecord value, final String what) {
    final long size = CONFLUENT_HEADER_BYTES + key.getBytes(StandardCharsets.UTF_8).length + avroBytes(value);
    if (size > maxBytes) {
      throw new UnpublishableRecordException(what + " of " + size + " bytes is larger than the " + maxBytes
          + " bytes the checker may publish (producer max.request.size less "
          + ClientLimits.RECORD_OVERHEAD_BYTES + ")");
    }
  }

  /** Whether the record fits. */
  boolean fits(final String key, final SpecificRecord value) {
    return CONFLUENT_HEADER_BYTES + key.getBytes(StandardCharsets.UTF_8).length + avroBytes(value) <= maxBytes;
  }

  private long avroBytes(final SpecificRecord value) {
    final SpecificDatumWriter<SpecificRecord> writer =
        writers.computeIfAbsent(value.getSchema(), SpecificDatumWriter::new);
    final Counting out = new Counting();
    encoder = EncoderFactory.get().binaryEncoder(out, encoder);
    try {
      writer.write(value, encoder);
      encoder.flush();
    } catch (final IOException e) {
      // Counting never fails.
      throw new UncheckedIOException(e);
    }
    return out.count;
  }

  /** An output stream that only counts. */
  private static final class Counting extends OutputStream {
    private long count;

    @Override
    public void write(final int b) {
      count++;
    }

    @Override
    public void write(final byte[] b, final int off, final int len) {
      count += len;
    }
  }

  /** An output record larger than the checker may publish. */
  static final class UnpublishableRecordException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnpublishableRecordException(final String message) {
      super(message);
    }
  }
}
