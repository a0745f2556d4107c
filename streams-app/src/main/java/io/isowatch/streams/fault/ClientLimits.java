package io.isowatch.streams.fault;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;

/**
 * The limits of the checker's own Kafka clients that decide how it handles a fault, read from its
 * Streams properties as Kafka Streams reads them ({@code producer.}/{@code main.consumer.} prefixed
 * keys first, then the plain key, then Kafka's default).
 */
public final class ClientLimits {
  /**
   * Bytes of a produced record beyond its key and value that count against {@code
   * max.request.size} (Kafka's upper bound is 82 for a batch of one record without headers), with
   * room for the changelog key of a stored input and the dead letter's own fields.
   */
  public static final long RECORD_OVERHEAD_BYTES = 1_024;
  /** Kafka Streams' {@code transaction.timeout.ms} under exactly-once when not set. */
  static final long STREAMS_EOS_TRANSACTION_TIMEOUT_MS = 10_000;

  private ClientLimits() {}

  /** The producers' {@code max.request.size}: no record the checker produces may be larger. */
  public static long maxRequestBytes(final Map<?, ?> streamsProps) {
    return longOf(streamsProps, ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_048_576L,
        StreamsConfig.PRODUCER_PREFIX);
  }

  /**
   * The largest input record (key plus value) the checker takes: it must fit in its changelog
   * record in {@code tenant-transactions} and in a dead letter.
   */
  public static long maxInputRecordBytes(final Map<?, ?> streamsProps) {
    return maxRequestBytes(streamsProps) - RECORD_OVERHEAD_BYTES;
  }

  /**
   * How long a decoder may block its stream thread on a failing registry: half the transaction
   * timeout under exactly-once (longer, the broker aborts the open transaction and the task is
   * fenced), half of {@code max.poll.interval.ms} otherwise (longer, the member leaves the group).
   */
  public static Duration maxRegistryBlock(final Map<?, ?> streamsProps) {
    final boolean eos = StreamsConfig.EXACTLY_ONCE_V2.equals(String.valueOf(
        streamsProps.get(StreamsConfig.PROCESSING_GUARANTEE_CONFIG)));
    final long bound = eos
        ? longOf(streamsProps, ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, STREAMS_EOS_TRANSACTION_TIMEOUT_MS,
            StreamsConfig.PRODUCER_PREFIX)
        : longOf(streamsProps, ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, 300_000L,
            StreamsConfig.MAIN_CONSUMER_PREFIX, StreamsConfig.CONSUMER_PREFIX);
    return Duration.ofMillis(bound / 2);
  }

  private static long longOf(final Map<?, ?> props, final String key, final long fallback, final String... prefixes) {
    for (final String prefix : prefixes) {
      final Object v = props.get(prefix + key);
      if (v != null) {
        return Long.parseLong(v.toString().trim());
      }
    }
    final Object v = props.get(key);
    return v == null ? fallback : Long.parseLong(v.toString().trim());
  }
}
