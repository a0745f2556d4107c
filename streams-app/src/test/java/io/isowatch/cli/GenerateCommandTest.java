package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateCommandTest {
  @TempDir
  Path dir;

  @Test
  void shouldExitTwoWithTheKnownNamesWhenAnInjectionIsUnknown() {
    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--txns", "100", "--inject", "LostUpdate:2,Dirty",
        "--out", dir.resolve("h.jsonl").toString());

    // Then
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("unknown anomaly 'Dirty'"), run.err());
    assertTrue(run.err().contains("WriteSkew"), run.err());
    assertFalse(Files.exists(dir.resolve("h.jsonl")));
  }

  @Test
  void shouldExitTwoWithAClearMessageWhenOptionsContradictEachOther() {
    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--txns", "3", "--inject", "LongFork", "--out",
        dir.resolve("h.jsonl").toString());

    // Then
    assertEquals(2, run.exitCode());
    assertEquals("error: the injections need 4 transactions but the history has only 3", run.err().strip());
    assertFalse(Files.exists(dir.resolve("h.jsonl")));
  }

  @Test
  void shouldExitTwoWhenTheDistributionIsMisspelled() {
    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--dist", "zipf:x", "--out", "-");

    // Then
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("Invalid value for option '--dist': bad number in key distribution 'zipf:x'"),
        run.err());
  }

  @Test
  void shouldExitTwoWhenOutIsMissing() {
    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--txns", "10");

    // Then
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("Missing required option: '--out=FILE'"), run.err());
  }
}
