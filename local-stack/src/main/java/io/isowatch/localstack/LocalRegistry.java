package io.isowatch.localstack;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real Apicurio Registry 2.4.2 (the runner jar of scripts/registry.sh) as a child process on a
 * free port, in-memory storage, its output in a log file. Used by {@code isowatch replay --file}
 * and, through the test kit's {@code EmbeddedRegistry}, by the integration tests.
 *
 * <p>The child is stopped by {@link #close} and, when the JVM exits without it (Ctrl-C, SIGTERM),
 * by a shutdown hook: SIGTERM, then SIGKILL after {@value #STOP_SECONDS} s.
 *
 * <p>When the runner jar is missing it is built first with {@code scripts/registry.sh build}
 * (about a minute on a warm Maven repository, two cold; extra Maven arguments such as {@code -o}
 * come from the environment variable {@code REGISTRY_MVN_ARGS}). The jar stays in
 * tools/registry/target, which no build of the root reactor cleans, so that happens once per
 * checkout.
 */
public final class LocalRegistry implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LocalRegistry.class);
  private static final Duration BUILD_TIMEOUT = Duration.ofMinutes(15);
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final long STOP_SECONDS = 20;
  /** The runner jar, relative to the checkout's root. */
  public static final String RUNNER_JAR = "tools/registry/target/apicurio-registry-runner.jar";

  private final Process process;
  private final URI url;
  private final Path logFile;
  private final StopAtExit stopAtExit;
  private boolean closed;

  private LocalRegistry(final Process process, final URI url, final Path logFile) {
    this.process = process;
    this.url = url;
    this.logFile = logFile;
    this.stopAtExit = new StopAtExit("local-registry-stop", this::stop);
  }

  /**
   * Builds the runner jar when missing, starts the registry and waits until it is ready.
   *
   * @param logDir where {@code registry-<port>.log} (and {@code registry-build.log}) are written
   * @param notice receives a line for a person when a slow step starts (the jar build)
   */
  public static LocalRegistry start(final Path logDir, final Consumer<String> notice)
      throws IOException, InterruptedException {
    Files.createDirectories(logDir);
    final Path jar = ensureBuilt(logDir.resolve("registry-build.log"), notice);
    final int port = freePort();
    final URI url = URI.create("http://127.0.0.1:" + port);
    final Path logFile = logDir.resolve("registry-" + port + ".log").toAbsolutePath();
    final long t0 = System.nanoTime();
    final Process process =
        new ProcessBuilder(
                javaBinary(),
                "-Xmx256m",
                // C1 only: the registry serves a few schema look-ups, and C2 compiling Quarkus's
                // start-up took 38% more CPU to ready (14.8 s against 9.2 s, docs/benchmarks.md)
                // on the two cores the broker and the checker also start on.
                "-XX:TieredStopAtLevel=1",
                "-Dquarkus.http.host=127.0.0.1",
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.log.console.color=false",
                "-jar",
                jar.toString())
            .redirectErrorStream(true)
            .redirectOutput(logFile.toFile())
            .start();
    final LocalRegistry registry = new LocalRegistry(process, url, logFile);
    registry.stopAtExit.register();
    try {
      registry.awaitReady();
    } catch (final IOException | InterruptedException | RuntimeException e) {
      registry.close();
      throw e;
    }
    LOG.info("Local registry ready url=[{}] pid=[{}] startMs=[{}] log=[{}]",
        url, process.pid(), (System.nanoTime() - t0) / 1_000_000, logFile);
    return registry;
  }

  /** Base URL of the running registry, e.g. {@code http://127.0.0.1:40123}. */
  public URI url() {
    if (closed) {
      throw new IllegalStateException("LocalRegistry is closed");
    }
    return url;
  }

  /** The child's process id. */
  public long pid() {
    return process.pid();
  }

  /** The registry's log file. */
  public Path logFile() {
    return logFile;
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

  /** Stops the child (SIGTERM, then SIGKILL) and waits for it; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    stopAtExit.cancel();
    stop();
  }

  private void stop() {
    process.destroy();
    try {
      if (!process.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn("Registry ignored SIGTERM, killing it pid=[{}]", process.pid());
        process.destroyForcibly().waitFor(STOP_SECONDS, TimeUnit.SECONDS);
      }
    } catch (final InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  /** The runner jar, built by scripts/registry.sh when missing. */
  public static synchronized Path ensureBuilt(final Path buildLog, final Consumer<String> notice)
      throws IOException, InterruptedException {
    final Path root = repositoryRoot();
    final Path jar = root.resolve(RUNNER_JAR);
    if (Files.isRegularFile(jar)) {
      return jar;
    }
    Files.createDirectories(buildLog.toAbsolutePath().getParent());
    notice.accept("building the schema registry (Apicurio 2.4.2, about 2 minutes, once per checkout); log: "
        + buildLog.toAbsolutePath());
    LOG.info("Registry runner jar missing, building it jar=[{}] log=[{}]", jar, buildLog);
    final long t0 = System.nanoTime();
    final Process p =
        new ProcessBuilder("bash", root.resolve("scripts/registry.sh").toString(), "build")
            .directory(root.toFile())
            .redirectErrorStream(true)
            .redirectOutput(buildLog.toFile())
            .start();
    if (!p.waitFor(BUILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("registry build took over " + BUILD_TIMEOUT + "; see " + buildLog);
    }
    if (p.exitValue() != 0 || !Files.isRegularFile(jar)) {
      throw new IllegalStateException("registry build failed (exit " + p.exitValue() + "): " + tail(buildLog));
    }
    LOG.info("Registry runner jar built seconds=[{}]", (System.nanoTime() - t0) / 1_000_000_000);
    return jar;
  }

  /**
   * The checkout's root: the nearest directory holding scripts/registry.sh above this class's jar
   * or classes directory (local-stack/target/...), else above the working directory.
   */
  public static Path repositoryRoot() {
    return rootAbove(codeLocation())
        .or(() -> rootAbove(Optional.of(Path.of("").toAbsolutePath())))
        .orElseThrow(() -> new IllegalStateException(
            "no scripts/registry.sh above " + codeLocation().orElse(null) + " or " + Path.of("").toAbsolutePath()
                + ": replay needs an IsoWatch checkout"));
  }

  private static Optional<Path> codeLocation() {
    try {
      return Optional.of(Path.of(LocalRegistry.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    } catch (final URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  private static Optional<Path> rootAbove(final Optional<Path> start) {
    Path dir = start.orElse(null);
    while (dir != null) {
      if (Files.isRegularFile(dir.resolve("scripts/registry.sh"))) {
        return Optional.of(dir);
      }
      dir = dir.getParent();
    }
    return Optional.empty();
  }

  private void awaitReady() throws IOException, InterruptedException {
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
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
