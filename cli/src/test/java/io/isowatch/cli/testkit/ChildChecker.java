package io.isowatch.cli.testkit;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code isowatch run} in a child JVM, for tests that kill a checker with SIGKILL. */
public final class ChildChecker {
  private static final Logger LOG = LoggerFactory.getLogger(ChildChecker.class);

  private ChildChecker() {}

  /**
   * Writes the properties of a checker on the test's broker and registry that releases generated
   * histories as they come and commits every 100 ms, with an HTTP port of its own.
   */
  public static Path writeConfig(final Path file, final String bootstrapServers, final URI registry,
      final String appId, final Path stateDir) throws IOException {
    Files.writeString(file, String.join("\n",
        "bootstrap.servers=" + bootstrapServers,
        "schema.registry.url=" + registry,
        "schemas.auto.register=true",
        "application.id=" + appId,
        "state.dir=" + stateDir,
        "http.port=" + freePort(),
        "http.host=127.0.0.1",
        // Generated histories span a few milliseconds: a 1 ms grace releases them as they arrive.
        "check.grace.ms=1",
        "check.idle.flush.ms=1000",
        "verdict.interval.ms=1000",
        "kafka.commit.interval.ms=100",
        // A killed member never leaves the group: the broker's minimum session timeout lets another
        // one take its partitions in seconds instead of the default 45.
        "kafka.consumer.session.timeout.ms=6000",
        ""));
    return file;
  }

  /** {@code isowatch run --config FILE} in a child JVM with the test class path; output to target/NAME.log. */
  public static Process start(final Path config, final String name) throws IOException {
    final String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    final Path log = Path.of("target", name + ".log").toAbsolutePath();
    final Process p = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-Xmx384m",
        "-cp", classPath, "io.isowatch.cli.Main", "run", "--config", config.toString())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    LOG.info("Child checker started name=[{}] pid=[{}] log=[{}]", name, p.pid(), log);
    return p;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
