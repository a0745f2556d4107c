package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.testkit.ResultFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isowatch check --promise DB:LEVEL} on the real checker: the report separates a broken
 * promise from "weaker than X but allowed", in text and JSON, and the exit code follows the promise.
 */
class CheckPromiseTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String LOST_UPDATE = "T1 s1 r(x,0) w(x,1)\nT2 s2 r(x,0) w(x,2)\n";

  @TempDir Path tmp;

  private CliRun check(final String dsl, final String... options) throws Exception {
    return CliRun.checkDsl(tmp, dsl, options);
  }

  @Test
  void shouldExit0AndSayAllowedWhenReadCommittedIsPromisedAndAnUpdateIsLost() throws Exception {
    // When
    final CliRun run = check(LOST_UPDATE, "--promise", "postgres:read-committed");
    // Then: RC holds; SI and SER are violated, which read committed allows
    assertEquals(0, run.exit(), run.out() + run.err());
    assertTrue(run.out().contains("  RC    SATISFIED\n"), run.out());
    assertTrue(run.out().contains("Promise postgres:read-committed (PostgreSQL READ COMMITTED): KEPT"), run.out());
    assertTrue(run.out().contains("  weaker than SI but allowed: SI, SER VIOLATED\n"), run.out());
    assertTrue(run.out().contains("LostUpdate (G-single) violates SSER, SER, SI  [allowed by the promise]"), run.out());
  }

  @Test
  void shouldExit1AndSayPromiseBrokenWhenRepeatableReadIsPromisedAndAnUpdateIsLost() throws Exception {
    // When
    final CliRun run = check(LOST_UPDATE, "--promise", "postgres:repeatable-read");
    // Then
    assertEquals(1, run.exit(), run.out() + run.err());
    assertTrue(run.out().contains("(PostgreSQL REPEATABLE READ): BROKEN\n"), run.out());
    assertTrue(run.out().contains("  PROMISE BROKEN: SI VIOLATED\n"), run.out());
    assertTrue(run.out().contains("[PROMISE BROKEN]"), run.out());
  }

  @Test
  void shouldAddThePromiseToTheJsonDocumentWhenAskedForJson() throws Exception {
    // When
    final CliRun run = check(LOST_UPDATE, "--json", "--promise", "postgres:read-committed");
    // Then
    assertEquals(0, run.exit(), run.err());
    final JsonNode json = MAPPER.readTree(run.out());
    assertEquals(MAPPER.readTree("[\"PL2\",\"RC\",\"RA\",\"SI\",\"SER\"]"), json.get("levelOrder"));
    final JsonNode p = json.get("promise");
    assertEquals("KEPT", p.get("outcome").asText());
    assertEquals(MAPPER.readTree("[\"RC\",\"PL2\"]"), p.get("promised"));
    assertEquals(MAPPER.readTree("[\"SER\",\"SI\"]"), p.get("allowed"));
    assertEquals("SI", p.get("weakerThan").asText());
    for (final JsonNode a : json.get("anomalies")) {
      assertFalse(a.get("breaksPromise").asBoolean(), a.toString());
    }
  }

  @Test
  void shouldKeepTheDocumentAndExitCodeOfBeforeWhenNoPromiseIsGiven() throws Exception {
    // When
    final CliRun run = check(LOST_UPDATE, "--json");
    // Then
    assertEquals(1, run.exit());
    final JsonNode json = MAPPER.readTree(run.out());
    assertFalse(json.has("promise"));
    assertFalse(json.get("anomalies").get(0).has("breaksPromise"));
  }

  @Test
  void shouldKeepTheRepeatableReadPromiseWhenMariadbReadsItsSnapshotAfterAnUpdateAsInnodbDocuments() throws Exception {
    for (final String promise : new String[] {"mariadb:repeatable-read", "mysql:repeatable-read"}) {
      // When: the golden case MariaDB 10.11 produced (RC VIOLATED, PL2 SATISFIED)
      final CliRun run = check(corpus("mariadb-rr-update-then-read"), "--promise", promise);
      // Then: RC is outside the promise, so the violation is allowed and the exit code is 0
      assertEquals(0, run.exit(), run.out() + run.err());
      assertTrue(run.out().contains("  RC    VIOLATED\n"), run.out());
      assertTrue(run.out().contains("  PL2   SATISFIED\n"), run.out());
      assertTrue(run.out().contains("Promise " + promise + " ("), run.out());
      assertTrue(run.out().contains("REPEATABLE READ (the default)): KEPT"), run.out());
      assertTrue(run.out().contains("  weaker than RC but allowed: "), run.out());
      assertFalse(run.out().contains("PROMISE BROKEN"), run.out());
    }
  }

  @Test
  void shouldBreakTheRepeatableReadPromiseWhenMariadbReadsAnAbortedAppend() throws Exception {
    // When: G1a, an aborted read, which InnoDB's REPEATABLE READ prevents
    final CliRun run = check(corpus("elle-g1a"), "--promise", "mariadb:repeatable-read");
    // Then
    assertEquals(1, run.exit(), run.out() + run.err());
    assertTrue(run.out().contains("(MariaDB REPEATABLE READ (the default)): BROKEN\n"), run.out());
    assertTrue(run.out().contains("  PROMISE BROKEN: PL2"), run.out());
  }

  private static String corpus(final String name) throws Exception {
    return Files.readString(CliRun.REPO_ROOT.resolve("core/src/test/resources/corpus/list-append/" + name + ".hist"));
  }

  @Test
  void shouldCheckTheGivenLevelsAndThePromisedOnesWhenBothAreGiven() throws Exception {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.satisfied(Level.CLASSIC));
    final Path file = Files.writeString(tmp.resolve("h"), LOST_UPDATE);
    // When
    CliRun.run(fake.services(), "check", "--levels", "SER", "--promise", "mysql:repeatable-read", file.toString());
    CliRun.run(fake.services(), "check", "--promise", "mysql:repeatable-read", file.toString());
    // Then: with --levels the promised levels are added; without, the promise says what to check
    assertEquals(EnumSet.of(Level.PL2, Level.SER), fake.options.get(0).levels());
    assertEquals(EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.SI, Level.RR, Level.SER), fake.options.get(1).levels());
  }

  @Test
  void shouldExit1WhenAPromisedLevelIsUnknownAndNoneIsViolated() throws Exception {
    // Given: SI undecided, SER violated (allowed by a promise of SI)
    final CheckResult r = new CheckResult(Map.of(Level.SI, Verdict.UNKNOWN, Level.SER, Verdict.VIOLATED),
        Map.of(Level.SI, "blind writes"), List.of(), List.of(), ResultFixtures.lostUpdate().stats());
    final CliRun.Fake fake = new CliRun.Fake().answering(r);
    final Path file = Files.writeString(tmp.resolve("h"), LOST_UPDATE);
    // When
    final CliRun run = CliRun.run(fake.services(), "check", "--promise", "SI", file.toString());
    // Then
    assertEquals(1, run.exit(), run.out());
    assertTrue(run.out().contains("  promise undecided: SI UNKNOWN\n"), run.out());
  }

  @Test
  void shouldExit0WhenOnlyLevelsOutsideThePromiseAreViolated() throws Exception {
    // Given: SER violated, SI satisfied, a promise of Oracle SERIALIZABLE (snapshot isolation)
    final CheckResult r = new CheckResult(Map.of(Level.SI, Verdict.SATISFIED, Level.SER, Verdict.VIOLATED),
        Map.of(), List.of(), List.of(), ResultFixtures.lostUpdate().stats());
    final CliRun.Fake fake = new CliRun.Fake().answering(r);
    final Path file = Files.writeString(tmp.resolve("h"), LOST_UPDATE);
    // When
    final CliRun run = CliRun.run(fake.services(), "check", "--promise", "oracle:serializable", file.toString());
    // Then
    assertEquals(0, run.exit(), run.out());
    assertTrue(run.out().contains("  weaker than SER but allowed: SER VIOLATED\n"), run.out());
    assertTrue(run.out().contains("    SER is not promised: write skew"), run.out());
  }

  @Test
  void shouldExit2NamingTheKnownDatabasesWhenThePromiseIsUnknown() throws Exception {
    // When
    final CliRun run = check(LOST_UPDATE, "--promise", "db2:serializable");
    // Then
    assertEquals(2, run.exit());
    assertTrue(run.err().contains("unknown database 'db2'") && run.err().contains("postgres"), run.err());
    assertEquals("", run.out());
  }
}
