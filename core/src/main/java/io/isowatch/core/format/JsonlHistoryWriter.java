package io.isowatch.core.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.io.IOException;
import java.io.Writer;

/**
 * Streams transactions as native JSONL, one line each, so that histories larger than memory can be
 * written (generators, converters, agents).
 *
 * <p>Each line has exactly the shape {@link JsonlHistoryReader} reads, with fields in the order
 * {@code session, txn, seq, status, start, end, tenant, level, ops}; {@code seq}, {@code start},
 * {@code end}, {@code tenant} and {@code level} are omitted when the transaction has none, so that
 * reading the output back yields equal transactions (up to {@link Transaction#line()}, which is the
 * line written).
 *
 * <p>Each {@link #write} hands its line to the underlying writer without flushing it; {@link
 * #flush()} and {@link #close()} do. Not thread-safe.
 */
public final class JsonlHistoryWriter implements AutoCloseable {
  private static final JsonFactory FACTORY =
      new JsonFactoryBuilder()
          .rootValueSeparator((String) null)
          .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
          .disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM)
          .build();

  private final Writer out;
  private final JsonGenerator gen;

  public JsonlHistoryWriter(final Writer out) {
    this.out = out;
    try {
      this.gen = FACTORY.createGenerator(out);
    } catch (final IOException e) {
      // Creating a generator over a Writer does no I/O.
      throw new IllegalStateException("cannot create a JSON generator", e);
    }
  }

  /** Appends one transaction as one line. */
  public void write(final Transaction txn) throws IOException {
    gen.writeStartObject();
    gen.writeStringField("session", txn.session());
    gen.writeStringField("txn", txn.id());
    if (txn.hasSeq()) {
      gen.writeNumberField("seq", txn.seq());
    }
    gen.writeStringField("status", txn.status().wire());
    if (txn.start() != Transaction.NO_TIME) {
      gen.writeNumberField("start", txn.start());
    }
    if (txn.end() != Transaction.NO_TIME) {
      gen.writeNumberField("end", txn.end());
    }
    if (txn.tenant() != null) {
      gen.writeStringField("tenant", txn.tenant());
    }
    if (txn.level() != null) {
      gen.writeStringField("level", txn.level());
    }
    gen.writeArrayFieldStart("ops");
    for (final Op op : txn.ops()) {
      gen.writeStartObject();
      gen.writeStringField("t", op.type().code());
      gen.writeStringField("k", op.key());
      if (op.isListRead()) {
        gen.writeArrayFieldStart("v");
        for (final Long e : op.elements()) {
          gen.writeNumber(e);
        }
        gen.writeEndArray();
      } else if (op.value() == null) {
        gen.writeNullField("v");
      } else {
        gen.writeNumberField("v", op.value());
      }
      gen.writeEndObject();
    }
    gen.writeEndArray();
    gen.writeEndObject();
    gen.writeRaw('\n');
    // Moves the line from the generator's buffer into `out` (not passed on as a flush of `out`),
    // so callers may interleave their own writes to `out`.
    gen.flush();
  }

  /** Flushes the underlying writer. */
  public void flush() throws IOException {
    gen.flush();
    out.flush();
  }

  @Override
  public void close() throws IOException {
    gen.close();
    out.close();
  }
}
