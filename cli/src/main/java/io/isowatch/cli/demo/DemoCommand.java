package io.isowatch.cli.demo;

import io.isowatch.agent.cli.Durations;
import io.isowatch.agent.run.RunSummary;
import io.isowatch.cli.Main;
import io.isowatch.core.check.Level;
import io.isowatch.streams.IsoWatchStreamsConfig;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import sun.misc.Signal;

/**
 * {@code isowatch demo}: the whole pipeline on this machine, with nothing installed: a real Kafka
 * broker and schema registry, the streaming checker with its web UI, and two agents (embedded H2
 * at a correct level, and the faulty store), printing each anomaly as the checker publishes it.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    // One string per paragraph: picocli wraps it to the terminal width (separate lines longer
    // than the width would each be wrapped on their own, leaving ragged short lines).
    description = "Runs the whole pipeline locally: an in-process Kafka broker, the schema registry (a child "
        + "process), the streaming checker with its web UI, and four agents publishing every transaction: embedded "
        + "H2 at SNAPSHOT (a correct level, promising SI), the faulty store (injecting every anomaly kind), and two "
        + "faulty stores that lose updates, one promised postgres:repeatable-read (each lost update breaks the "
        + "promise) and one postgres:read-committed (the same anomaly is weaker than SI but allowed). "
        + "Prints each anomaly as it is published, and a status line per tenant. Stops on Ctrl-C or after "
        + "--duration, and stops everything it started.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:stopped as asked (Ctrl-C or --duration)",
      "1:an agent failed, or the checker stopped by itself",
      "2:invalid option",
      "3:the stack could not start (the message says which part)"
    })
public final class DemoCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(DemoCommand.class);
  static final int EXIT_OK = 0;
  static final int EXIT_FAILED = 1;
  static final int EXIT_START = 3;
  /**
   * How often the two profile tenants lose an update: a few per minute at the default rate, enough to
   * see the same anomaly judged twice without flooding the terminal.
   */
  static final String LOST_UPDATE_RATE = "0.005";

  @Spec private CommandSpec spec;

  @Option(names = "--duration", paramLabel = "D",
      description = "Stop after this long (e.g. 90s, 10m); default: run until Ctrl-C.")
  private String duration;

  @Option(names = "--rate", paramLabel = "R", defaultValue = "100",
      description = "Transactions per second of each agent (default: ${DEFAULT-VALUE}).")
  private double rate;

  @Option(names = "--faults", paramLabel = "SPEC", defaultValue = "all=0.0005",
      description = "What the faulty store injects, as for `isowatch agent --target faulty:SPEC` "
          + "(default: ${DEFAULT-VALUE}, every kind now and then).")
  private String faults;

  @Option(names = "--keys", paramLabel = "K", defaultValue = "20",
      description = "Keys of each agent's key space (default: ${DEFAULT-VALUE}; fewer keys, more contention).")
  private int keys;

  @Option(names = "--http-port", paramLabel = "PORT", defaultValue = "9464",
      description = "Port of the checker's web UI, /metrics and /health on 127.0.0.1 (0: any free port; "
          + "default: ${DEFAULT-VALUE}).")
  private int httpPort;

  @Option(names = "--status-every", paramLabel = "D", defaultValue = "15s",
      description = "How often a status line per tenant is printed (default: ${DEFAULT-VALUE}).")
  private String statusEvery;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
      description = "Seed of the agents' workloads and faults (default: ${DEFAULT-VALUE}).")
  private long seed;

  @Override
  public Integer call() throws InterruptedException {
    final PrintWriter out = spec.commandLine().getOut();
    final Duration runFor;
    final Duration status;
    try {
      runFor = duration == null ? null : Durations.parse(duration);
      status = Durations.parse(statusEvery);
    } catch (final IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    if (!(rate > 0) || keys < 2 || httpPort < 0 || status.isZero()) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "--rate must be positive, --keys at least 2, --http-port at least 0, --status-every positive");
    }
    final Path workDir;
    try {
      workDir = workDir();
    } catch (final IOException e) {
      out.println("isowatch demo: cannot create a work directory: " + e.getMessage());
      return EXIT_START;
    }
    final CountDownLatch stop = new CountDownLatch(1);
    onInterrupt(stop);
    final List<DemoTenant> tenants = List.of(DemoTenant.h2Canary(), DemoTenant.faulty(faults),
        DemoTenant.lostUpdates("pg-rr-sim", "postgres:repeatable-read", LOST_UPDATE_RATE),
        DemoTenant.lostUpdates("pg-rc-sim", "postgres:read-committed", LOST_UPDATE_RATE));
    out.println("isowatch demo: starting; log and work files in " + workDir);
    out.flush();
    final long t0 = System.nanoTime();
    final DemoStack stack;
    try {
      final Map<String, String> settings = new LinkedHashMap<>(promiseSettings(tenants));
      settings.put(IsoWatchStreamsConfig.HTTP_PORT_CONFIG, Integer.toString(httpPort));
      settings.put(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "127.0.0.1");
      stack = DemoStack.start(workDir, settings, out);
    } catch (final Exception e) {
      LOG.error("Demo stack failed to start", e);
      out.println("isowatch demo: could not start: " + e.getMessage() + " (log: " + workDir.resolve("isowatch.log") + ")");
      return EXIT_START;
    }
    try (stack) {
      return runWith(stack, tenants, workDir, runFor, status, stop, out, t0);
    } finally {
      deleteState(workDir);
      out.println("isowatch demo: stopped; log kept in " + workDir.resolve("isowatch.log"));
      out.flush();
    }
  }

  /**
   * The tenants' promises as the checker's configuration ({@code tenant.promises} for database
   * profiles, {@code tenant.promised.levels} for levels listed one by one), so that its metrics and
   * web UI separate "promise broken" from "weaker than X but allowed" as the terminal does; and
   * {@code check.levels} covering every level a tenant is promised (with SSER, SER and SI, the
   * default), so that every promise is decided: with the default alone, read committed's RC and the
   * weak part of the other promises would be "not checked".
   */
  static Map<String, String> promiseSettings(final List<DemoTenant> tenants) {
    final List<String> profiles = new java.util.ArrayList<>();
    final List<String> levels = new java.util.ArrayList<>();
    final Set<Level> checked = EnumSet.of(Level.SSER, Level.SER, Level.SI);
    for (final DemoTenant t : tenants) {
      if (t.profile()) {
        profiles.add(t.tenant() + "=" + t.promise().spec());
      } else {
        t.promise().guarantees().forEach(l -> levels.add(t.tenant() + ":" + l.name()));
      }
      checked.addAll(t.promise().levelsToCheck());
    }
    return Map.of(IsoWatchStreamsConfig.TENANT_PROMISES_CONFIG, String.join(",", profiles),
        IsoWatchStreamsConfig.TENANT_PROMISED_LEVELS_CONFIG, String.join(",", levels),
        IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG,
        String.join(",", Level.weakestFirst(checked).stream().map(Level::name).toList()));
  }

  private int runWith(final DemoStack stack, final List<DemoTenant> tenants, final Path workDir, final Duration runFor,
      final Duration status, final CountDownLatch stop, final PrintWriter out, final long t0)
      throws InterruptedException {
    final String ui = "http://127.0.0.1:" + stack.checker().httpPort();
    final Map<String, DemoTenant> byName = new LinkedHashMap<>();
    tenants.forEach(t -> byName.put(t.tenant(), t));
    final FeedPrinter feed = FeedPrinter.start(stack.bootstrapServers(), stack.registryUrl(), byName, ui, out, status);
    final DemoAgents agents;
    try {
      agents = DemoAgents.start(tenants, stack.bootstrapServers(), stack.registryUrl(), rate, keys, seed);
    } catch (final Exception e) {
      LOG.error("Demo agents failed to start", e);
      out.println("isowatch demo: the agents could not start: " + e.getMessage());
      feed.close();
      return EXIT_START;
    }
    synchronized (out) {
      out.printf(Locale.ROOT, "isowatch demo: ready in %.1f s. Web UI: %s/%n", (System.nanoTime() - t0) / 1e9, ui);
      out.println("isowatch demo: agents (" + fmt(rate) + " txn/s each):");
      tenants.forEach(t -> out.println("  " + String.format(Locale.ROOT, "%-12s %s", t.tenant(), t.description())));
      out.println("isowatch demo: anomalies appear below as the checker publishes them"
          + (runFor == null ? "; Ctrl-C stops." : "; stopping after " + runFor.toSeconds() + " s."));
      out.flush();
    }
    final int exit = awaitStop(stack, agents, feed, runFor, stop, out);
    agents.close();
    // The checker has published what it will about the last transactions once their grace has
    // passed; a last status shows the final counts.
    feed.printStatus();
    feed.close();
    printSummary(agents.summaries(), feed.anomaliesByTenant(), out);
    return agents.failures().isEmpty() ? exit : EXIT_FAILED;
  }

  private static int awaitStop(final DemoStack stack, final DemoAgents agents, final FeedPrinter feed,
      final Duration runFor, final CountDownLatch stop, final PrintWriter out) throws InterruptedException {
    final long deadline = runFor == null ? Long.MAX_VALUE : System.nanoTime() + runFor.toNanos();
    while (!stop.await(500, TimeUnit.MILLISECONDS)) {
      feed.printStatusIfDue();
      if (!stack.checker().healthy() && stack.checker().failed()) {
        out.println("isowatch demo: the checker stopped by itself (see the log)");
        return EXIT_FAILED;
      }
      if (!agents.failures().isEmpty()) {
        agents.failures().forEach((t, e) -> out.println("isowatch demo: agent " + t + " failed: " + e.getMessage()));
        return EXIT_FAILED;
      }
      if (System.nanoTime() >= deadline) {
        break;
      }
    }
    synchronized (out) {
      out.println("isowatch demo: stopping the agents, the checker, the registry and the broker…");
      out.flush();
    }
    return EXIT_OK;
  }

  private static void printSummary(final Map<String, RunSummary> summaries, final Map<String, Long> anomalies,
      final PrintWriter out) {
    synchronized (out) {
      summaries.forEach((tenant, s) -> out.printf(Locale.ROOT,
          "isowatch demo: %-12s %,d committed, %,d aborted, %,d unknown (%.1f txn/s); %,d anomalies printed%n",
          tenant, s.committed(), s.aborted(), s.unknown(), s.rate(), anomalies.getOrDefault(tenant, 0L)));
      out.flush();
    }
  }

  /**
   * Ctrl-C (SIGINT) and SIGTERM ask for an orderly stop instead of starting the JVM's shutdown,
   * during which the broker's and the registry's own shutdown hooks would race the agents still
   * publishing. A second signal restores the default, which exits at once (the hooks then still
   * stop the registry's process).
   */
  private static void onInterrupt(final CountDownLatch stop) {
    for (final String name : List.of("INT", "TERM")) {
      try {
        final Signal signal = new Signal(name);
        final sun.misc.SignalHandler[] previous = new sun.misc.SignalHandler[1];
        previous[0] = Signal.handle(signal, s -> {
          stop.countDown();
          Signal.handle(s, previous[0]);
        });
      } catch (final IllegalArgumentException unsupported) {
        // No such signal on this platform: the JVM's default handling (shutdown hooks) applies.
        LOG.info("Signal not handled, the default applies signal=[{}]", name);
      }
    }
  }

  private static Path workDir() throws IOException {
    final String fromMain = System.getProperty(Main.DEMO_LOG_DIR_PROPERTY);
    return fromMain != null ? Path.of(fromMain) : Files.createTempDirectory("isowatch-demo-");
  }

  /** Deletes the checker's RocksDB state (the log stays, for a look after the run). */
  private static void deleteState(final Path workDir) {
    final Path state = workDir.resolve("state");
    if (!Files.exists(state)) {
      return;
    }
    try (Stream<Path> files = Files.walk(state)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (final IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (final IOException | UncheckedIOException e) {
      LOG.warn("Could not delete the demo's state directory dir=[{}] error=[{}]", state, e.toString());
    }
  }

  private static String fmt(final double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
