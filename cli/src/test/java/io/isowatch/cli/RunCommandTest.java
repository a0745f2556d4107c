package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.streams.ConfigReference;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code isowatch run} through the real command line, for what needs no cluster. */
class RunCommandTest {
  @TempDir Path dir;

  @Test
  void shouldPrintTheConfigReferenceWhenAskedForConfigDocs() {
    // When
    final CliRun run = CliRun.run(Services.real(), "run", "--print-config-docs");
    // Then
    assertEquals(0, run.exit(), run.err());
    assertEquals(ConfigReference.markdown(), run.out());
  }

  @Test
  void shouldExitWithInvalidAndOneLineWhenTheConfigFileHasABadValue() throws Exception {
    // Given
    final Path file = dir.resolve("bad.properties");
    Files.writeString(file, "check.grace.ms=soon\n");
    // When
    final CliRun run = CliRun.run(Services.real(), "run", "--config", file.toString());
    // Then
    assertEquals(ExitCodes.INVALID, run.exit());
    assertEquals("", run.out());
    assertTrue(run.err().startsWith("isowatch run: invalid configuration: ") && run.err().contains("check.grace.ms"),
        run.err());
    assertEquals(1, run.err().lines().count(), run.err());
  }

  @Test
  void shouldExitWithInvalidWhenTheConfigFileIsMissing() {
    // When
    final CliRun run = CliRun.run(Services.real(), "run", "--config", dir.resolve("none.properties").toString());
    // Then
    assertEquals(ExitCodes.INVALID, run.exit());
    assertTrue(run.err().contains("none.properties"), run.err());
  }
}
