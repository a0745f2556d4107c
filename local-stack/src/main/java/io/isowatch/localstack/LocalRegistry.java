package io.isowatch.localstack;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The real Apicurio Registry 2.4.2 (the runner jar of scripts/registry.sh) as a child process on a
 * free port (started again on another when that port was taken before the child bound it; see
 * {@link #start(Path, Consumer)}), in-memory storage, its output in a log file. Used by {@code isowatch replay --file}
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
  /** Starts tried, each on a newly chosen port, when the chosen port was taken before the child bound it. */
  static final int PORT_ATTEMPTS = 5;
  /**
   * The system property that pins the registry's port (e.g. {@code
   * ISOWATCH_JAVA_OPTS=-Disowatch.registry.port=8081}); unset, a free port is chosen.
   */
  public static final String PORT_PROPERTY = "isowatch.registry.port";
  /** What the child's log says when its port is taken (Quarkus's own line, then the JDK's). */
  private static final List<String> PORT_IN_USE =
      List.of("seems to be in use by another process", "Address already in use");
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
   * <p>The port is chosen free, then handed to the child, which binds it seconds later: another
   * process may take it meanwhile (a client's outgoing connection, another service). When the
   * child dies because its port is in use, it is started again on a newly chosen port, up to
   * {@value #PORT_ATTEMPTS} times; each attempt's log is kept. A port pinned with {@code
   * -D}{@value #PORT_PROPERTY} is tried once.
   *
   * @param logDir where {@code registry-<port>.log} (and {@code registry-build.log}) are written
   * @param notice receives a line for a person when a slow step starts (the jar build)
   * @throws LocalServiceException when the registry could not start: every port tried was in use,
   *     the jar could not be built, the child exited or was not ready in time (the message names the log)
   */
  public static LocalRegistry start(final Path logDir, final Consumer<String> notice)
      throws IOException, InterruptedException {
    Files.createDirectories(logDir);
    final OptionalInt pinned = pinnedPort();
    if (pinned.isPresent()) {
      // Before the jar build, which may take minutes: a pinned port already taken fails at once.
      ensureFree(pinned.getAsInt());
    }
    final Path jar = ensureBuilt(logDir.resolve("registry-build.log"), notice);
    final Launcher launcher = port -> List.of(
        javaBinary(),
        "-Xmx256m",
        // C1 only: the registry serves a few schema look-ups, and with C1 only it reached ready on
        // 38% less CPU than with C2 compiling Quarkus's start-up (9.2 s against 14.8 s, docs/benchmarks.md)
        // on the two cores the broker and the checker also start on.
        "-XX:TieredStopAtLevel=1",
        "-Dquarkus.http.host=127.0.0.1",
        "-Dquarkus.http.port=" + port,
        "-Dquarkus.log.console.color=false",
        "-jar",
        jar.toString());
    return pinned.isPresent()
        ? start(logDir, launcher, pinned::getAsInt, 1)
        : start(logDir, launcher, LocalRegistry::freePort, PORT_ATTEMPTS);
  }

  /**
   * Starts {@code launcher}'s command on a port from {@code ports}, again on the next port when the
   * child died because its port was in use, at most {@code attempts} times; any other failure ends
   * at once. For {@link #start(Path, Consumer)} and tests (which launch a stand-in registry).
   */
  static LocalRegistry start(final Path logDir, final Launcher launcher, final PortChooser ports, final int attempts)
      throws IOException, InterruptedException {
    final List<Integer> taken = new ArrayList<>();
    Path lastLog = null;
    for (int attempt = 1; attempt <= attempts; attempt++) {
      final int port = ports.next();
      lastLog = logDir.resolve("registry-" + port + ".log").toAbsolutePath();
      try {
        return startOn(port, lastLog, launcher);
      } catch (final PortInUse e) {
        taken.add(port);
        LOG.warn("Registry port taken by another process before the registry bound it port=[{}] attempt=[{}] "
            + "of=[{}] log=[{}]", port, attempt, attempts, lastLog);
      }
    }
    throw new LocalServiceException("the schema registry could not bind a port: "
        + (taken.size() == 1 ? "port " + taken.get(0) + " was" : "ports " + taken + " were")
        + " in use by another process (" + attempts + (attempts == 1 ? " attempt" : " attempts")
        + "); log: " + lastLog);
  }

  private static LocalRegistry startOn(final int port, final Path logFile, final Launcher launcher)
      throws IOException, InterruptedException, PortInUse {
    final URI url = URI.create("http://127.0.0.1:" + port);
    final long t0 = System.nanoTime();
    final Process process =
        new ProcessBuilder(launcher.command(port))
            .redirectErrorStream(true)
            .redirectOutput(logFile.toFile())
            .start();
    final LocalRegistry registry = new LocalRegistry(process, url, logFile);
    registry.stopAtExit.register();
    try {
      registry.awaitReady();
    } catch (final IOException | InterruptedException | PortInUse | RuntimeException e) {
      registry.close();
      throw e;
    }
    LOG.info("Local registry ready url=[{}] pid=[{}] startMs=[{}] log=[{}]",
        url, process.pid(), (System.nanoTime() - t0) / 1_000_000, logFile);
    return registry;
  }

  /** The command that starts a registry listening on a port. */
  @FunctionalInterface
  interface Launcher {
    List<String> command(int port);
  }

  /** Where the next attempt's port comes from. */
  @FunctionalInterface
  interface PortChooser {
    int next() throws IOException;
  }

  /** The child exited because its port was in use: another port may do. */
  static final class PortInUse extends Exception {
    private static final long serialVersionUID = 1L;

    PortInUse(final String message) {
      super(message);
    }
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
    final Path root;
    try {
      root = repositoryRoot();
    } catch (final IllegalStateException noCheckout) {
      throw new LocalServiceException(noCheckout.getMessage());
    }
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
      throw new LocalServiceException("the schema registry's build took over " + BUILD_TIMEOUT + "; log: " + buildLog);
    }
    if (p.exitValue() != 0 || !Files.isRegularFile(jar)) {
      LOG.error("Registry build failed exit=[{}] log=[{}]\n{}", p.exitValue(), buildLog, tail(buildLog));
      throw new LocalServiceException("the schema registry's runner jar could not be built (scripts/registry.sh build, exit "
          + p.exitValue() + "); log: " + buildLog);
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

  private void awaitReady() throws IOException, InterruptedException, PortInUse {
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    final HttpRequest ready =
        HttpRequest.newBuilder(url.resolve("/health/ready")).timeout(Duration.ofSeconds(2)).GET().build();
    final long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (true) {
      if (!process.isAlive()) {
        final String tail = tail(logFile);
        if (PORT_IN_USE.stream().anyMatch(tail::contains)) {
          throw new PortInUse("port " + url.getPort() + " in use");
        }
        LOG.error("Registry exited during start-up exit=[{}] log=[{}]\n{}", process.exitValue(), logFile, tail);
        throw new LocalServiceException(
            "the schema registry exited during start-up (exit " + process.exitValue() + "); log: " + logFile);
      }
      try {
        if (http.send(ready, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (final IOException notYetListening) {
        // Connection refused until Quarkus has bound the port: keep polling.
      }
      if (System.nanoTime() > deadline) {
        LOG.error("Registry not ready in time timeout=[{}] log=[{}]\n{}", READY_TIMEOUT, logFile, tail(logFile));
        throw new LocalServiceException(
            "the schema registry was not ready after " + READY_TIMEOUT.toSeconds() + " s; log: " + logFile);
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

  private static OptionalInt pinnedPort() throws LocalServiceException {
    final String value = System.getProperty(PORT_PROPERTY);
    if (value == null || value.isBlank()) {
      return OptionalInt.empty();
    }
    try {
      final int port = Integer.parseInt(value.strip());
      if (port >= 1 && port <= 65_535) {
        return OptionalInt.of(port);
      }
    } catch (final NumberFormatException e) {
      // Reported below, as a value out of range.
    }
    throw new LocalServiceException(PORT_PROPERTY + "=" + value + " is not a port (1-65535)");
  }

  /** Fails when {@code port} cannot be bound on 127.0.0.1 now. */
  static void ensureFree(final int port) throws LocalServiceException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    } catch (final IOException e) {
      throw new LocalServiceException("the schema registry's port " + port + " (" + PORT_PROPERTY
          + ") is in use by another process: " + e.getMessage());
    }
  }

  private static String tail(final Path file) throws IOException {
    final List<String> lines = Files.readAllLines(file);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
  }
}
