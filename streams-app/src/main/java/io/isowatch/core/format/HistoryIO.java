package io.isowatch.core.format;

import io.isowatch.core.history.History;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;

/** Entry point for reading and writing history files in every supported format. */
public final class HistoryIO {
  private HistoryIO() {}

  /**
   * Reads a history. {@link HistoryFormat#AUTO} sniffs the content.
   *
   * @throws InvalidHistoryException when the content is not a valid history of that format
   */
  public static History read(final Path file, final HistoryFormat format)
      throws IOException, InvalidHistoryException {
    throw new UnsupportedOperationException("formats land next");
  }

  /** Detects the format of a file from its content. */
  public static HistoryFormat detect(final Path file) throws IOException, InvalidHistoryException {
    throw new UnsupportedOperationException("formats land next");
  }

  /** Writes a history in a writable format (JSONL or TEXT). */
  public static void write(final History history, final HistoryFormat format, final Writer out)
      throws IOException {
    throw new UnsupportedOperationException("formats land next");
  }
}
