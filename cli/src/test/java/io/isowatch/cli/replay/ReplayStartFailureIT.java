package io.isowatch.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.cli.CliRun;
import io.isowatch.cli.ExitCodes;
import io.isowatch.cli.Services;
import io.isowatch.localstack.LocalRegistry;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code replay --file} when its registry child ({@code -Disowatch.replay.registry=child}) cannot start: exit 3 with one line saying what and why,
 * never a verdict's 0 or 1, and not reported as a bug ("internal error" and a stack trace). The
 * registry's port is pinned ({@code -Disowatch.registry.port}) to a port this test holds, which
 * fails before the runner jar is needed; the in-process broker does start (hence an IT).
 */
@Tag("integration")
class ReplayStartFailureIT {
  @AfterEach
  void unpin() {
    System.clearProperty(LocalRegistry.PORT_PROPERTY);
    System.clearProperty(FileReplay.REGISTRY_PROPERTY);
  }

  @Test
  void shouldExit3WithOneLineAndNoVerdictWhenTheRegistryCannotStart() throws Exception {
    // Given: the registry's port is taken
    try (ServerSocket squatter = new ServerSocket()) {
      squatter.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      System.setProperty(LocalRegistry.PORT_PROPERTY, Integer.toString(squatter.getLocalPort()));
      // the registry child, not the in-process registry a file replay uses by default
      System.setProperty(FileReplay.REGISTRY_PROPERTY, "child");
      final Path file = Path.of(System.getProperty("user.dir")).getParent().resolve("samples/lost-update.jsonl");

      // When
      final CliRun run = CliRun.run(Services.real(), "replay", "--file", file.toString(), "--json", "--quiet");

      // Then
      assertEquals(ExitCodes.INTERNAL, run.exit(), run.err());
      assertEquals("", run.out(), "no report, no JSON document");
      assertTrue(run.err().startsWith("isowatch replay: could not start: the schema registry's port "
          + squatter.getLocalPort() + " (isowatch.registry.port) is in use by another process"), run.err());
      assertFalse(run.err().contains("internal error"), run.err());
      assertFalse(run.err().contains("\tat "), "no stack trace: " + run.err());
    }
  }
}
