package io.isowatch.streams;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch run}: the streaming checker. Reads transactions from {@code isowatch.txn-events.v1},
 * publishes anomalies and verdicts, serves {@code /metrics} and {@code /health}, and runs until
 * SIGTERM or Ctrl-C, when it commits and closes cleanly. Local state is never wiped on start.
 *
 * <p>Exit codes: 0 stopped on request; 2 invalid configuration, unreadable config file or cluster
 * refusing the topic creation; 3 the checker died of an error (a bug: see the log).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Run the streaming checker until SIGTERM or Ctrl-C.",
      "Configuration: defaults < --config FILE < ISOWATCH_* environment < flags;",
      "see docs/config-reference.md."
    })
public final class RunCommand implements Callable<Integer> {
  /**
   * slf4j-simple levels of a running checker, set by Main before the first logger exists unless
   * given with -D: IsoWatch at INFO; Kafka's clients, which log every connection at INFO, and
   * Apicurio's, at WARN.
   */
  public static final Map<String, String> LOG_DEFAULTS = Map.of(
      "org.slf4j.simpleLogger.defaultLogLevel", "info",
      "org.slf4j.simpleLogger.log.org.apache.kafka", "warn",
      "org.slf4j.simpleLogger.log.io.apicurio", "warn",
      "org.slf4j.simpleLogger.showDateTime", "true",
      "org.slf4j.simpleLogger.dateTimeFormat", "yyyy-MM-dd'T'HH:mm:ss.SSSZ");

  static final int EXIT_STOPPED = 0;
  static final int EXIT_INVALID = 2;
  static final int EXIT_FAILED = 3;

  @Spec private CommandLine.Model.CommandSpec spec;

  @Mixin private ConfigFileOption configFile;

  @Option(names = "--dev", description = "Development: register schemas and create topics at startup.")
  private boolean dev;

  @Option(names = "--print-config-docs", description = "Print the configuration reference (Markdown) and exit.")
  private boolean printConfigDocs;

  @Override
  public Integer call() throws Exception {
    final PrintWriter out = spec.commandLine().getOut();
    final PrintWriter err = spec.commandLine().getErr();
    if (printConfigDocs) {
      out.print(ConfigReference.markdown());
      out.flush();
      return EXIT_STOPPED;
    }
    final IsoWatchStreamsConfig config;
    try {
      config = configFile.load(flags());
      config.requireSafeHttpExposure();
    } catch (final ConfigException | java.io.IOException e) {
      err.println("isowatch run: invalid configuration: " + e.getMessage());
      err.flush();
      return EXIT_INVALID;
    }
    final CheckerApp app;
    try {
      app = CheckerApp.start(config);
    } catch (final KafkaException | java.util.concurrent.ExecutionException
        | java.util.concurrent.TimeoutException | java.io.IOException e) {
      err.println("isowatch run: cannot start: " + e);
      err.flush();
      return EXIT_INVALID;
    }
    // SIGTERM and Ctrl-C run shutdown hooks: close Kafka Streams cleanly there (commit, flush the
    // stores, leave the group), then let the main thread return.
    final Thread hook = new Thread(app::close, "isowatch-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    app.awaitStop();
    final boolean failed = app.failed();
    app.close();
    if (failed) {
      err.println("isowatch run: the checker stopped after an error (see the log)");
      err.flush();
      return EXIT_FAILED;
    }
    return EXIT_STOPPED;
  }

  /** The configuration set by flags, the highest precedence. */
  private Map<String, String> flags() {
    final Map<String, String> flags = new HashMap<>();
    if (dev) {
      flags.put(IsoWatchStreamsConfig.SCHEMAS_AUTO_REGISTER_CONFIG, "true");
      flags.put(IsoWatchStreamsConfig.TOPICS_CREATE_CONFIG, "true");
    }
    return flags;
  }
}
