package io.isowatch.cli.demo;

import io.isowatch.localstack.LocalKafka;
import io.isowatch.localstack.LocalRegistry;
import io.isowatch.streams.CheckerApp;
import io.isowatch.streams.IsoWatchStreamsConfig;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The demo's services, started in dependency order and closed in reverse: a real Kafka broker in
 * this JVM, the Apicurio schema registry as a child process, and the streaming checker (with its
 * web UI) in this JVM. Closing stops all three; the registry's process is also killed by a
 * shutdown hook if the JVM exits without closing, so nothing is left behind.
 */
public final class DemoStack implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DemoStack.class);

  private LocalKafka kafka;
  private LocalRegistry registry;
  private CheckerApp checker;

  private DemoStack() {}

  /**
   * Starts everything.
   *
   * @param workDir the checker's state and the registry's log go below it
   * @param checkerSettings extra checker configuration (e.g. {@code http.port}), over the demo's defaults
   * @param say where progress lines for the user go
   */
  public static DemoStack start(final Path workDir, final Map<String, String> checkerSettings, final PrintWriter say)
      throws Exception {
    final DemoStack stack = new DemoStack();
    try {
      final Consumer<String> notice = line -> {
        say.println("isowatch demo: " + line);
        say.flush();
      };
      long t0 = System.nanoTime();
      stack.kafka = LocalKafka.start();
      notice.accept(String.format("Kafka broker (KRaft, in process) ready at %s in %.1f s",
          stack.kafka.bootstrapServers(), seconds(t0)));
      t0 = System.nanoTime();
      stack.registry = LocalRegistry.start(workDir, notice);
      notice.accept(String.format("schema registry (Apicurio 2.4.2, pid %d) ready at %s in %.1f s",
          stack.registry.pid(), stack.registry.url(), seconds(t0)));
      t0 = System.nanoTime();
      stack.checker = CheckerApp.start(new IsoWatchStreamsConfig(stack.checkerConfig(workDir, checkerSettings)));
      notice.accept(String.format("streaming checker started in %.1f s", seconds(t0)));
      return stack;
    } catch (final Exception | Error e) {
      stack.close();
      throw e;
    }
  }

  private Map<String, String> checkerConfig(final Path workDir, final Map<String, String> overrides) {
    final Map<String, String> c = new HashMap<>();
    c.put(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    c.put(IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.url().toString());
    c.put(IsoWatchStreamsConfig.APPLICATION_ID_CONFIG, "isowatch-demo");
    c.put(IsoWatchStreamsConfig.STATE_DIR_CONFIG, workDir.resolve("state").toString());
    // Development mode: the demo's own broker and registry start empty.
    c.put(IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true");
    c.put(IsoWatchStreamsConfig.TOPICS_CREATE_CONFIG, "true");
    c.put(IsoWatchStreamsConfig.TOPICS_REPLICATION_CONFIG, "1");
    // The agents publish as they commit: a short grace keeps detection quick; verdicts every
    // second keep the UI's charts moving.
    c.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, "2000");
    c.put(IsoWatchStreamsConfig.VERDICT_INTERVAL_MS_CONFIG, "1000");
    c.put(IsoWatchStreamsConfig.SHUTDOWN_TIMEOUT_MS_CONFIG, "20000");
    c.putAll(overrides);
    return c;
  }

  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  public URI registryUrl() {
    return registry.url();
  }

  public CheckerApp checker() {
    return checker;
  }

  /** Stops the checker, the registry and the broker, in that order; idempotent. */
  @Override
  public synchronized void close() {
    if (checker != null) {
      checker.close();
      checker = null;
    }
    if (registry != null) {
      registry.close();
      registry = null;
    }
    if (kafka != null) {
      try {
        kafka.close();
      } catch (final Exception e) {
        LOG.warn("Local Kafka did not stop cleanly error=[{}]", e.toString());
      }
      kafka = null;
    }
  }

  private static double seconds(final long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }
}
