package io.isowatch.cli;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.InputLimits;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.format.LineSource;
import io.isowatch.core.format.JsonlHistoryReader;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.online.OnlineOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code isowatch check} with a horizon (docs/segmentation.md): the history goes through the
 * segmented online engine as a stream, in file order, with a grace period, then a flush, as the
 * streaming checker would see it. A JSONL file is read line by line, so memory is bounded by the
 * horizon, not by the file; other formats are parsed whole first.
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
    if (!HistoryInput.STDIN.equals(file) && (format == HistoryFormat.JSONL
        || (format == HistoryFormat.AUTO && looksLikeJsonl(Path.of(file))))) {
      final InputLimits limits = HistoryInput.limits();
      final JsonlHistoryReader reader = new JsonlHistoryReader(limits);
      // Decoded as every reader decodes (HistoryIO): invalid UTF-8 becomes U+FFFD, not an I/O error.
      try (InputStreamReader in = new InputStreamReader(Files.newInputStream(Path.of(file)), StandardCharsets.UTF_8)) {
        final LineSource lines = new LineSource(in, limits);
        String line;
        while ((line = lines.next()) != null) {
          if (!line.isBlank()) {
            final Transaction t = reader.parseLine(line, lines.lineNo());
            checker.accept(t);
            budget.accepted(t, name, lines.lineNo());
          }
        }
      } catch (final InvalidHistoryException e) {
        throw new CliFailure(name + ": " + e.getMessage());
      } catch (final IOException e) {
        throw new CliFailure("cannot read " + name + ": " + e.getMessage());
      }
    } else {
      final History history = HistoryInput.read(file, format, services);
      for (final Transaction t : history.transactions()) {
        checker.accept(t);
        budget.accepted(t, name, t.line());
      }
    }
    checker.flush();
    return checker.result();
  }

  /** Whether the file starts with a JSON object with a string key (EDN maps start with '{:'). */
  private static boolean looksLikeJsonl(final Path path) {
    try (InputStream raw = Files.newInputStream(path);
        BufferedReader in = new BufferedReader(new InputStreamReader(raw, StandardCharsets.UTF_8), BUFFER_CHARS)) {
      int c;
      boolean open = false;
      while ((c = in.read()) >= 0) {
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
    } catch (final IOException e) {
      return false;
    }
  }
}
