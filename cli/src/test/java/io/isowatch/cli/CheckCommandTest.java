package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.report.DotWriter;
import io.isowatch.core.report.TextReport;
import io.isowatch.core.testkit.ResultFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class CheckCommandTest extends LostUpdateFixture {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void shouldPrintTheTextReportAndExit1WhenALevelIsViolated() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.lostUpdate());

    // When
    final CliRun run = CliRun.run(fake.services(), "check", history.toString());

    // Then
    assertEquals(1, run.exit(), run.err());
    assertEquals(new TextReport(false).render(ResultFixtures.lostUpdate()), run.out());
    assertEquals("", run.err());
    assertEquals(List.of("s1-3", "s2-7"), fake.histories.get(0).transactions().stream().map(Transaction::id).toList());
  }

  @Test
  void shouldPassDefaultOptionsWhenNoneAreGiven() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.satisfied(Level.CLASSIC));

    // When
    final CliRun run = CliRun.run(fake.services(), "check", history.toString());

    // Then
    assertEquals(0, run.exit(), run.err());
    assertEquals(List.of(CheckOptions.defaults()), fake.options);
    assertEquals(List.of(HistoryFormat.AUTO), fake.formatsRead);
  }

  @Test
  void shouldPassEveryOptionToTheCheckerAndExit0WhenAllRequestedLevelsAreSatisfied() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.satisfied(EnumSet.of(Level.SER, Level.SI)));

    // When
    final CliRun run = CliRun.run(fake.services(), "check", "--levels", "si,serializable", "--format", "elle",
        "--initial-value", "null", "--rt-skew-us", "250", "--max-anomalies", "5", history.toString());

    // Then
    assertEquals(0, run.exit(), run.err());
    assertEquals(List.of(new CheckOptions(EnumSet.of(Level.SER, Level.SI), null, 250, 5)), fake.options);
    assertEquals(List.of(HistoryFormat.ELLE), fake.formatsRead);
    assertTrue(run.out().startsWith("IsoWatch check: SATISFIED\n"), run.out());
  }

  @Test
  void shouldPassTheSolverBudgetWhenGivenAndTurnTheSearchOffAtZero() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.satisfied(EnumSet.of(Level.SER, Level.SI)));

    // When
    CliRun.run(fake.services(), "check", "--solver-budget", "250ms", history.toString());
    CliRun.run(fake.services(), "check", "--solver-budget", "0", history.toString());
    CliRun.run(fake.services(), "check", history.toString());

    // Then
    assertEquals(List.of(java.time.Duration.ofMillis(250), java.time.Duration.ZERO, CheckOptions.DEFAULT_SOLVER_BUDGET),
        fake.options.stream().map(CheckOptions::solverBudget).toList());
  }

  @Test
  void shouldExit1WhenALevelIsUnknownAndNoneIsViolated() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.unknown());

    // When
    final CliRun run = CliRun.run(fake.services(), "check", "--initial-value", "-7", history.toString());

    // Then
    assertEquals(1, run.exit());
    assertEquals(-7L, fake.options.get(0).initialValue());
    assertTrue(run.out().contains("  SI    UNKNOWN    (blind writes on y leave the version order open)\n"), run.out());
  }

  @Test
  void shouldPrintExactlyOneJsonDocumentWhenJsonIsGiven() throws Exception {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.lostUpdate());

    // When
    final CliRun run = CliRun.run(fake.services(), "check", "--json", history.toString());

    // Then
    assertEquals(1, run.exit(), run.err());
    final var parser = MAPPER.createParser(run.out());
    final JsonNode json = MAPPER.readTree(parser);
    assertNull(parser.nextToken(), "more than one JSON document on stdout");
    assertEquals(MAPPER.readTree("{\"SSER\":\"VIOLATED\",\"SER\":\"VIOLATED\",\"SI\":\"VIOLATED\"}"), json.get("verdicts"));
    assertEquals("LostUpdate", json.get("anomalies").get(0).get("name").asText());
    assertEquals(MAPPER.readTree("[\"SSER\",\"SER\",\"SI\"]"), json.get("anomalies").get(0).get("violates"));
    assertEquals(2, json.get("stats").get("transactions").asLong());
  }

  @Test
  void shouldNameTheLineOnStderrAndLeaveStdoutEmptyWhenTheHistoryIsInvalid() {
    // Given
    final Services services = new CliRun.Fake().answering(ResultFixtures.lostUpdate()).services()
        .withReader((in, format) -> {
          throw new InvalidHistoryException(3, "expected an object with \"ops\"");
        });

    for (final String[] args : List.of(new String[] {"check", history.toString()},
        new String[] {"check", "--json", history.toString()})) {
      // When
      final CliRun run = CliRun.run(services, args);

      // Then
      assertEquals(2, run.exit(), String.join(" ", args));
      assertEquals("", run.out(), String.join(" ", args));
      assertEquals("isowatch: " + history + ": line 3: expected an object with \"ops\"\n", run.err());
    }
  }

  @Test
  void shouldExit2WithOneLineWhenTheFileDoesNotExist() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.lostUpdate());
    final String missing = tmp.resolve("missing.jsonl").toString();

    // When
    final CliRun run = CliRun.run(fake.services(), "check", "--json", missing);

    // Then
    assertEquals(2, run.exit());
    assertEquals("", run.out());
    assertEquals("isowatch: cannot read " + missing + ": no such file\n", run.err());
    assertTrue(fake.options.isEmpty(), "the checker ran on a missing file");
  }

  @Test
  void shouldExit2WithOneLineWhenReadingFails() {
    // Given
    final Services services = new CliRun.Fake().answering(ResultFixtures.lostUpdate()).services()
        .withReader((in, format) -> {
          throw new IOException("Input/output error");
        });

    // When
    final CliRun run = CliRun.run(services, "check", history.toString());

    // Then
    assertEquals(2, run.exit());
    assertEquals("", run.out());
    assertEquals("isowatch: cannot read " + history + ": Input/output error\n", run.err());
  }

  @Test
  void shouldExit2WhenTheFileIsADirectory() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.lostUpdate());

    // When
    final CliRun run = CliRun.run(fake.services(), "check", tmp.toString());

    // Then
    assertEquals(2, run.exit());
    assertEquals("isowatch: cannot read " + tmp + ": it is a directory\n", run.err());
  }

  @Test
  void shouldExit2NamingTheLineWhenTheResultReportsInvalidInput() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.invalid());

    // When
    final CliRun run = CliRun.run(fake.services(), "check", "--json", history.toString());

    // Then
    assertEquals(2, run.exit());
    assertEquals("", run.out());
    assertEquals("isowatch: " + history + ": line 7: DUPLICATE_TXN_ID: two transactions share the id s1-3 (txns s1-3)\n",
        run.err());
  }

  @Test
  void shouldExit2WithUsageWhenAnOptionIsBad() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.lostUpdate());
    final String file = history.toString();
    final List<List<String>> cases = List.of(
        List.of("check", "--levels", "SSER,XC", file),
        List.of("check", "--format", "csv", file),
        List.of("check", "--initial-value", "zero", file),
        List.of("check", "--max-anomalies", "0", file),
        List.of("check", "--rt-skew-us", "-1", file),
        List.of("check", "--horizon-txns", "5", "--horizon-cut-factor", "1", file),
        List.of("check", "--no-such-option", file),
        List.of("check"));
    final List<String> reasons = List.of(
        "unknown level 'XC' (expected one of PL2, RC, RA, CC, PC, SI, RR, SER, SSER, MIXED)",
        "unknown format 'csv' (expected one of auto, jsonl, text, elle, aion)",
        "'zero' is neither an integer nor null",
        "--max-anomalies must be >= 1, got 0",
        "--rt-skew-us must be >= 0, got -1",
        "--horizon-cut-factor must be in [1.1, 64.0], got 1.0",
        "Unknown option: '--no-such-option'",
        "Missing required parameter: 'FILE'");

    for (int i = 0; i < cases.size(); i++) {
      // When
      final CliRun run = CliRun.run(fake.services(), cases.get(i).toArray(String[]::new));

      // Then
      assertEquals(2, run.exit(), cases.get(i).toString());
      assertEquals("", run.out(), cases.get(i).toString());
      assertTrue(run.err().contains(reasons.get(i)), cases.get(i) + " -> " + run.err());
      assertTrue(run.err().contains("Usage: isowatch check"), run.err());
    }
    assertTrue(fake.options.isEmpty(), "the checker ran despite a bad option");
  }

  @Test
  void shouldReadStdinWhenTheFileIsADash() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.lostUpdate())
        .withStdin("a s1 r(x,0) w(x,1)\nb s2 r(x,1)\n");

    // When
    final CliRun run = CliRun.run(fake.services(), "check", "-");

    // Then
    assertEquals(1, run.exit(), run.err());
    assertEquals(List.of("a", "b"), fake.histories.get(0).transactions().stream().map(Transaction::id).toList());
    assertEquals(2, fake.histories.get(0).transactions().get(1).line());
  }

  @Test
  void shouldCallStdinByNameWhenItIsInvalid() {
    // Given
    final Services services = new CliRun.Fake().answering(ResultFixtures.lostUpdate()).withStdin("x").services()
        .withReader((in, format) -> {
          throw new InvalidHistoryException(1, "not a history");
        });

    // When
    final CliRun run = CliRun.run(services, "check", "-");

    // Then
    assertEquals(2, run.exit());
    assertEquals("isowatch: <stdin>: line 1: not a history\n", run.err());
  }

  @Test
  void shouldWriteOneDotFilePerAnomalyAndStillReportWhenDotIsGiven() throws Exception {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.lostUpdate());
    final Path dir = tmp.resolve("dot");

    // When
    final CliRun run = CliRun.run(fake.services(), "check", "--json", "--dot", dir.toString(), history.toString());

    // Then
    assertEquals(1, run.exit(), run.err());
    final Path file = dir.resolve("anomaly-001-LostUpdate.dot");
    assertEquals(DotWriter.render(1, ResultFixtures.lostUpdate().anomalies().get(0)), Files.readString(file));
    try (var files = Files.list(dir)) {
      assertEquals(1, files.count());
    }
    assertEquals("isowatch: wrote 1 DOT file(s) to " + dir + "\n", run.err());
    assertEquals("LostUpdate", MAPPER.readTree(run.out()).get("anomalies").get(0).get("name").asText());
  }

  @Test
  void shouldExit2WhenTheDotDirectoryCannotBeCreated() throws Exception {
    // Given
    final CliRun.Fake fake = new CliRun.Fake().answering(ResultFixtures.lostUpdate());
    final Path blocker = Files.writeString(tmp.resolve("a-file"), "x");

    // When
    final CliRun run = CliRun.run(fake.services(), "check", "--dot", blocker.resolve("dot").toString(), history.toString());

    // Then
    assertEquals(2, run.exit());
    assertEquals("", run.out());
    assertTrue(run.err().startsWith("isowatch: cannot write DOT files to " + blocker.resolve("dot") + ": "), run.err());
    assertFalse(run.err().contains("\tat "), "stack trace: " + run.err());
  }

  @Test
  void shouldExit3WithTheStackTraceWhenTheCheckerFails() {
    // Given
    final Services services = new CliRun.Fake().services().withEngine((h, o) -> {
      throw new IllegalStateException("boom");
    });

    // When
    final CliRun run = CliRun.run(services, "check", history.toString());

    // Then
    assertEquals(3, run.exit());
    assertEquals("", run.out());
    assertTrue(run.err().startsWith("isowatch: internal error: java.lang.IllegalStateException: boom\n"), run.err());
    assertTrue(run.err().contains("\tat "), "a bug should come with its stack trace: " + run.err());
  }
}
