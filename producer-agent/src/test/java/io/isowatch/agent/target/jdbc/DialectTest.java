package io.isowatch.agent.target.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.target.TargetException.Failure;
import io.isowatch.agent.target.Targets;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DialectTest {
  @Test
  void shouldRecogniseTheDatabaseFromTheUrl() {
    // Given / When / Then
    assertEquals(Dialect.POSTGRESQL, Dialect.of("jdbc:postgresql://127.0.0.1:5432/test"));
    assertEquals(Dialect.MARIADB, Dialect.of("jdbc:mariadb://127.0.0.1:3306/test?sslMode=disable"));
    assertEquals(Dialect.MARIADB, Dialect.of("jdbc:mysql://127.0.0.1:3306/test"));
    assertEquals(Dialect.H2, Dialect.of("jdbc:h2:mem:x"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Dialect.of("jdbc:oracle:thin:@x"))
        .getMessage().contains("supported: jdbc:postgresql:, jdbc:mariadb:, jdbc:h2:"));
  }

  @Test
  void shouldClassifySerializationFailuresAndDeadlocksAsAborted() {
    // Given / When / Then
    assertEquals(Failure.ABORTED, Dialect.POSTGRESQL.classify(new SQLException("x", "40001"), null, "c").failure());
    assertEquals(Failure.ABORTED, Dialect.POSTGRESQL.classify(new SQLException("x", "40P01"), null, "c").failure());
    assertEquals(Failure.ABORTED, Dialect.MARIADB.classify(new SQLException("deadlock", "40001", 1213), null, "c").failure());
    assertEquals("1205", Dialect.MARIADB.classify(new SQLException("lock wait", "HY000", 1205), null, "c").code());
    assertEquals(Failure.ABORTED, Dialect.H2.classify(new SQLException("concurrent", "90131", 90131), null, "c").failure());
  }

  @Test
  void shouldClassifyLostConnectionsAndOtherErrors() {
    // Given / When / Then
    assertEquals(Failure.CONNECTION, Dialect.POSTGRESQL.classify(new SQLException("reset", "08006"), null, "c").failure());
    assertEquals(Failure.CONNECTION,
        Dialect.POSTGRESQL.classify(new SQLException("terminating connection", "57P01"), null, "c").failure());
    assertEquals(Failure.CONNECTION,
        Dialect.MARIADB.classify(new SQLTransientConnectionException("gone", "HY000"), null, "c").failure());
    assertEquals(Failure.ERROR, Dialect.POSTGRESQL.classify(new SQLException("no table", "42P01"), null, "c").failure());
    assertEquals(Failure.ERROR, Dialect.MARIADB.classify(new SQLException("dup", "23000", 1062), null, "c").failure());
  }

  @Test
  void shouldRejectSnapshotIsolationOutsideH2WithAClearMessage() {
    // Given / When
    final IllegalArgumentException pg = assertThrows(IllegalArgumentException.class, () -> Targets.create(
        "jdbc:postgresql://127.0.0.1:5432/test", IsolationLevel.SNAPSHOT, "kv", Duration.ofSeconds(5), 1));
    final IllegalArgumentException maria = assertThrows(IllegalArgumentException.class, () -> Targets.create(
        "jdbc:mariadb://127.0.0.1:3306/test", IsolationLevel.SNAPSHOT, "kv", Duration.ofSeconds(5), 1));

    // Then
    assertTrue(pg.getMessage().contains("snapshot is not supported by postgresql"), pg.getMessage());
    assertTrue(pg.getMessage().contains("repeatable-read is snapshot isolation"), pg.getMessage());
    assertTrue(maria.getMessage().contains("snapshot is not supported by mariadb"), maria.getMessage());
  }

  @Test
  void shouldHidePasswordsInDescriptions() {
    // Given / When / Then
    assertEquals("jdbc:postgresql://h/db?user=a&password=***&x=1",
        JdbcUrls.redact("jdbc:postgresql://h/db?user=a&password=secret&x=1"));
    assertEquals("jdbc:mariadb://bob:***@h/db", JdbcUrls.redact("jdbc:mariadb://bob:pw@h/db"));
  }

  @Test
  void shouldRejectUnknownTargetsAndUnsafeTableNames() {
    // Given / When / Then
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Targets.create("mongo://x",
        IsolationLevel.SERIALIZABLE, "kv", Duration.ofSeconds(5), 1)).getMessage().contains("unknown target"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Targets.create("h2",
        IsolationLevel.SERIALIZABLE, "kv; drop table x", Duration.ofSeconds(5), 1)).getMessage().contains("bad table name"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Targets.create("faulty:lostupdate=0.1",
        IsolationLevel.READ_COMMITTED, "kv", Duration.ofSeconds(5), 1)).getMessage().contains("serializable by construction"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Targets.create("faulty:typo=0.1",
        IsolationLevel.SERIALIZABLE, "kv", Duration.ofSeconds(5), 1)).getMessage().contains("unknown fault 'typo'"));
  }
}
