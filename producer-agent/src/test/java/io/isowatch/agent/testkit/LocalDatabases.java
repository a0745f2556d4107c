package io.isowatch.agent.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The PostgreSQL and MariaDB the integration tests run against: the server a URL names ({@link
 * DatabaseUrl}: {@code ISOWATCH_TEST_POSTGRES_URL}, {@code ISOWATCH_TEST_MARIADB_URL}, or the
 * system properties), else a real server embedded in the test JVM ({@link EmbeddedPostgresServer},
 * {@link EmbeddedMariaDbServer}), so that {@code mvn verify} needs no local service. A configured
 * server that does not answer fails the test with how to start it or drop the URL: it never skips.
 */
public final class LocalDatabases {
  private static final Logger LOG = LoggerFactory.getLogger(LocalDatabases.class);

  private LocalDatabases() {}

  /** The PostgreSQL URL of this run, starting the embedded server on first use if none is configured. */
  public static String postgresUrl() {
    return resolve(DatabaseUrl.POSTGRES, EmbeddedPostgresServer::url);
  }

  /** The MariaDB URL of this run, starting the embedded server on first use if none is configured. */
  public static String mariaDbUrl() {
    return resolve(DatabaseUrl.MARIADB, EmbeddedMariaDbServer::url);
  }

  public static void requirePostgres() {
    require(DatabaseUrl.POSTGRES, postgresUrl(),
        "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start");
  }

  public static void requireMariaDb() {
    require(DatabaseUrl.MARIADB, mariaDbUrl(),
        "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd");
  }

  /** A table name no other run uses, so that parallel builds on one machine do not collide. */
  public static String uniqueTable(final String prefix) {
    return prefix + "_" + Long.toHexString(System.nanoTime() ^ (ProcessHandle.current().pid() << 40));
  }

  public static void dropTable(final String url, final String table) throws SQLException {
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS " + table);
    }
  }

  private static String resolve(final DatabaseUrl setting, final Supplier<String> embedded) {
    return setting.configured().orElseGet(embedded);
  }

  private static void require(final DatabaseUrl setting, final String url, final String start) {
    final boolean configured = setting.configured().isPresent();
    final String remedy = configured
        ? "start it (on this project's machines: " + start + "), or unset " + setting.names()
            + " to let the tests start an embedded " + setting.name()
        : "the embedded server should have answered; see the log above";
    try (Connection c = DriverManager.getConnection(url)) {
      if (!c.isValid(5)) {
        fail(setting.name() + " at " + url + " does not answer; " + remedy);
      }
      LOG.info("{} for the integration tests: {} server {} at url=[{}]", setting.name(),
          configured ? "configured" : "embedded", c.getMetaData().getDatabaseProductVersion(), url);
    } catch (final SQLException e) {
      fail(setting.name() + " is not reachable at " + url + " (" + e.getMessage() + "); " + remedy);
    }
  }
}
