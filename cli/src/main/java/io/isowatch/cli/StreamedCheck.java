package io.isowatch.cli;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.InputLimits;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.format.JsonlReadAhead;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.online.OnlineOptions;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code isowatch check} with a horizon (docs/segmentation.md): the history goes through the
 * segmented online engine as a stream, in file order, with a grace period, then a flush, as the
 * streaming checker would see it. A JSONL file, or JSONL on stdin, is read line by line, so memory is
 * bounded by the horizon, not by the input; other formats (and gzip) are parsed whole first.
 */
final class StreamedCheck {
  private static final int BUFFER_CHARS = 1 << 16;

  private StreamedCheck() {}

  static CheckResult run(final String file, final HistoryFormat format, final Services services,
      final CheckOptions options, final OnlineOptions online, final String graceText) {
    final CheckResult result;
    try (GraceBudget budget = GraceBudget.watchingThisJvm(online.graceMicros(), graceText, online.horizon())) {
      result = run(file, format, services, options, online, budget);
    }
    Fatal.hint("");
    return result;
  }

  private static CheckResult run(final String file, final HistoryFormat format, final Services services,
      final CheckOptions options, final OnlineOptions online, final GraceBudget budget) {
    final OnlineChecker checker = new OnlineChecker(options, online);
    final String name = HistoryInput.displayName(file);
    if (HistoryInput.STDIN.equals(file)) {
      // A pipe is read once: peek at its start to choose, then stream JSONL as a file is streamed,
      // so `generate ... | check --horizon-txns N -` stays bounded by the horizon too.
      try (BufferedInputStream in = new BufferedInputStream(services.stdin().get(), BUFFER_CHARS)) {
        in.mark(BUFFER_CHARS);
        final boolean jsonl = format == HistoryFormat.JSONL
            || (format == HistoryFormat.AUTO && startsLikeJsonl(new InputStreamReader(in, StandardCharsets.UTF_8)));
        in.reset();
        if (jsonl) {
          streamJsonl(in, name, checker, budget);
        } else {
          acceptAll(HistoryInput.read(in, format, services, name), checker, budget, name);
        }
      } catch (final IOException e) {
        throw new CliFailure("cannot read " + name + ": " + e.getMessage());
      }
    } else if (format == HistoryFormat.JSONL
        || (format == HistoryFormat.AUTO && looksLikeJsonl(Path.of(file)))) {
      try (InputStream in = Files.newInputStream(Path.of(file))) {
        streamJsonl(in, name, checker, budget);
      } catch (final IOException e) {
        throw new CliFailure("cannot read " + name + ": " + e.getMessage());
      }
    } else {
      acceptAll(HistoryInput.read(file, format, services), checker, budget, name);
    }
    checker.flush();
    return checker.result();
  }

  private static void streamJsonl(final InputStream raw, final String name, final OnlineChecker checker,
      final GraceBudget budget) throws IOException {
    final InputLimits limits = HistoryInput.limits();
    // Decoded as every reader decodes (HistoryIO): invalid UTF-8 becomes U+FFFD, not an I/O error.
    // Parsed on a thread of its own while this one checks (JsonlReadAhead): two cores, one stream.
    try (JsonlReadAhead lines = new JsonlReadAhead(new InputStreamReader(raw, StandardCharsets.UTF_8), limits)) {
      for (List<Transaction> batch = lines.next(); !batch.isEmpty(); batch = lines.next()) {
        for (final Transaction t : batch) {
          refuseListAppend(t, name);
          checker.accept(t);
          budget.accepted(t, name, t.line());
        }
      }
    } catch (final InvalidHistoryException e) {
      throw new CliFailure(name + ": " + e.getMessage());
    }
  }

  private static void acceptAll(final History history, final OnlineChecker checker, final GraceBudget budget,
      final String name) {
    for (final Transaction t : history.transactions()) {
      refuseListAppend(t, name);
      checker.accept(t);
      budget.accepted(t, name, t.line());
    }
  }

  /** A list-append history is invalid input for the segmented check (exit 2), not an internal error. */
  private static void refuseListAppend(final Transaction t, final String name) {
    if (io.isowatch.core.listappend.ListAppendCheck.isListAppend(t)) {
      throw new CliFailure(name + ": " + (t.line() > 0 ? "line " + t.line() + ": " : "")
          + io.isowatch.core.online.ListAppendOnlineChecker.refusedBySegmentedEngine(t));
    }
  }

  /** Whether the file starts with a JSON object with a string key (EDN maps start with '{:'). */
  private static boolean looksLikeJsonl(final Path path) {
    try (InputStream raw = Files.newInputStream(path)) {
      return startsLikeJsonl(new InputStreamReader(raw, StandardCharsets.UTF_8));
    } catch (final IOException e) {
      return false;
    }
  }

  /**
   * Whether the text starts with a JSON object with a string key, reading at most {@link
   * #BUFFER_CHARS} bytes' worth (what a marked stdin can be reset over; gzip never matches).
   */
  private static boolean startsLikeJsonl(final Reader text) throws IOException {
    boolean open = false;
    for (int read = 0; read < BUFFER_CHARS / 4; read++) {
      final int c = text.read();
      if (c < 0) {
        return false;
      }
      if (Character.isWhitespace(c)) {
        continue;
      }
      if (!open) {
        if (c != '{') {
          return false;
        }
        open = true;
      } else {
        return c == '"';
      }
    }
    return false;
  }
}
