package io.isowatch.localstack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry's port race (CI, ReplayIT: "Port 38449 seems to be in use by another process"): a
 * port chosen free and taken by another process before the child binds it. Simulated by binding the
 * chosen port in this JVM first; the child is {@link StandInRegistry}, which fails on a taken port
 * with Quarkus's line, so these tests need no runner jar.
 */
class LocalRegistryPortTest {
  @TempDir Path dir;

  @Test
  void shouldStartOnANewPortWhenTheChosenPortIsTakenBeforeTheRegistryBindsIt() throws Exception {
    // Given: the first port chosen is held by another "process" (a socket of this JVM)
    try (ServerSocket squatter = bound()) {
      final int taken = squatter.getLocalPort();
      final List<Integer> chosen = new ArrayList<>();
      final LocalRegistry.PortChooser ports = () -> {
        final int port = chosen.isEmpty() ? taken : freePort();
        chosen.add(port);
        return port;
      };

      // When
      try (LocalRegistry registry = LocalRegistry.start(dir, standIn(), ports, LocalRegistry.PORT_ATTEMPTS)) {
        // Then: the second attempt's registry runs on the second port and answers
        assertEquals(2, chosen.size(), chosen.toString());
        assertEquals(chosen.get(1), registry.url().getPort());
        assertNotEquals(taken, registry.url().getPort());
        assertEquals(200, HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(registry.url().resolve("/health/ready")).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode());
        // and the first attempt's log, kept, says why it was left
        assertTrue(Files.readString(dir.resolve("registry-" + taken + ".log"))
            .contains("Port " + taken + " seems to be in use by another process"));
      }
    }
  }

  @Test
  void shouldFailNamingEveryPortTriedWhenEveryAttemptFindsItsPortTaken() throws Exception {
    // Given: two ports held, chosen in turn
    try (ServerSocket a = bound(); ServerSocket b = bound()) {
      final Iterator<Integer> ports = List.of(a.getLocalPort(), b.getLocalPort(), a.getLocalPort()).iterator();

      // When
      final LocalServiceException e = assertThrows(LocalServiceException.class,
          () -> LocalRegistry.start(dir, standIn(), ports::next, 3));

      // Then: bounded, and one line that says what and where
      assertEquals("the schema registry could not bind a port: ports [" + a.getLocalPort() + ", " + b.getLocalPort()
          + ", " + a.getLocalPort() + "] were in use by another process (3 attempts); log: "
          + dir.resolve("registry-" + a.getLocalPort() + ".log").toAbsolutePath(), e.getMessage());
      assertTrue(!ports.hasNext());
    }
  }

  @Test
  void shouldNotRetryWhenTheRegistryExitsForAnotherReason() throws Exception {
    // Given
    final List<Integer> chosen = new ArrayList<>();
    final LocalRegistry.PortChooser ports = () -> {
      final int port = freePort();
      chosen.add(port);
      return port;
    };
    final LocalRegistry.Launcher standIn = standIn();
    final LocalRegistry.Launcher crashing = port -> withArg(standIn.command(port), "crash");

    // When
    final LocalServiceException e = assertThrows(LocalServiceException.class,
        () -> LocalRegistry.start(dir, crashing, ports, LocalRegistry.PORT_ATTEMPTS));

    // Then
    assertEquals(1, chosen.size());
    assertTrue(e.getMessage().startsWith("the schema registry exited during start-up (exit 1); log: "), e.getMessage());
  }

  @Test
  void shouldRefuseAPinnedPortAtOnceWhenItIsTaken() throws Exception {
    try (ServerSocket squatter = bound()) {
      // When
      final LocalServiceException e = assertThrows(LocalServiceException.class,
          () -> LocalRegistry.ensureFree(squatter.getLocalPort()));

      // Then
      assertTrue(e.getMessage().startsWith("the schema registry's port " + squatter.getLocalPort()
          + " (isowatch.registry.port) is in use by another process"), e.getMessage());
    }
    // and a free one passes
    LocalRegistry.ensureFree(freePort());
  }

  private static ServerSocket bound() throws IOException {
    final ServerSocket s = new ServerSocket();
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    return s;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static LocalRegistry.Launcher standIn() throws URISyntaxException {
    final String classes = Path.of(StandInRegistry.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .toString();
    final String java = ProcessHandle.current().info().command().orElse("java");
    return port -> List.of(java, "-Xmx32m", "-cp", classes, StandInRegistry.class.getName(), Integer.toString(port));
  }

  private static List<String> withArg(final List<String> command, final String arg) {
    final List<String> c = new ArrayList<>(command);
    c.add(arg);
    return c;
  }
}
