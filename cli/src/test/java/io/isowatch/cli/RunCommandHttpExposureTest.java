package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code isowatch run} refuses, before touching Kafka, an HTTP endpoint open to the network without a token. */
class RunCommandHttpExposureTest {
  @TempDir Path dir;

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS) // Without the check, run would start and wait for ever.
  void shouldExit2NamingTheSettingsWhenBindingAllInterfacesWithoutAToken() throws Exception {
    // Given: a broker that does not exist, so only the configuration can end the run quickly
    final Path file = dir.resolve("checker.properties");
    Files.writeString(file, "http.host=0.0.0.0\nhttp.port=0\nbootstrap.servers=127.0.0.1:1\n");
    // When
    final CliRun run = CliRun.run(new CliRun.Fake().services(), "run", "--config", file.toString());
    // Then
    assertEquals(2, run.exit(), run.err());
    assertTrue(run.err().startsWith("isowatch run: invalid configuration: "), run.err());
    assertTrue(run.err().contains("http.auth.token"), run.err());
    assertTrue(run.err().contains("http.allow.unauthenticated=true"), run.err());
  }
}
