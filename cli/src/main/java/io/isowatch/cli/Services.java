package io.isowatch.cli;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.history.ReadingSplit;
import io.isowatch.core.format.WriteReport;
import io.isowatch.core.history.History;
import io.isowatch.core.online.InOrderFeed;
import io.isowatch.core.online.OnlineChecker;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.util.function.Supplier;

/**
 * What the commands use from outside the CLI: history reading and writing, the checker, stdin and
 * whether stdout is a terminal. {@link #real()} binds the real ones; tests swap single parts.
 *
 * @param reader reads a history from a stream ({@link HistoryIO#read(InputStream, HistoryFormat)})
 * @param writer writes a history and reports what the format could not carry ({@link
 *     HistoryIO#writeWithReport})
 * @param engine checks a history ({@link OnlineChecker#check}, the one engine; tests swap in a
 *     stub to reach the exit codes)
 * @param stdin the stream a FILE of {@code -} stands for
 * @param colour whether the text report may use ANSI colours
 * @param readingCheck reads and checks a whole history in one pass ({@link InOrderFeed}: the
 *     same result as {@code engine} on what {@code reader} reads), or null: then {@code check} reads
 *     with {@code reader}, then checks with {@code engine}. Swapping the reader or the engine drops it.
 */
public record Services(HistoryReader reader, HistoryWriter writer, CheckEngine engine, Supplier<InputStream> stdin,
    boolean colour, ReadingCheck readingCheck) {

  /** Services without a one-pass check: {@code check} reads with {@code reader}, then checks with {@code engine}. */
  public Services(final HistoryReader reader, final HistoryWriter writer, final CheckEngine engine,
      final Supplier<InputStream> stdin, final boolean colour) {
    this(reader, writer, engine, stdin, colour, null);
  }

  /** Reads a history in a format from a stream, which it consumes but does not close. */
  @FunctionalInterface
  public interface HistoryReader {
    History read(InputStream in, HistoryFormat format) throws IOException, InvalidHistoryException;
  }

  /** Writes a history in a writable format; returns what the format could not carry. */
  @FunctionalInterface
  public interface HistoryWriter {
    WriteReport write(History history, HistoryFormat format, Writer out) throws IOException;
  }

  /** Checks a history. */
  @FunctionalInterface
  public interface CheckEngine {
    CheckResult check(History history, CheckOptions options);
  }

  /**
   * Reads a history from a stream, which it consumes but does not close, and checks it whole; {@code
   * expected} is about how many transactions it holds (sizes tables; any value gives the same result).
   */
  @FunctionalInterface
  public interface ReadingCheck {
    CheckResult check(InputStream in, HistoryFormat format, CheckOptions options, int expected)
        throws IOException, InvalidHistoryException;
  }

  /** The real services; colours only when stdout is a terminal and NO_COLOR is unset. */
  public static Services real() {
    return new Services(
        HistoryIO::read,
        HistoryIO::writeWithReport,
        // The online engine in canonical order, then flushed: the same anomalies the streaming
        // checker publishes for this history (docs/streaming-design.md).
        OnlineChecker::check,
        () -> System.in,
        System.console() != null && System.getenv("NO_COLOR") == null,
        // The same check, the engine fed while the reader thread parses (a JSONL file nearly in π
        // order); -Disowatch.check.while-reading=false reads first, then checks.
        !Boolean.parseBoolean(System.getProperty("isowatch.check.while-reading", "true")) ? null
            : (in, format, options, expected) -> {
          final InOrderFeed feed = new InOrderFeed(options, expected);
          // Split: the reader thread parses, collects and orders; this one only runs the engine.
          return feed.finish(HistoryIO.read(in, format, (ReadingSplit) feed));
        });
  }

  public Services withReader(final HistoryReader r) {
    return new Services(r, writer, engine, stdin, colour);
  }

  public Services withWriter(final HistoryWriter w) {
    return new Services(reader, w, engine, stdin, colour, readingCheck);
  }

  public Services withEngine(final CheckEngine e) {
    return new Services(reader, writer, e, stdin, colour);
  }

  public Services withStdin(final Supplier<InputStream> in) {
    return new Services(reader, writer, engine, in, colour, readingCheck);
  }
}
