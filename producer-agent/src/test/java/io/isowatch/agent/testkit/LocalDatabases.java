package io.isowatch.agent.testkit;

import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The local PostgreSQL and MariaDB the integration tests run against (started on every machine
 * of the project's kind; see RECIPES). An unreachable database fails the test with the command
 * that starts it: it never skips, since CI runs with both up.
 */
public final class LocalDatabases {
  public static final String POSTGRES_URL = System.getProperty("isowatch.it.postgres",
      "jdbc:postgresql://127.0.0.1:5432/test");
  public static final String MARIADB_URL = System.getProperty("isowatch.it.mariadb",
      "jdbc:mariadb://127.0.0.1:3306/test?sslMode=disable");

  private LocalDatabases() {}

  public static void requirePostgres() {
    require(POSTGRES_URL, "PostgreSQL",
        "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start");
  }

  public static void requireMariaDb() {
    require(MARIADB_URL, "MariaDB", "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd");
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

  private static void require(final String url, final String name, final String start) {
    try (Connection c = DriverManager.getConnection(url)) {
      if (!c.isValid(5)) {
        fail(name + " at " + url + " does not answer; start it with: " + start);
      }
    } catch (final SQLException e) {
      fail(name + " is not reachable at " + url + " (" + e.getMessage() + "); the integration tests need it: start it with: "
          + start);
    }
  }
}
