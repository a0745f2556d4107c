package io.isowatch.streams.processor;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.InvalidRecordException;
import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.serde.AvroSerdeConfig;
import io.isowatch.streams.serde.TransactionEventDeserializer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes raw input records into {@link TransactionEvent}s with the registry's Avro deserializer.
 * A record that does not decode, is a tombstone, or whose key is not its value's tenant is sent to
 * the dead-letter child as a {@link DeadLetter} with its coordinates, error and raw bytes, logged
 * and counted; processing goes on with the next record. Only bugs escape.
 */
public final class DecodeTransactionsProcessor implements Processor<byte[], byte[], Object, SpecificRecord> {
  private static final Logger LOG = LoggerFactory.getLogger(DecodeTransactionsProcessor.class);

  private final AvroSerdeConfig serdeConfig;
  private final CheckerMetrics metrics;
  private final String eventsChild;
  private final String deadLetterChild;
  private ProcessorContext<Object, SpecificRecord> context;
  private TransactionEventDeserializer deserializer;

  /**
   * @param eventsChild name of the child that receives decoded events (key: tenant)
   * @param deadLetterChild name of the child that receives dead letters (key: original bytes)
   */
  public DecodeTransactionsProcessor(final AvroSerdeConfig serdeConfig, final CheckerMetrics metrics,
      final String eventsChild, final String deadLetterChild) {
    this.serdeConfig = serdeConfig;
    this.metrics = metrics;
    this.eventsChild = eventsChild;
    this.deadLetterChild = deadLetterChild;
  }

  @Override
  public void init(final ProcessorContext<Object, SpecificRecord> context) {
    this.context = context;
    // One deserializer per task: its registry cache is shared by nothing else.
    this.deserializer = new TransactionEventDeserializer();
    deserializer.configure(serdeConfig.serdeProperties(), false);
  }

  @Override
  public void process(final Record<byte[], byte[]> record) {
    final String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("");
    final TransactionEvent event;
    try {
      event = decode(topic, record);
    } catch (final RuntimeException e) {
      // A body read for a record that is dead-lettered (wrong key) must not outlive it.
      deserializer.takeBody();
      deadLetter(record, e);
      return;
    }
    EventBodyHeader.set(record.headers(), deserializer.takeBody());
    context.forward(new Record<Object, SpecificRecord>(event.getTenant(), event, record.timestamp(),
        record.headers()), eventsChild);
  }

  private TransactionEvent decode(final String topic, final Record<byte[], byte[]> record) {
    return decode(deserializer, topic, record.headers(), record.key(), record.value());
  }

  /**
   * The event of a raw input record, as this processor decodes it; {@code isowatch replay} uses it
   * to find the last record of a partition that reaches the check processor.
   *
   * @throws RuntimeException when the record goes to the dead-letter topic instead: a tombstone,
   *     bytes that do not decode, another type, or a key that is not the event's tenant
   */
  public static TransactionEvent decode(final Deserializer<TransactionEvent> deserializer, final String topic,
      final Headers headers, final byte[] key, final byte[] value) {
    if (value == null) {
      throw new InvalidRecordException("tombstone (null value) on the input topic");
    }
    final Object decoded = deserializer.deserialize(topic, headers, value);
    if (!(decoded instanceof TransactionEvent event)) {
      throw new InvalidRecordException("value is a " + (decoded == null ? "null" : decoded.getClass().getName())
          + ", not a TransactionEvent");
    }
    final String tenant = key == null ? null : new String(key, StandardCharsets.UTF_8);
    if (!event.getTenant().equals(tenant)) {
      throw new InvalidRecordException("record key " + (tenant == null ? "null" : "'" + tenant + "'")
          + " is not the event's tenant '" + event.getTenant() + "'");
    }
    return event;
  }

  private void deadLetter(final Record<byte[], byte[]> record, final RuntimeException error) {
    final Optional<RecordMetadata> meta = context.recordMetadata();
    final String topic = meta.map(RecordMetadata::topic).orElse("");
    final int partition = meta.map(RecordMetadata::partition).orElse(-1);
    final long offset = meta.map(RecordMetadata::offset).orElse(-1L);
    LOG.warn("Dead-lettering input record topic=[{}] partition=[{}] offset=[{}] error=[{}]",
        topic, partition, offset, error.toString());
    metrics.deadLettered(error);
    final DeadLetter letter = DeadLetter.newBuilder()
        .setSourceTopic(topic)
        .setSourcePartition(partition)
        .setSourceOffset(offset)
        .setSourceTimestampMillis(record.timestamp())
        .setErrorClass(error.getClass().getName())
        .setErrorMessage(error.getMessage())
        .setRawKey(wrap(record.key()))
        .setRawValue(wrap(record.value()))
        .setDeadLetteredAtMicros(context.currentSystemTimeMs() * 1_000L)
        .build();
    context.forward(new Record<Object, SpecificRecord>(record.key(), letter, record.timestamp()),
        deadLetterChild);
  }

  private static ByteBuffer wrap(final byte[] bytes) {
    return bytes == null ? null : ByteBuffer.wrap(Arrays.copyOf(bytes, bytes.length));
  }

  @Override
  public void close() {
    if (deserializer != null) {
      deserializer.close();
    }
  }
}
