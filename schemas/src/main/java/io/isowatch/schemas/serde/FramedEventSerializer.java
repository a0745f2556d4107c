package io.isowatch.schemas.serde;

import io.isowatch.schemas.TransactionEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The registry's serializer of {@code TransactionEvent}s, with its frame computed once: the
 * Confluent wire format is a 5-byte header (magic byte 0, the schema's 4-byte id) and the Avro
 * binary encoding, and every event has the same schema (the class's) and so the same header. The
 * registry's serializer (Apicurio's) resolves the schema again for every record, which writes the
 * whole schema out as JSON each time: ~47 µs of CPU per event against ~1.7 µs framed here
 * (docs/benchmarks.md). Used by both producers of events, {@code isowatch replay} and the agent
 * ({@code TransactionProducers.valueSerializer}).
 *
 * <p>The first event goes through the registry's serializer, which registers or looks up the
 * schema; its bytes are compared with this class's own Avro encoding of the same event. When they
 * are the header followed by exactly that encoding, the header is kept and every later event is the
 * header and its own encoding, byte for byte what the registry's serializer writes; otherwise (another
 * framing, headers on the record, another encoding) every event goes through the registry's
 * serializer. Thread-safe, as a producer's serializer must be (the agent's sessions send from their
 * own threads): the first event is decided under a lock, each thread encodes into its own buffer.
 */
public final class FramedEventSerializer implements Serializer<TransactionEvent> {
  /** Magic byte and a 4-byte schema id. */
  static final int HEADER_BYTES = 5;

  private final Serializer<TransactionEvent> registry;
  private final ThreadLocal<Encoding> encodings = ThreadLocal.withInitial(Encoding::new);
  private final Object firstEvent = new Object();
  /** The frame's header once checked, else null. */
  private volatile byte[] header;
  /** True once the first event showed another framing: the registry's serializer does everything. */
  private volatile boolean delegate;

  public FramedEventSerializer(final Serializer<TransactionEvent> registry) {
    this.registry = registry;
  }

  /** True once later events are framed here (the first event's bytes matched). */
  public boolean framing() {
    return header != null;
  }

  @Override
  public byte[] serialize(final String topic, final TransactionEvent data) {
    return serialize(topic, null, data);
  }

  @Override
  public byte[] serialize(final String topic, final Headers headers, final TransactionEvent data) {
    if (data == null || delegate) {
      return viaRegistry(topic, headers, data);
    }
    byte[] h = header;
    if (h == null) {
      synchronized (firstEvent) {
        if (header == null && !delegate) {
          return first(topic, headers, data);
        }
      }
      if (delegate) {
        return viaRegistry(topic, headers, data);
      }
      h = header;
    }
    final byte[] out = encodings.get().encode(data, HEADER_BYTES);
    System.arraycopy(h, 0, out, 0, HEADER_BYTES);
    return out;
  }

  /** The first event: the registry's bytes, and whether they are the header and our encoding. */
  private byte[] first(final String topic, final Headers headers, final TransactionEvent data) {
    final int headersBefore = headers == null ? 0 : headers.toArray().length;
    final byte[] full = viaRegistry(topic, headers, data);
    final byte[] body = encodings.get().encode(data, 0);
    final boolean sameFrame = full != null && full.length == HEADER_BYTES + body.length && full[0] == 0
        && Arrays.equals(full, HEADER_BYTES, full.length, body, 0, body.length)
        && (headers == null ? 0 : headers.toArray().length) == headersBefore;
    if (sameFrame) {
      header = Arrays.copyOf(full, HEADER_BYTES);
    } else {
      delegate = true;
    }
    return full;
  }

  private byte[] viaRegistry(final String topic, final Headers headers, final TransactionEvent data) {
    return headers == null ? registry.serialize(topic, data) : registry.serialize(topic, headers, data);
  }

  @Override
  public void close() {
    registry.close();
  }

  /** One thread's Avro writer, buffer and encoder, reused from event to event. */
  private static final class Encoding {
    private final SpecificDatumWriter<TransactionEvent> writer =
        new SpecificDatumWriter<>(TransactionEvent.getClassSchema());
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(1024);
    private BinaryEncoder encoder;

    /** The event's Avro binary encoding, after {@code offset} bytes left for a header. */
    byte[] encode(final TransactionEvent data, final int offset) {
      buffer.reset();
      for (int i = 0; i < offset; i++) {
        buffer.write(0);
      }
      encoder = EncoderFactory.get().binaryEncoder(buffer, encoder);
      try {
        writer.write(data, encoder);
        encoder.flush();
      } catch (final IOException e) {
        throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
      }
      return buffer.toByteArray();
    }
  }
}
