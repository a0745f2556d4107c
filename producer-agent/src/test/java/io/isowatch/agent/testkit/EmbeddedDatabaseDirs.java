package io.isowatch.agent.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded servers keep their files under the module's {@code target/embedded-databases/}, in
 * a directory per server kind and test JVM ({@code postgres-<pid>}), so that {@code mvn clean}
 * removes them and two JVMs never share a data directory. Directories of JVMs that no longer run
 * (killed before their shutdown hooks) are removed when the next one starts; a JVM that exits
 * normally stops its servers and removes its own (the MariaDB binaries alone take ~450 MB).
 */
final class EmbeddedDatabaseDirs {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabaseDirs.class);
  static final Path ROOT = Path.of("target", "embedded-databases").toAbsolutePath();

  private EmbeddedDatabaseDirs() {}

  /** An empty directory for {@code kind} in this JVM, after removing those of dead JVMs. */
  static Path fresh(final String kind) {
    try {
      Files.createDirectories(ROOT);
      try (DirectoryStream<Path> dirs = Files.newDirectoryStream(ROOT, kind + "-*")) {
        for (final Path dir : dirs) {
          final OptionalLong pid = pidOf(kind, dir);
          if (pid.isEmpty() || ProcessHandle.of(pid.getAsLong()).map(ProcessHandle::isAlive).orElse(false)) {
            continue;
          }
          delete(dir);
        }
      }
      final Path mine = ROOT.resolve(kind + "-" + ProcessHandle.current().pid());
      delete(mine);
      return Files.createDirectories(mine);
    } catch (final IOException e) {
      throw new UncheckedIOException("cannot prepare " + ROOT + " for the embedded " + kind, e);
    }
  }

  /** A server's stop action. */
  interface Stop {
    void stop() throws Exception;
  }

  /** At JVM exit, stops the server and then removes its directory (in one hook: in that order). */
  static void stopAtExit(final String kind, final Path dir, final Stop stop) {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        stop.stop();
        delete(dir);
      } catch (final Exception e) {
        // Too late to fail a test; the next JVM removes the directory of this dead one.
        LOG.warn("stopping the embedded {} or removing dir=[{}] failed", kind, dir, e);
      }
    }, "stop-embedded-" + kind));
  }

  /** Removes {@code dir} and everything in it; nothing if it does not exist. */
  static void delete(final Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (final Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static OptionalLong pidOf(final String kind, final Path dir) {
    final String suffix = dir.getFileName().toString().substring(kind.length() + 1);
    return suffix.matches("\\d{1,18}") ? OptionalLong.of(Long.parseLong(suffix)) : OptionalLong.empty();
  }
}
