package io.isowatch.streams.processor;

import io.isowatch.schemas.TransactionEvent;
import java.nio.ByteBuffer;

/**
 * One input given to a tenant's engine, as stored in {@code tenant-transactions}: an arriving
 * transaction event, or a flush of an idle tenant. Replaying a tenant's inputs in order into a new
 * engine rebuilds exactly the state the old one had. Bytes: a kind byte (0 arrival, 1 flush), the
 * stream time in µs (8 bytes), then for an arrival the event as plain Avro binary ({@link
 * EventCodec}).
 */
public sealed interface EngineInput {
  byte ARRIVAL = 0;
  byte FLUSH = 1;

  /** Stream time (record timestamp) when the input was given, µs. */
  long streamTimeMicros();

  /** A transaction event as it arrived. */
  record Arrival(long streamTimeMicros, TransactionEvent event) implements EngineInput {}

  /** The tenant was idle long enough in stream time to release its buffer ({@code check.idle.flush.ms}). */
  record Flush(long streamTimeMicros) implements EngineInput {}

  /** The stored bytes of an input. */
  static byte[] encode(final EngineInput input, final EventCodec codec) {
    if (input instanceof Arrival a) {
      return arrival(a.streamTimeMicros(), codec.encode(a.event()));
    }
    return ByteBuffer.allocate(9).put(FLUSH).putLong(input.streamTimeMicros()).array();
  }

  /**
   * The stored bytes of an arrival whose event is already plain Avro binary of the compiled-in
   * schema (the input record's own body): the same format as {@link #encode}, no encoding.
   */
  static byte[] arrival(final long streamTimeMicros, final byte[] avroBody) {
    return ByteBuffer.allocate(9 + avroBody.length).put(ARRIVAL).putLong(streamTimeMicros).put(avroBody).array();
  }

  /** Reads stored bytes back. */
  static EngineInput decode(final byte[] bytes, final EventCodec codec) {
    return decode(bytes, 0, bytes.length, codec);
  }

  /** Reads back the input in {@code length} bytes of {@code bytes} from {@code offset} (in a batch). */
  static EngineInput decode(final byte[] bytes, final int offset, final int length, final EventCodec codec) {
    final ByteBuffer b = ByteBuffer.wrap(bytes, offset, length);
    final byte kind = b.get();
    final long time = b.getLong();
    return switch (kind) {
      case ARRIVAL -> new Arrival(time, codec.decode(bytes, offset + 9, length - 9));
      case FLUSH -> new Flush(time);
      default -> throw new IllegalStateException("unknown tenant-transactions entry kind " + kind);
    };
  }
}
