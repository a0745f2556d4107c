package io.isowatch.schemas.serde;

import io.apicurio.registry.resolver.ParsedSchema;
import io.apicurio.registry.serde.SerdeHeaders;
import io.apicurio.registry.serde.avro.AvroKafkaDeserializer;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import io.isowatch.schemas.TransactionEvent;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Apicurio's Avro deserializer for the input topic that also keeps, for the record it read last,
 * the record's Avro body when it is plain Avro binary of the compiled-in {@link TransactionEvent}
 * schema: the writer schema equals the compiled one and the body is binary, not JSON. Such a body
 * is the stored form of the event ({@code EventCodec} reads it back to an equal event), so the
 * check processor stores it as it came instead of encoding the decoded event again (the
 * streaming profile: 4% of the stream thread). Decoding itself is Apicurio's, unchanged. Not
 * thread-safe: one per task, as the deserializer it extends.
 */
public final class TransactionEventDeserializer extends AvroKafkaDeserializer<TransactionEvent> {
  private static final Schema COMPILED = TransactionEvent.getClassSchema();

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
  }

  @Override
  public TransactionEvent deserialize(final String topic, final Headers headers, final byte[] data) {
    bodyFailed = false;
    return super.deserialize(topic, headers, data);
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
    if (binary(headers) && isCompiled(schema.getParsedSchema())) {
      // The same bytes Apicurio just decoded (it reads buffer.array() from start, length long).
      body = Arrays.copyOfRange(buffer.array(), start, start + length);
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
