package io.isowatch.cli;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.InputLimits;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.history.History;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads the FILE argument of a command, {@code -} meaning stdin, and turns every way that can fail
 * into a one-line {@link CliFailure} that names the file and, when known, the line.
 */
final class HistoryInput {
  static final String STDIN = "-";

  private HistoryInput() {}

  static History read(final String file, final HistoryFormat format, final Services services) {
    return withInput(file, services, (in, name, path) -> read(in, format, services, name));
  }

  /**
   * Reads and checks a whole history in one pass ({@link Services#readingCheck()}, not null), failing
   * as {@link #read(String, HistoryFormat, Services)} does on what cannot be read.
   */
  static CheckResult check(final String file, final HistoryFormat format, final Services services,
      final CheckOptions options) {
    return withInput(file, services, (in, name, path) -> {
      try {
        return services.readingCheck().check(in, format, options, path == null ? 0 : expectedTransactions(path));
      } catch (final InvalidHistoryException e) {
        throw new CliFailure(name + ": " + e.getMessage());
      }
    });
  }

  /** What a command does with its FILE argument, once open; {@code path} is null for stdin. */
  private interface Reading<T> {
    T from(InputStream in, String name, Path path) throws IOException;
  }

  /**
   * Opens the FILE argument ({@code -}: stdin) and hands it to {@code reading}, turning a file that
   * cannot be opened or read into a one-line {@link CliFailure} that names it.
   */
  private static <T> T withInput(final String file, final Services services, final Reading<T> reading) {
    limits();
    final String name = displayName(file);
    final Path path = STDIN.equals(file) ? null : Path.of(file);
    if (path != null) {
      requireReadableFile(path, name);
    }
    try (InputStream in = path == null ? services.stdin().get() : Files.newInputStream(path)) {
      return reading.from(in, name, path);
    } catch (final IOException e) {
      throw new CliFailure("cannot read " + name + ": " + e.getMessage());
    }
  }

  /**
   * About how many transactions a file holds, from its size (a generated JSONL line of a few ops is
   * ~205 bytes; an estimate a little high costs less than the engine's tables grown by copying).
   */
  private static int expectedTransactions(final Path file) throws IOException {
    return (int) Math.min(1 << 24, Files.size(file) / 192);
  }

  /** Reads a whole history from {@code in}, already open; {@code name} is the input's name in messages. */
  static History read(final InputStream in, final HistoryFormat format, final Services services, final String name) {
    limits();
    try {
      return services.reader().read(in, format);
    } catch (final InvalidHistoryException e) {
      // The exception's message already starts with "line N: " when the line is known.
      throw new CliFailure(name + ": " + e.getMessage());
    } catch (final IOException e) {
      throw new CliFailure("cannot read " + name + ": " + e.getMessage());
    }
  }

  /**
   * The readers' input limits ({@link InputLimits#defaults}); a limit set to something else than a
   * positive integer (-Disowatch.input.max-depth=x) is a usage error, not a bug.
   */
  static InputLimits limits() {
    try {
      return InputLimits.defaults();
    } catch (final IllegalArgumentException e) {
      throw new CliFailure(e.getMessage());
    }
  }

  /** The name messages use for the FILE argument. */
  static String displayName(final String file) {
    return STDIN.equals(file) ? "<stdin>" : file;
  }

  // Checked here rather than left to the I/O exception, whose message is only the path.
  private static void requireReadableFile(final Path path, final String name) {
    if (!Files.exists(path)) {
      throw new CliFailure("cannot read " + name + ": no such file");
    }
    if (Files.isDirectory(path)) {
      throw new CliFailure("cannot read " + name + ": it is a directory");
    }
    if (!Files.isReadable(path)) {
      throw new CliFailure("cannot read " + name + ": permission denied");
    }
  }
}
