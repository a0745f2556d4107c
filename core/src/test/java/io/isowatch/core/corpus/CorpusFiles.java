package io.isowatch.core.corpus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reading a golden corpus directory on the test class path: each case is {@code <name>.hist} with
 * {@code <name>.expected}, a {@code key=value} file where {@code #} starts a comment. Shared by the
 * corpus tests so that every corpus is listed, read and parsed the same way; what the keys mean
 * stays with each corpus.
 */
final class CorpusFiles {
  private CorpusFiles() {}

  /** The case names (the {@code .hist} files without extension) in {@code resource}, sorted. */
  static List<String> caseNames(final String resource) {
    try (Stream<Path> files = Files.list(dir(resource))) {
      return files.map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".hist"))
          .map(n -> n.substring(0, n.length() - ".hist".length()))
          .sorted()
          .toList();
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The UTF-8 text of {@code file} in {@code resource}. */
  static String read(final String resource, final String file) {
    try {
      return Files.readString(dir(resource).resolve(file), StandardCharsets.UTF_8);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The {@code key=value} pairs of an expected file's text, in file order; comments and blank lines
   * are skipped, and a line that is not {@code key=value} is an {@link IllegalArgumentException}
   * naming {@code name}.
   */
  static Map<String, String> keyValues(final String name, final String expected) {
    final Map<String, String> kv = new LinkedHashMap<>();
    for (final String raw : expected.split("\n")) {
      final String line = raw.replaceFirst("#.*", "").trim();
      if (line.isEmpty()) {
        continue;
      }
      final int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(name + ".expected: not key=value: " + line);
      }
      kv.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
    }
    return kv;
  }

  private static Path dir(final String resource) {
    try {
      return Path.of(CorpusFiles.class.getResource(resource).toURI());
    } catch (final URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
