package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BenchCommandTest {
  @Test
  void shouldExitTwoWhenGeneratorOptionsAreGivenWithAFile() {
    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--file", "h.jsonl", "--inject", "LostUpdate");

    // Then
    assertEquals(2, run.exitCode());
    assertEquals("error: --inject applies to generated histories, not to --file", run.err().strip());
  }

  @Test
  void shouldExitTwoWhenALevelIsUnknown() {
    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--levels", "SER,RC");

    // Then
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("unknown level 'RC'"), run.err());
  }

  @Test
  void shouldExitTwoWhenRepeatIsZero() {
    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--txns", "10", "--repeat", "0");

    // Then
    assertEquals(2, run.exitCode());
    assertTrue(run.err().contains("repeat >= 1"), run.err());
  }
}
