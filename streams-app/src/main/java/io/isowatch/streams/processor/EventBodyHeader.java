package io.isowatch.streams.processor;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Hands an input's own Avro body from {@code decode-transactions} to {@code check-transactions},
 * in memory, as a header of the forwarded record: the check processor takes that body and stores
 * it in {@code tenant-transactions} instead of encoding the decoded event again. The decode
 * processor sets it only when the body is plain Avro binary of the compiled-in schema ({@link
 * io.isowatch.schemas.serde.TransactionEventDeserializer}) and always removes one that came with
 * the input, so that a producer cannot choose what is stored. Store changelogs are written with
 * headers of their own, so the header goes nowhere else.
 */
final class EventBodyHeader {
  static final String NAME = "isowatch.event-body";

  private EventBodyHeader() {}

  /** Replaces any such header of the record by {@code body}'s (none when null). */
  static void set(final Headers headers, final byte[] body) {
    headers.remove(NAME);
    if (body != null) {
      headers.add(NAME, body);
    }
  }

  /**
   * The body set by {@link #set}, or null; removes the header. The record's headers are its
   * context's too, and a cached store's put estimates the size of every header of the context
   * (key copied to a char array): in the streaming profile that cost most of what the body saved.
   */
  static byte[] take(final Headers headers) {
    final Header h = headers.lastHeader(NAME);
    if (h == null) {
      return null;
    }
    headers.remove(NAME);
    return h.value();
  }
}
