package io.isowatch.streams.processor;

import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/** Where a record came from, for logs: {@code topic=[..] partition=[..] offset=[..]}. */
final class RecordCoordinates {
  private RecordCoordinates() {
  }

  /** The coordinates of the record being processed; empty ones in a punctuation. */
  static String current(final ProcessorContext<?, ?> context) {
    return context.recordMetadata().map(RecordCoordinates::of).orElse("topic=[] partition=[] offset=[]");
  }

  static String of(final RecordMetadata m) {
    return "topic=[" + m.topic() + "] partition=[" + m.partition() + "] offset=[" + m.offset() + "]";
  }
}
