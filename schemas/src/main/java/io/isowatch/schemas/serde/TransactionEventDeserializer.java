package io.isowatch.schemas.serde;

import io.apicurio.registry.resolver.ParsedSchema;
import io.apicurio.registry.serde.Legacy4ByteIdHandler;
import io.apicurio.registry.serde.SerdeHeaders;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import io.isowatch.schemas.TransactionEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Apicurio's Avro deserializer for the input topic that also keeps, for the record it read last,
 * the record's Avro body when it is plain Avro binary of the compiled-in {@link TransactionEvent}
 * schema: the writer schema equals the compiled one and the body is binary, not JSON. Such a body
 * is the stored form of the event ({@code EventCodec} reads it back to an equal event), so the
 * check processor stores it as it came instead of encoding the decoded event again (the
 * streaming profile: 4% of the stream thread). Not thread-safe: one per task, as the
 * deserializer it extends.
 *
 * <p><b>The known schema id read directly.</b> Apicurio resolves a record's schema id through its
 * resolver's cache and makes a new binary decoder for every record. Once a record in the Confluent
 * wire format (magic byte 0, a 4-byte content id, the body) has been decoded by Apicurio with a
 * writer schema equal to the compiled one, plain Avro binary, that content id is remembered (a few
 * at most, should equal schemas be registered as different content); later
 * records carrying one are read here with one reused reader and decoder of the compiled schema,
 * which is what Apicurio's reader for that writer schema does (writer and reader schema equal), so
 * the event, the stored body and the errors of a bad body are the same. Any other record (another
 * id, another magic byte, a tombstone, ids in headers, JSON encoding) goes through Apicurio as
 * before, and so does one record in {@value #REVALIDATE_EVERY} of the known id, whose schema is
 * then compared again. A content id names immutable content in Apicurio, so this only skips look-ups
 * whose answer cannot change; unknown ids still reach the registry (and the dead-letter topic).
 */
public final class TransactionEventDeserializer extends AvroKafkaDeserializer<TransactionEvent> {
  private static final Schema COMPILED = TransactionEvent.getClassSchema();
  /** Records of the known id of which one goes through Apicurio, which checks its schema again. */
  static final int REVALIDATE_EVERY = 10_000;
  private static final int HEADER_BYTES = 1 + 4;
  private static final long NO_ID = -1;

  /** Most ids known at once (equal schemas registered as different content: a few at most). */
  private static final int MAX_KNOWN = 4;

  /** Content ids whose schema is the compiled one (in plain binary), {@link #NO_ID} in free slots. */
  private final long[] knownIds = new long[MAX_KNOWN];
  /** The content id of the record Apicurio is decoding, or {@link #NO_ID}. */
  private long decodingId = NO_ID;
  private int sinceRevalidation;
  /** Whether records can be read here at all: ids in the payload (4 bytes), no headers, binary. */
  private boolean direct;
  private final SpecificDatumReader<TransactionEvent> reader = new SpecificDatumReader<>(COMPILED, COMPILED);
  private BinaryDecoder decoder;

  private boolean binaryConfigured = true;
  // The resolver hands out one Schema instance per schema id: compared deeply once per instance.
  private Schema lastWriter;
  private boolean lastWriterIsCompiled;
  private byte[] body;
  // Whether the last deserialize() failed while reading the Avro body, after its schema resolved.
  private boolean bodyFailed;

  @Override
  public void configure(final Map<String, ?> configs, final boolean isKey) {
    super.configure(configs, isKey);
    final Object encoding = configs.get(AvroKafkaSerdeConfig.AVRO_ENCODING);
    binaryConfigured = encoding == null || AvroKafkaSerdeConfig.AVRO_ENCODING_BINARY.equals(encoding.toString());
    // Apicurio reads the id from the payload only without a headers handler, and then decodes with
    // the configured encoding whatever the record's headers say.
    direct = binaryConfigured && headersHandler == null && idHandler instanceof Legacy4ByteIdHandler;
    Arrays.fill(knownIds, NO_ID);
  }

  @Override
  public TransactionEvent deserialize(final String topic, final Headers headers, final byte[] data) {
    bodyFailed = false;
    decodingId = NO_ID;
    if (direct && data != null && data.length >= HEADER_BYTES && data[0] == MAGIC_BYTE) {
      final long id = ByteBuffer.wrap(data, 1, 4).getInt() & 0xffffffffL;
      if (known(id) && ++sinceRevalidation < REVALIDATE_EVERY) {
        return readKnown(data);
      }
      sinceRevalidation = 0;
      decodingId = id;
    }
    return super.deserialize(topic, headers, data);
  }

  /** A record of the known id: its body read with the compiled schema, as Apicurio would. */
  private TransactionEvent readKnown(final byte[] data) {
    body = null;
    final TransactionEvent event;
    try {
      decoder = DecoderFactory.get().binaryDecoder(data, HEADER_BYTES, data.length - HEADER_BYTES, decoder);
      event = reader.read(null, decoder);
    } catch (final IOException e) {
      bodyFailed = true;
      throw new UncheckedIOException(e);
    } catch (final RuntimeException undecodable) {
      bodyFailed = true;
      throw undecodable;
    }
    body = Arrays.copyOfRange(data, HEADER_BYTES, data.length);
    return event;
  }

  @Override
  protected TransactionEvent readData(final Headers headers, final ParsedSchema<Schema> schema,
      final ByteBuffer buffer, final int start, final int length) {
    body = null;
    final TransactionEvent event;
    try {
      event = super.readData(headers, schema, buffer, start, length);
    } catch (final RuntimeException undecodable) {
      bodyFailed = true;
      throw undecodable;
    }
    final boolean compiledBinary = binary(headers) && isCompiled(schema.getParsedSchema());
    if (compiledBinary) {
      // The same bytes Apicurio just decoded (it reads buffer.array() from start, length long).
      body = Arrays.copyOfRange(buffer.array(), start, start + length);
    }
    if (decodingId != NO_ID) {
      // The payload's id resolved to this schema (and the check above asks for binary too).
      forget(decodingId);
      if (compiledBinary) {
        remember(decodingId);
      }
    }
    return event;
  }

  /**
   * The Avro binary body of the record deserialized last, in the compiled schema, or null when it
   * is not that (another writer schema, JSON encoding) or was taken already. Taking it clears it,
   * so that it can never be paired with a later record's event.
   */
  public byte[] takeBody() {
    final byte[] taken = body;
    body = null;
    return taken;
  }

  /**
   * Whether the last {@link #deserialize} failed on the record's own bytes: its schema resolved and
   * its body did not decode. Such a failure is the record's, never the registry's: an I/O error
   * then comes from the Avro decoder (a truncated body), not from the network.
   */
  public boolean lastFailureWasInBody() {
    return bodyFailed;
  }

  private boolean known(final long id) {
    for (final long k : knownIds) {
      if (k == id) {
        return true;
      }
    }
    return false;
  }

  private void forget(final long id) {
    for (int i = 0; i < MAX_KNOWN; i++) {
      if (knownIds[i] == id) {
        knownIds[i] = NO_ID;
      }
    }
  }

  /** Into a free slot, else over the oldest-placed one (the first). */
  private void remember(final long id) {
    for (int i = 0; i < MAX_KNOWN; i++) {
      if (knownIds[i] == NO_ID) {
        knownIds[i] = id;
        return;
      }
    }
    knownIds[0] = id;
  }

  /** As Apicurio decides: the record's encoding header when there is one, else the configuration. */
  private boolean binary(final Headers headers) {
    final Header encoding = headers == null ? null : headers.lastHeader(SerdeHeaders.HEADER_VALUE_ENCODING);
    return encoding == null ? binaryConfigured
        : AvroKafkaSerdeConfig.AVRO_ENCODING_BINARY.equals(new String(encoding.value(), StandardCharsets.UTF_8));
  }

  private boolean isCompiled(final Schema writer) {
    if (writer != lastWriter) {
      lastWriter = writer;
      lastWriterIsCompiled = COMPILED.equals(writer);
    }
    return lastWriterIsCompiled;
  }
}
