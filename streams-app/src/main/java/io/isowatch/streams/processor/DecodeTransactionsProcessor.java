package io.isowatch.streams.processor;

import io.isowatch.schemas.DeadLetter;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.TransactionEventDeserializer;
import io.isowatch.streams.InvalidRecordException;
import io.isowatch.streams.fault.RegistryErrors;
import io.isowatch.streams.fault.RegistryUnavailableException;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
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
 *
 * <p>A record too large for the checker to store (its key and value over {@code maxRecordBytes}: its
 * changelog record and dead letter could not be produced) is dead-lettered without its raw bytes;
 * its coordinates point at it.
 *
 * <p>A transient registry failure ({@link RegistryErrors}: unreachable, timeout, 5xx) is not the
 * record's fault and is never dead-lettered: the decoder retries with exponential backoff, blocking
 * the stream thread for at most {@code maxBlock} (counted, logged), then throws {@link
 * RegistryUnavailableException}; the stream thread is replaced and the task resumes from its last
 * commit, so the record is decoded again later (docs/streaming.md, "Failure handling").
 */
public final class DecodeTransactionsProcessor implements Processor<byte[], byte[], Object, SpecificRecord> {
  private static final Logger LOG = LoggerFactory.getLogger(DecodeTransactionsProcessor.class);

  private final AvroSerdeConfig serdeConfig;
  private final CheckerMetrics metrics;
  private final String eventsChild;
  private final String deadLetterChild;
  private final Duration maxBlock;
  private final long maxRecordBytes;
  private ProcessorContext<Object, SpecificRecord> context;
  private TransactionEventDeserializer deserializer;

  /**
   * @param eventsChild name of the child that receives decoded events (key: tenant)
   * @param deadLetterChild name of the child that receives dead letters (key: original bytes)
   */
  public DecodeTransactionsProcessor(final AvroSerdeConfig serdeConfig, final CheckerMetrics metrics,
      final String eventsChild, final String deadLetterChild) {
    this(serdeConfig, metrics, eventsChild, deadLetterChild, Duration.ofSeconds(5), Long.MAX_VALUE);
  }

  /**
   * @param maxBlock longest the decoder blocks on a transiently failing registry before it throws
   *     {@link RegistryUnavailableException}
   * @param maxRecordBytes largest key plus value the checker takes; larger records are dead-lettered
   */
  public DecodeTransactionsProcessor(final AvroSerdeConfig serdeConfig, final CheckerMetrics metrics,
      final String eventsChild, final String deadLetterChild, final Duration maxBlock, final long maxRecordBytes) {
    this.maxBlock = maxBlock;
    this.maxRecordBytes = maxRecordBytes;
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
    final Map<String, Object> props = new HashMap<>(serdeConfig.serdeProperties());
    // Retries are this processor's (below): Apicurio's own would retry a 404 too, 1 s per unknown id.
    props.put(io.apicurio.registry.resolver.SchemaResolverConfig.RETRY_COUNT, 0L);
    deserializer.configure(props, false);
  }

  @Override
  public void process(final Record<byte[], byte[]> record) {
    final String topic = context.recordMetadata().map(RecordMetadata::topic).orElse("");
    final TransactionEvent event;
    try {
      final long size = length(record.key()) + length(record.value());
      if (size > maxRecordBytes) {
        deadLetter(record, new InvalidRecordException("record of " + size + " bytes (key and value) is larger than "
            + maxRecordBytes + " bytes, what the checker can store and publish; raw bytes not kept here"), false);
        return;
      }
      event = decodeRetrying(topic, record);
    } catch (final RegistryUnavailableException e) {
      throw e;
    } catch (final RuntimeException e) {
      // A body read for a record that is dead-lettered (wrong key) must not outlive it.
      deserializer.takeBody();
      deadLetter(record, e, true);
      return;
    }
    EventBodyHeader.set(record.headers(), deserializer.takeBody());
    context.forward(new Record<Object, SpecificRecord>(event.getTenant(), event, record.timestamp(),
        record.headers()), eventsChild);
  }

  /**
   * Decodes, retrying transient registry failures with exponential backoff (100 ms doubling up to
   * 2 s) for at most {@code maxBlock} in all.
   */
  private TransactionEvent decodeRetrying(final String topic, final Record<byte[], byte[]> record) {
    long waitedMs = 0;
    long backoffMs = 100;
    while (true) {
      try {
        final TransactionEvent event = decode(deserializer, topic, record.headers(), record.key(), record.value());
        if (waitedMs > 0) {
          LOG.info("Schema registry reachable again, decoding resumed {} waitedMs=[{}]", where(), waitedMs);
        }
        return event;
      } catch (final RuntimeException e) {
        if (deserializer.lastFailureWasInBody() || !RegistryErrors.isTransient(e)) {
          throw e;
        }
        metrics.registryRetry();
        if (waitedMs + backoffMs > maxBlock.toMillis()) {
          LOG.warn("Schema registry still failing, pausing the task: the stream thread is replaced and the task "
              + "resumes from its last commit {} waitedMs=[{}] error=[{}]", where(), waitedMs, e.toString());
          throw new RegistryUnavailableException("schema registry unavailable for " + waitedMs + " ms while decoding "
              + where(), e);
        }
        if (waitedMs == 0) {
          LOG.warn("Schema registry failing transiently, retrying (the record is not dead-lettered) {} error=[{}]",
              where(), e.toString());
        }
        sleep(backoffMs);
        waitedMs += backoffMs;
        backoffMs = Math.min(backoffMs * 2, 2_000);
      }
    }
  }

  private static void sleep(final long ms) {
    try {
      Thread.sleep(ms);
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistryUnavailableException("interrupted while waiting for the schema registry", e);
    }
  }

  private String where() {
    return context.recordMetadata().map(m -> "topic=[" + m.topic() + "] partition=[" + m.partition()
        + "] offset=[" + m.offset() + "]").orElse("topic=[] partition=[] offset=[]");
  }

  private static long length(final byte[] bytes) {
    return bytes == null ? 0 : bytes.length;
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

  private void deadLetter(final Record<byte[], byte[]> record, final RuntimeException error,
      final boolean keepRawBytes) {
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
        .setRawKey(keepRawBytes ? wrap(record.key()) : null)
        .setRawValue(keepRawBytes ? wrap(record.value()) : null)
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
