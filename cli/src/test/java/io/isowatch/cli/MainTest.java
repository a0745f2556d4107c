package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MainTest {
  @Test
  void shouldPrintTheProjectVersionWhenAskedForIt() {
    // When
    final CliRun run = CliRun.run(new CliRun.Fake().services(), "--version");

    // Then
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().matches("(?s)isowatch \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\nJava .+\n"), run.out());
  }

  @Test
  void shouldListEverySubcommandWhenAskedForHelp() {
    // When
    final CliRun run = CliRun.run(new CliRun.Fake().services(), "--help");

    // Then
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().startsWith("Usage: isowatch "), run.out());
    assertTrue(run.out().matches("(?s).*\n  check +Check a history for SSER, SER and SI.*"), run.out());
    assertTrue(run.out().matches("(?s).*\n  convert +Convert a history between formats\\..*"), run.out());
  }

  @Test
  void shouldShowTheExitCodesWhenAskedForHelpOnCheck() {
    // When
    final CliRun run = CliRun.run(new CliRun.Fake().services(), "help", "check");

    // Then
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("Usage: isowatch check "), run.out());
    assertTrue(run.out().contains("Exit codes:\n  0   every requested level is SATISFIED (with --promise: every promised level\n"
        + "        is SATISFIED)\n  1   some requested level is VIOLATED or UNKNOWN (with --promise: some\n"
        + "        promised level is)\n"), run.out());
    assertTrue(run.out().contains("--initial-value=N|null"), run.out());
  }

  @Test
  void shouldExit2WithUsageWhenNoSubcommandIsGiven() {
    // When
    final CliRun run = CliRun.run(new CliRun.Fake().services());

    // Then
    assertEquals(2, run.exit());
    assertEquals("", run.out());
    assertTrue(run.err().startsWith("Missing subcommand\nUsage: isowatch "), run.err());
  }

  @Test
  void shouldExit2WhenTheSubcommandIsUnknown() {
    // When
    final CliRun run = CliRun.run(new CliRun.Fake().services(), "chekc", "x");

    // Then
    assertEquals(2, run.exit());
    assertTrue(run.err().startsWith("Unmatched arguments from index 0: 'chekc', 'x'"), run.err());
  }

  @Test
  void shouldOfferHelpAndVersionOnEverySubcommand() {
    for (final String sub : List.of("check", "convert")) {
      // When
      final CliRun help = CliRun.run(new CliRun.Fake().services(), sub, "--help");
      final CliRun version = CliRun.run(new CliRun.Fake().services(), sub, "-V");

      // Then
      assertEquals(0, help.exit(), help.err());
      assertTrue(help.out().startsWith("Usage: isowatch " + sub + " [-hV]"), help.out());
      assertEquals(0, version.exit(), version.err());
      assertTrue(version.out().startsWith("isowatch "), version.out());
    }
  }

  @Test
  void shouldBuildOnlyCheckForACheckAndRunItAsTheWholeCommandLineDoes() {
    final String lostUpdate = CliRun.REPO_ROOT.resolve("samples/lost-update.jsonl").toString();
    final String valid = CliRun.REPO_ROOT.resolve("samples/valid-ser.jsonl").toString();
    final List<List<String>> cases = List.of(
        List.of("check", "--help"), List.of("check", "-h"), List.of("check", "-V"), List.of("check", "--version"),
        List.of("check"), List.of("check", "--bogus", valid), List.of("check", "--levels", "XX", valid),
        List.of("check", valid, lostUpdate), List.of("check", "missing-file.jsonl"),
        List.of("check", "--json", valid), List.of("check", lostUpdate), List.of("check", "--json", lostUpdate),
        List.of("check", "--promise", "postgres:read-committed", "--json", lostUpdate),
        List.of("check", "--levels", "RC,SI", "--format", "jsonl", lostUpdate));
    for (final List<String> args : cases) {
      final String[] a = args.toArray(String[]::new);
      // When
      final CliRun whole = CliRun.run(Services.real(), a);
      final CliRun asMain = CliRun.runAsMain(Services.real(), a);

      // Then: the same exit, stdout and stderr, but for the check's own duration in the JSON
      assertEquals(whole.exit(), asMain.exit(), () -> args + ": " + asMain.err());
      assertEquals(withoutSeconds(whole.out()), withoutSeconds(asMain.out()), args::toString);
      assertEquals(whole.err(), asMain.err(), args::toString);
    }
    assertEquals(List.of("check"), List.copyOf(Main.commandLineFor(Services.real(), "check", valid)
        .getSubcommands().keySet()), "a check builds no other subcommand");
    assertTrue(Main.commandLineFor(Services.real(), "convert", valid).getSubcommands().size() > 5);
  }

  private static String withoutSeconds(final String out) {
    return out.replaceAll("(\"seconds\" : |  seconds +)[0-9.Ee-]+", "$1S");
  }
}
