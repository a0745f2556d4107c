package io.isowatch.core.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Level;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class DatabaseProfilesTest {
  @Test
  void shouldPromiseRcButNotSiWhenPostgresRunsReadCommitted() {
    // When
    final Promise p = DatabaseProfiles.parse("postgres:read-committed");
    // Then: RC and what it implies; lost updates and read skew are documented as not prevented
    assertEquals(EnumSet.of(Level.PL2, Level.RC), p.promised());
    assertTrue(p.notGiven().containsKey(Level.SI) && p.notGiven().get(Level.SI).contains("lost update"), p.toString());
    assertTrue(p.notGiven().containsKey(Level.RA), p.toString());
    assertTrue(p.sources().stream().anyMatch(s -> s.contains("Hermitage")), p.sources().toString());
  }

  @Test
  void shouldPromiseSiButNotAdyaRepeatableReadWhenPostgresRunsRepeatableRead() {
    // When
    final Promise p = DatabaseProfiles.parse("PostgreSQL:REPEATABLE_READ");
    // Then: snapshot isolation, which implies PC and below, not PL-2.99 (write skew)
    assertEquals(EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.CC, Level.PC, Level.SI), p.promised());
    assertFalse(p.promised().contains(Level.RR));
    assertTrue(p.notGiven().get(Level.RR).contains("write skew"), p.notGiven().toString());
    assertTrue(p.sources().stream().anyMatch(s -> s.contains("Jepsen, \"PostgreSQL 12.3\"")), p.sources().toString());
  }

  @Test
  void shouldPromiseAdyaPl2NotRcWhenMysqlOrMariadbRunsRepeatableRead() {
    for (final String spec : new String[] {"mysql:repeatable-read", "mariadb:repeatable read"}) {
      // When
      final Promise p = DatabaseProfiles.parse(spec);
      // Then: PL-2 only; RC is documented as not given (a read after an update, "Consistent Nonlocking Reads")
      assertEquals(EnumSet.of(Level.PL2), p.promised());
      assertTrue(p.notGiven().get(Level.RC).contains("Consistent Nonlocking Reads"), spec);
      assertTrue(p.notGiven().get(Level.SI).contains("lost update"), spec);
      assertTrue(p.sources().stream().anyMatch(s -> s.contains("Consistent Nonlocking Reads")), p.sources().toString());
      assertTrue(p.note().contains("Jepsen"), p.note());
    }
    assertEquals(Promise.Certainty.DOCUMENTED, DatabaseProfiles.parse("mysql:repeatable-read").certainty());
    assertEquals(Promise.Certainty.UNCERTAIN, DatabaseProfiles.parse("mariadb:repeatable-read").certainty());
  }

  @Test
  void shouldPromiseSnapshotIsolationNotSerializabilityWhenOracleRunsSerializable() {
    // When
    final Promise p = DatabaseProfiles.parse("oracle:serializable");
    // Then
    assertTrue(p.promised().contains(Level.SI));
    assertFalse(p.promised().contains(Level.SER));
    assertTrue(p.notGiven().containsKey(Level.SER));
  }

  @Test
  void shouldKnowEveryDocumentedDatabaseByItsAliases() {
    // Then
    assertEquals(EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.CC, Level.PC, Level.SI, Level.RR, Level.SER),
        DatabaseProfiles.parse("pg:serializable").promised());
    assertEquals(DatabaseProfiles.parse("mssql:snapshot"), DatabaseProfiles.parse("sqlserver:snapshot"));
    assertEquals(DatabaseProfiles.parse("crdb:serializable"), DatabaseProfiles.parse("cockroachdb:serializable"));
    assertEquals(DatabaseProfiles.parse("yb:repeatable-read"), DatabaseProfiles.parse("yugabytedb:repeatable-read"));
    assertTrue(DatabaseProfiles.parse("tidb:repeatable-read").promised().contains(Level.SI));
    assertTrue(DatabaseProfiles.parse("sqlite:serializable").promised().contains(Level.SER));
    assertTrue(DatabaseProfiles.parse("h2:snapshot").promised().contains(Level.SI));
    assertTrue(DatabaseProfiles.parse("mysql:read-uncommitted").promised().isEmpty());
  }

  @Test
  void shouldCiteAtLeastOneSourceAndPromiseOnlyWhatItDoesNotDenyForEveryEntry() {
    for (final Promise p : DatabaseProfiles.all()) {
      // Then: every entry has a source, and no level is both promised and documented as not given
      assertFalse(p.sources().isEmpty(), p.spec());
      for (final Level l : p.notGiven().keySet()) {
        assertFalse(p.promised().contains(l), p.spec() + " promises " + l + " and says it is not given");
      }
      assertEquals(p, DatabaseProfiles.parse(p.spec()), p.spec());
    }
  }

  @Test
  void shouldTakeABareLevelAsThePromiseOfThatLevel() {
    // When
    final Promise p = DatabaseProfiles.parse("SI");
    // Then
    assertEquals(EnumSet.of(Level.SI), p.guarantees());
    assertTrue(p.promised().contains(Level.RC));
  }

  @Test
  void shouldNameWhatIsKnownWhenTheDatabaseOrLevelIsUnknown() {
    // When / Then
    final IllegalArgumentException db = assertThrows(IllegalArgumentException.class,
        () -> DatabaseProfiles.parse("db2:serializable"));
    assertTrue(db.getMessage().contains("postgres") && db.getMessage().contains("mariadb"), db.getMessage());
    final IllegalArgumentException level = assertThrows(IllegalArgumentException.class,
        () -> DatabaseProfiles.parse("postgres:snapshot"));
    assertTrue(level.getMessage().contains("repeatable-read"), level.getMessage());
    assertThrows(IllegalArgumentException.class, () -> DatabaseProfiles.parse("nonsense"));
  }

  @Test
  void shouldCheckThePromiseTheLevelsItDeniesAndSiAndSerWhenAskedWhatToCheck() {
    // When
    final Promise p = DatabaseProfiles.parse("postgres:read-committed");
    // Then
    assertEquals(EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.SI, Level.SER), p.levelsToCheck());
  }
}
