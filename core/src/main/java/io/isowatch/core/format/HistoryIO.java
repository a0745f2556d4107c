package io.isowatch.core.format;

import io.isowatch.core.debug.DebugTimings;
import io.isowatch.core.history.History;
import io.isowatch.core.history.ReadingSplit;
import io.isowatch.core.history.Transaction;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * Entry point for reading and writing history files in every supported format. Files may be
 * gzip-compressed (detected by content, not by name); text is UTF-8.
 *
 * <p>Formats and their readers: {@link HistoryFormat#JSONL} {@link JsonlHistoryReader}, {@link
 * HistoryFormat#TEXT} {@link TextHistoryReader}, {@link HistoryFormat#ELLE} {@link
 * ElleHistoryReader}, {@link HistoryFormat#AION} {@link AionHistoryReader}; {@link
 * HistoryFormat#AUTO} sniffs the content (see {@link #detect(Path)}). JSONL and TEXT can be
 * written.
 */
public final class HistoryIO {
  private HistoryIO() {}

  /**
   * Reads a history. {@link HistoryFormat#AUTO} sniffs the content.
   *
   * @throws InvalidHistoryException when the content is not a valid history of that format
   */
  public static History read(final Path file, final HistoryFormat format)
      throws IOException, InvalidHistoryException {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in, format, file.toString());
    }
  }

  /**
   * Reads a history from a stream (e.g. standard input), which is consumed but not closed. {@link
   * HistoryFormat#AUTO} sniffs the content.
   */
  public static History read(final InputStream in, final HistoryFormat format)
      throws IOException, InvalidHistoryException {
    return read(in, format, "the input");
  }

  /**
   * As {@link #read(InputStream, HistoryFormat)}, and, for a JSONL, Elle or Aion input, also gives each
   * transaction to {@code each}, in file order, on the caller's thread, as soon as it is parsed and
   * its id found new, while the reader thread parses the next ones: a caller can work on the
   * history while it is being read (the whole-history check does). Text gives each transaction
   * once its lines end (one whose lines are not consecutive as it stood then); the returned history is the whole input in every case. An exception thrown by
   * {@code each} stops the reading and is thrown as it is.
   */
  public static History read(final InputStream in, final HistoryFormat format, final Consumer<Transaction> each)
      throws IOException, InvalidHistoryException {
    return read(in, format, "the input", ReadingSplit.each(each));
  }

  /**
   * As {@link #read(InputStream, HistoryFormat)}, and, for a JSONL, Elle (EDN or JSON), Aion or text input, runs
   * {@code split} while reading: {@link ReadingSplit#read} and {@link ReadingSplit#end} on the reader
   * thread (which also collects the history and rejects a repeated id), {@link ReadingSplit#take} on
   * this one (text: see {@link #readText}); the returned history is the whole input in every
   * case. An exception thrown by {@code split} stops the reading and is thrown as it is.
   */
  public static History read(final InputStream in, final HistoryFormat format, final ReadingSplit split)
      throws IOException, InvalidHistoryException {
    return read(in, format, "the input", split);
  }

  private static History read(final InputStream raw, final HistoryFormat format, final String source)
      throws IOException, InvalidHistoryException {
    return read(raw, format, source, ReadingSplit.each(t -> { }));
  }

  private static History read(final InputStream raw, final HistoryFormat format, final String source,
      final ReadingSplit split) throws IOException, InvalidHistoryException {
    final BufferedInputStream in = HistoryInputs.plain(raw);
    final HistoryFormat actual =
        format == HistoryFormat.AUTO ? FormatDetector.detect(HistoryInputs.prefix(in), source) : format;
    final Reader text = HistoryInputs.utf8(in);
    return switch (actual) {
      case JSONL -> readJsonl(text, split);
      case TEXT -> readText(text, split);
      case ELLE -> readAhead(out -> new ElleHistoryReader().read(text, out), "isowatch-elle-reader", split);
      case AION -> readAhead(out -> new AionHistoryReader().read(text, out), "isowatch-aion-reader", split);
      case AUTO -> throw new IllegalStateException("AUTO is resolved above");
    };
  }

  /** JSONL parsed on a thread of its own ({@link #readAhead}). */
  private static History readJsonl(final Reader text, final ReadingSplit split)
      throws IOException, InvalidHistoryException {
    DebugTimings.mark("readJsonl: start");
    final History read = readAhead(JsonlReadAhead.jsonl(text, InputLimits.defaults()), "isowatch-jsonl-reader", split);
    DebugTimings.mark("readJsonl: last batch taken");
    return read;
  }

  /**
   * A text history parsed on a thread of its own, which runs the reader's side of {@code split} on
   * each transaction once its lines end ({@link TextHistoryReader#read(Reader, JsonlReadAhead.Emit)})
   * and, at the end, on the history {@link TextHistoryReader#read(Reader)} returns: not collected
   * from what was given, since a transaction's lines need not be consecutive.
   */
  private static History readText(final Reader text, final ReadingSplit split)
      throws IOException, InvalidHistoryException {
    final History[] read = new History[1];
    final JsonlReadAhead.Stage stage = new JsonlReadAhead.Stage() {
      @Override
      public void read(final Transaction t, final ReadingSplit.Sink out) {
        split.read(t, out);
      }

      @Override
      public void end(final ReadingSplit.Sink out) {
        split.end(read[0], out);
      }
    };
    final JsonlReadAhead.Source source = out -> read[0] = new TextHistoryReader().read(text, out);
    try (JsonlReadAhead ahead = new JsonlReadAhead(source, stage, Integer.MAX_VALUE, "isowatch-text-reader")) {
      for (List<Transaction> batch = ahead.next(); !batch.isEmpty(); batch = ahead.next()) {
        for (int i = 0; i < batch.size(); i++) {
          split.take(batch.get(i), ahead.tag(i));
        }
      }
    }
    return read[0];
  }

  /**
   * A history parsed by {@code source} on a thread of its own ({@link JsonlReadAhead}), which also
   * collects the history (rejecting a repeated id) and runs the reader's side of {@code split},
   * while this one takes what it hands over. The queue between them is not bounded: the history
   * keeps every transaction anyway, and the reader never waits for this thread.
   */
  private static History readAhead(final JsonlReadAhead.Source source, final String threadName,
      final ReadingSplit split) throws IOException, InvalidHistoryException {
    final HistoryAccumulator acc = new HistoryAccumulator();
    final History[] read = new History[1];
    final JsonlReadAhead.Stage stage = new JsonlReadAhead.Stage() {
      @Override
      public void read(final Transaction t, final ReadingSplit.Sink out) throws InvalidHistoryException {
        acc.add(t);
        split.read(t, out);
      }

      @Override
      public void end(final ReadingSplit.Sink out) throws InvalidHistoryException {
        read[0] = acc.build();
        split.end(read[0], out);
      }
    };
    try (JsonlReadAhead ahead = new JsonlReadAhead(source, stage, Integer.MAX_VALUE, threadName)) {
      for (List<Transaction> batch = ahead.next(); !batch.isEmpty(); batch = ahead.next()) {
        for (int i = 0; i < batch.size(); i++) {
          split.take(batch.get(i), ahead.tag(i));
        }
      }
    }
    // Set by the reader thread before it handed over the end of the input, which next() has taken.
    return read[0];
  }

  /**
   * Detects the format of a file from its content: JSONL (first line a JSON object with {@code
   * ops}/{@code txn}/{@code session}), AION (JSON array of objects with {@code tid}/{@code sts}),
   * ELLE (JSON objects with {@code type} and {@code process}/{@code value}, or EDN with {@code
   * :type}) or TEXT (lines {@code r(…)}/{@code w(…)}). An empty file is an empty JSONL history.
   *
   * @throws InvalidHistoryException when the content matches none of them
   */
  public static HistoryFormat detect(final Path file) throws IOException, InvalidHistoryException {
    try (InputStream in = Files.newInputStream(file)) {
      return FormatDetector.detect(HistoryInputs.prefix(HistoryInputs.plain(in)), file.toString());
    }
  }

  /**
   * Writes a history in a writable format (JSONL or TEXT), flushing but not closing {@code out}.
   * TEXT drops what it cannot represent; use {@link #writeWithReport} to learn what.
   *
   * @throws UnwritableHistoryException when TEXT cannot represent the history at all
   */
  public static void write(final History history, final HistoryFormat format, final Writer out)
      throws IOException {
    writeWithReport(history, format, out);
  }

  /**
   * Writes a history in a writable format and reports what the format could not carry (always
   * lossless for JSONL; see {@link TextHistoryWriter} for TEXT). Flushes but does not close {@code
   * out}.
   *
   * @throws UnwritableHistoryException when TEXT cannot represent the history at all
   * @throws IllegalArgumentException for a format that cannot be written
   */
  public static WriteReport writeWithReport(final History history, final HistoryFormat format, final Writer out)
      throws IOException {
    return switch (format) {
      case JSONL -> writeJsonl(history, out);
      case TEXT -> new TextHistoryWriter().write(history, out);
      case AUTO, ELLE, AION -> throw new IllegalArgumentException(
          "cannot write " + format + " histories; writable formats are JSONL and TEXT");
    };
  }

  private static WriteReport writeJsonl(final History history, final Writer out) throws IOException {
    // Not closed: closing would close the caller's writer.
    final JsonlHistoryWriter writer = new JsonlHistoryWriter(out);
    for (final Transaction t : history.transactions()) {
      writer.write(t);
    }
    writer.flush();
    return WriteReport.lossless(history.size());
  }
}
