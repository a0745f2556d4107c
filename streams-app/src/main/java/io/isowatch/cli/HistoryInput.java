package io.isowatch.cli;

import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.history.History;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Reads the FILE argument of a command, {@code -} meaning stdin, and turns every way that can fail
 * into a one-line {@link CliFailure} that names the file and, when known, the line.
 */
final class HistoryInput {
  static final String STDIN = "-";

  private HistoryInput() {}

  static History read(final String file, final HistoryFormat format, final Services services) {
    if (STDIN.equals(file)) {
      return readStdin(format, services);
    }
    // Checked here rather than left to each format reader, so that every format says it the same way.
    final Path path = Path.of(file);
    if (!Files.exists(path)) {
      throw new CliFailure("cannot read " + file + ": no such file");
    }
    if (Files.isDirectory(path)) {
      throw new CliFailure("cannot read " + file + ": it is a directory");
    }
    if (!Files.isReadable(path)) {
      throw new CliFailure("cannot read " + file + ": permission denied");
    }
    return read(path, file, format, services);
  }

  /** The name messages use for the FILE argument. */
  static String displayName(final String file) {
    return STDIN.equals(file) ? "<stdin>" : file;
  }

  private static History readStdin(final HistoryFormat format, final Services services) {
    // Format detection and line numbers work on files, so stdin is spooled to one first.
    Path tmp = null;
    try {
      tmp = Files.createTempFile("isowatch-stdin-", ".history");
      try (InputStream in = services.stdin().get()) {
        Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
      }
      return read(tmp, displayName(STDIN), format, services);
    } catch (final IOException e) {
      throw new CliFailure("cannot read <stdin>: " + e.getMessage());
    } finally {
      deleteQuietly(tmp);
    }
  }

  private static History read(final Path path, final String name, final HistoryFormat format, final Services services) {
    try {
      return services.reader().read(path, format);
    } catch (final InvalidHistoryException e) {
      // The exception's message already starts with "line N: " when the line is known.
      throw new CliFailure(name + ": " + e.getMessage());
    } catch (final IOException e) {
      throw new CliFailure("cannot read " + name + ": " + e.getMessage());
    }
  }

  private static void deleteQuietly(final Path tmp) {
    if (tmp == null) {
      return;
    }
    try {
      Files.deleteIfExists(tmp);
    } catch (final IOException e) {
      // A leftover temp file is harmless; the check's result matters more than this cleanup.
      tmp.toFile().deleteOnExit();
    }
  }
}
