package io.isowatch.streams.testkit;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real Apicurio Registry 2.4.2 (the same runner jar as scripts/registry.sh) as a child process on
 * a free port, in-memory storage, started once per test class:
 *
 * <pre>{@code
 * @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();
 * }</pre>
 *
 * <p>When the runner jar is missing it is built first with {@code scripts/registry.sh build} (about
 * a minute on a warm Maven repository, two cold; extra Maven arguments such as {@code -o} come from
 * the environment variable {@code REGISTRY_MVN_ARGS}). The jar stays in tools/registry/target,
 * which no build of the root reactor cleans, so that happens once per checkout.
 */
public final class EmbeddedRegistry implements BeforeAllCallback, AfterAllCallback {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedRegistry.class);
  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private Process process;
  private Thread shutdownHook;
  private URI url;
  private Path logFile;

  @Override
  public void beforeAll(final ExtensionContext context) throws Exception {
    final Path jar = ensureBuilt();
    final int port = freePort();
    url = URI.create("http://127.0.0.1:" + port);
    logFile = Path.of("target", "registry-" + port + ".log").toAbsolutePath();
    Files.createDirectories(logFile.getParent());
    final long t0 = System.nanoTime();
    process =
        new ProcessBuilder(
                javaBinary(),
                "-Xmx256m",
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.log.console.color=false",
                "-jar",
                jar.toString())
            .redirectErrorStream(true)
            .redirectOutput(logFile.toFile())
            .start();
    // Stops the child even when the test JVM exits without running afterAll.
    final Process child = process;
    shutdownHook = new Thread(child::destroy, "embedded-registry-stop");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    awaitReady();
    LOG.info(
        "Embedded registry ready url=[{}] pid=[{}] startMs=[{}] log=[{}]",
        url,
        process.pid(),
        (System.nanoTime() - t0) / 1_000_000,
        logFile);
  }

  @Override
  public void afterAll(final ExtensionContext context) throws Exception {
    if (process == null) {
      return;
    }
    process.destroy();
    if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      LOG.warn("Registry ignored SIGTERM, killing it pid=[{}]", process.pid());
      process.destroyForcibly().waitFor();
    }
    Runtime.getRuntime().removeShutdownHook(shutdownHook);
    process = null;
  }

  /** Base URL of the running registry, e.g. {@code http://127.0.0.1:40123}. */
  public URI url() {
    if (url == null || process == null) {
      throw new IllegalStateException("EmbeddedRegistry is not running (register it as a static extension)");
    }
    return url;
  }

  /** Resident memory of the registry process in MiB, read from /proc (Linux only). */
  public long rssMib() throws IOException {
    for (final String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
      if (line.startsWith("VmRSS:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
      }
    }
    throw new IOException("no VmRSS for pid " + process.pid());
  }

  /** The runner jar, built by scripts/registry.sh when missing. */
  static synchronized Path ensureBuilt() throws IOException, InterruptedException {
    final Path root = repositoryRoot();
    final Path jar = root.resolve("tools/registry/target/apicurio-registry-runner.jar");
    if (Files.isRegularFile(jar)) {
      return jar;
    }
    final Path buildLog = Path.of("target", "registry-build.log").toAbsolutePath();
    Files.createDirectories(buildLog.getParent());
    LOG.info("Registry runner jar missing, building it jar=[{}] log=[{}]", jar, buildLog);
    final long t0 = System.nanoTime();
    final ProcessBuilder build =
        new ProcessBuilder("bash", root.resolve("scripts/registry.sh").toString(), "build")
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(buildLog.toFile());
    final Process p = build.start();
    if (!p.waitFor(BUILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("registry build took over " + BUILD_TIMEOUT + "; see " + buildLog);
    }
    if (p.exitValue() != 0 || !Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          "registry build failed (exit " + p.exitValue() + "): " + tail(buildLog));
    }
    LOG.info("Registry runner jar built seconds=[{}]", (System.nanoTime() - t0) / 1_000_000_000);
    return jar;
  }

  private void awaitReady() throws IOException, InterruptedException {
    final HttpRequest ready =
        HttpRequest.newBuilder(url.resolve("/health/ready")).timeout(Duration.ofSeconds(2)).GET().build();
    final long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (true) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "registry exited during start-up (exit " + process.exitValue() + "): " + tail(logFile));
      }
      try {
        if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (final IOException notYetListening) {
        // Connection refused until Quarkus has bound the port: keep polling.
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("registry not ready after " + READY_TIMEOUT + ": " + tail(logFile));
      }
      // Polling interval, not a wait for a result: readiness has no event to block on.
      TimeUnit.MILLISECONDS.sleep(200);
    }
  }

  /** The checkout's root: the nearest ancestor of the working directory with scripts/registry.sh. */
  static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null) {
      if (Files.isRegularFile(dir.resolve("scripts/registry.sh"))) {
        return dir;
      }
      dir = dir.getParent();
    }
    throw new IllegalStateException("no scripts/registry.sh above " + Path.of("").toAbsolutePath());
  }

  private static String javaBinary() {
    return ProcessHandle.current().info().command().orElse("java");
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }

  private static String tail(final Path file) throws IOException {
    final List<String> lines = Files.readAllLines(file);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
  }
}
