package io.isowatch.core.format;

import io.isowatch.core.history.Transaction;
import java.io.IOException;
import java.io.Writer;

/**
 * Streams transactions as native JSONL, one line each, so that histories larger than memory can be
 * written (generators, converters, agents).
 */
public final class JsonlHistoryWriter implements AutoCloseable {
  private final Writer out;

  public JsonlHistoryWriter(final Writer out) {
    this.out = out;
  }

  /** Appends one transaction as one line. */
  public void write(final Transaction txn) throws IOException {
    throw new UnsupportedOperationException("formats land next");
  }

  @Override
  public void close() throws IOException {
    out.close();
  }
}
