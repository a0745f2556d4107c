package io.isowatch.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.isowatch.cli.replay.FileReplay;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.profile.PromiseJudgement;
import io.isowatch.core.report.JsonReport;
import io.isowatch.core.report.TextReport;
import io.isowatch.localstack.LocalServiceException;
import io.isowatch.streams.CarriedLevels;
import io.isowatch.streams.ConfigFileOption;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.replay.Progress;
import io.isowatch.streams.replay.Replayer;
import io.isowatch.streams.replay.TopicReplay;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch replay}: checks a history through the streaming checker, end to end, and prints
 * the report of {@code isowatch check}.
 *
 * <ul>
 *   <li>{@code --file F}: starts a broker and a schema registry (both in this JVM; the registry as a
 *       child process with {@code -Disowatch.replay.registry=child}), publishes
 *       the file as one tenant through the producer path, runs the checker topology until it has
 *       consumed everything, and prints the report built from what the topology published: the
 *       same text, the same JSON contract and the same exit codes as {@code isowatch check F}.
 *   <li>{@code --topic T --from-beginning}: re-checks a recorded topic on a configured broker under
 *       a fresh application id ({@link TopicReplay}); one report per tenant.
 * </ul>
 *
 * <p>Logs (Kafka's, the checker's) go to {@code replay.log} in the work directory, not the
 * terminal; the work directory is deleted after a successful run unless {@code --keep}.
 */
@Command(
    name = "replay",
    sortOptions = false,
    description = {
      "Check a history through the streaming checker (a real broker, registry and Kafka Streams) and print"
          + " the report of 'isowatch check'.",
      "  --file F: a broker and a registry are started in this JVM for the run;",
      "    verdicts equal 'isowatch check F'.",
      "  --topic T --from-beginning: re-check a recorded topic on a broker",
      "    configured as for 'isowatch run' (--config, --bootstrap, --registry;",
      "    one report per tenant); the check options not given come",
      "    from its configuration (check.levels, check.initial.value,",
      "    check.rt.skew.us, check.max.anomalies)."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every requested level is SATISFIED (for every tenant; with --promise: every promised level checked)",
      "1:some requested level is VIOLATED or UNKNOWN (for some tenant; with --promise: some promised level)",
      "2:invalid input, configuration or usage (the reason on stderr)",
      "3:internal error, or the streaming checker failed (see the log)"
    })
public final class ReplayCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(ReplayCommand.class);
  /** System property naming the work directory; Main sets it before the first logger exists. */
  public static final String WORK_DIR_PROPERTY = "isowatch.replay.dir";
  private static final String DEFAULT_TENANT = "replay";
  /** From this size on, {@code --file} starts the broker and the registry while reading the file. */
  static final long EARLY_START_BYTES = 8L * 1024 * 1024;

  private final Services services;

  @Spec private CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  private Source source;

  /** Where the history comes from. */
  static final class Source {
    @Option(names = "--file", paramLabel = "FILE", description = "A history file (any format 'check' reads).")
    String file;

    @Option(names = "--topic", paramLabel = "TOPIC", description = "A recorded topic of TransactionEvents.")
    String topic;
  }

  @Option(names = "--from-beginning", description = "With --topic: re-check from the first retained record"
      + " (the only mode; required, so that the range is explicit).")
  private boolean fromBeginning;

  @Mixin private CheckFlags checkFlags;

  @Mixin private HistoryFormatOption historyFormat;

  @Option(names = "--json", description = "Print JSON instead of the text report (--file: the document of"
      + " 'check --json'; --topic: {\"tenants\": {TENANT: that document}}).")
  private boolean json;

  @Option(names = "--grace-ms", paramLabel = "MS",
      description = "Bounded lateness of the checker. Default with --file: the smallest under which no transaction"
          + " of the file is late in its order (longer than its span of end times where a value is written twice,"
          + " an id reused, a time far ahead, or lists appended); with --topic: check.grace.ms.")
  private Long graceMs;

  @Option(names = "--tenant", paramLabel = "NAME",
      description = "With --file: the tenant the file is published as (default: the file's tenant when all its"
          + " transactions name the same one, else '" + DEFAULT_TENANT + "').")
  private String tenant;

  @Option(names = "--bootstrap", paramLabel = "HOST:PORT", description = "With --topic: Kafka bootstrap servers"
      + " (default: bootstrap.servers).")
  private String bootstrap;

  @Option(names = "--registry", paramLabel = "URL", description = "With --topic: schema registry base URL"
      + " (default: schema.registry.url).")
  private String registry;

  @Mixin private ConfigFileOption configFile;

  @Option(names = "--keep", description = "Keep what the replay created: with --topic its topics, group, subjects"
      + " and state; with both its work directory (logs).")
  private boolean keep;

  @Option(names = {"-q", "--quiet"}, description = "No progress bar on stderr.")
  private boolean quiet;

  public ReplayCommand(final Services services) {
    this.services = services;
  }

  @Override
  public Integer call() throws Exception {
    final PrintWriter err = spec.commandLine().getErr();
    final Progress progress = quiet ? Progress.NONE : Progress.bar(err);
    final Path workDir = workDir();
    boolean ok = false;
    try {
      final int exit = source.file != null ? replayFile(workDir, progress, err) : replayTopic(progress);
      ok = true;
      return exit;
    } catch (final Replayer.ReplayException e) {
      err.println("isowatch replay: " + e.getMessage() + " (log: " + workDir.resolve("replay.log") + ")");
      err.flush();
      return ExitCodes.INTERNAL;
    } catch (final LocalServiceException e) {
      // The machine's fault, not a bug and not a verdict: one line (its log says more), exit 3.
      LOG.error("Local broker or registry could not start", e);
      err.println("isowatch replay: could not start: " + e.getMessage());
      err.flush();
      return ExitCodes.INTERNAL;
    } finally {
      if ((ok && !keep) || isEmpty(workDir)) {
        deleteWorkDir(workDir);
      } else if (!ok) {
        err.println("isowatch replay: logs kept in " + workDir);
        err.flush();
      }
    }
  }

  private int replayFile(final Path workDir, final Progress progress, final PrintWriter err) throws Exception {
    if (fromBeginning || bootstrap != null || registry != null || configFile.given()) {
      throw new ParameterException(spec.commandLine(),
          "--from-beginning, --bootstrap, --registry and --config go with --topic, not --file");
    }
    final Map<String, String> settings = checkSettings(true);
    if (graceMs != null) {
      settings.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, Long.toString(graceMs));
    }
    validate(settings);
    // A large file: the broker (and the registry child, if asked for) start (3-4 s) while it is
    // read. A small one (or stdin) is read first, so that what is wrong with it is said before anything starts.
    final FileReplay.Stack early = readsLong(source.file) ? FileReplay.Stack.start(workDir, notice(err)) : null;
    final History history;
    try {
      history = HistoryInput.read(source.file, historyFormat.format(), services);
      if (history.size() == 0) {
        throw new CliFailure(HistoryInput.displayName(source.file) + ": the history has no transactions to replay");
      }
    } catch (final Exception | Error e) {
      if (early != null) {
        early.close();
      }
      throw e;
    }
    final FileReplay.Stack stack = early != null ? early : FileReplay.Stack.start(workDir, notice(err));
    final String name = tenant != null ? tenant : tenantOf(history);
    final Map<String, CheckResult> results = FileReplay.run(stack, history, name, settings, workDir, progress);
    final CheckResult result = results.get(name);
    if (result == null) {
      throw new Replayer.ReplayException("the checker published no verdict for tenant " + name);
    }
    if (result.hasInvalidInput()) {
      throw new CliFailure(CheckCommand.invalidInputMessage(HistoryInput.displayName(source.file),
          result.findings()));
    }
    return CheckCommand.printReport(result, checkFlags.promise().orElse(null), json, services,
        spec.commandLine().getOut());
  }

  private int replayTopic(final Progress progress) throws Exception {
    if (!fromBeginning) {
      throw new ParameterException(spec.commandLine(), "--topic needs --from-beginning (the only replay range)");
    }
    if (tenant != null) {
      throw new ParameterException(spec.commandLine(), "--tenant goes with --file, not --topic");
    }
    final Map<String, String> flags = checkSettings(false);
    if (graceMs != null) {
      flags.put(IsoWatchStreamsConfig.CHECK_GRACE_MS_CONFIG, Long.toString(graceMs));
    }
    if (bootstrap != null) {
      flags.put(IsoWatchStreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    }
    if (registry != null) {
      flags.put(IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, registry);
    }
    final IsoWatchStreamsConfig base;
    try {
      base = configFile.load(flags);
    } catch (final ConfigException | IOException e) {
      throw new CliFailure("invalid configuration: " + e.getMessage());
    }
    final TopicReplay.Run run = TopicReplay.plan(base, source.topic);
    final Map<String, CheckResult> results;
    try {
      results = TopicReplay.run(base, run, keep, progress);
    } catch (final IllegalArgumentException | KafkaException e) {
      throw new CliFailure("cannot replay topic " + source.topic + ": " + e.getMessage());
    }
    if (keep) {
      spec.commandLine().getErr().println("isowatch replay: kept application id " + run.applicationId()
          + ", topics " + run.topics().anomalies().name() + ", " + run.topics().verdicts().name() + ", "
          + run.topics().deadLetters().name() + ", state " + run.stateDir());
    }
    return print(results);
  }

  /** One report per tenant (sorted by name); the exit code is the worst of the tenants'. */
  private int print(final Map<String, CheckResult> results) throws IOException {
    final PrintWriter out = spec.commandLine().getOut();
    if (json) {
      final ObjectMapper mapper = new ObjectMapper();
      final ObjectNode root = mapper.createObjectNode();
      final ObjectNode tenants = root.putObject("tenants");
      results.forEach((name, r) -> tenants.set(name, JsonReport.toTree(r, judgement(r))));
      out.println(mapper.writerWithDefaultPrettyPrinter().writeValueAsString(root));
    } else if (results.isEmpty()) {
      out.println("IsoWatch replay: the topic holds no transactions to check.");
    } else {
      final TextReport text = new TextReport(services.colour());
      results.forEach((name, r) -> {
        out.println("== tenant " + name);
        out.print(text.render(r, judgement(r)));
        out.println();
      });
    }
    out.flush();
    int exit = ExitCodes.OK;
    for (final CheckResult r : results.values()) {
      final int code = r.hasInvalidInput() ? ExitCodes.INVALID : CheckCommand.exitCode(r, judgement(r));
      exit = Math.max(exit, code);
    }
    return exit;
  }

  /** The result read against --promise, or null without one. */
  private PromiseJudgement judgement(final CheckResult r) {
    return checkFlags.promise().map(p -> PromiseJudgement.of(p, r.verdicts())).orElse(null);
  }

  /**
   * The check settings as configuration: with --file all of them (check's defaults for those not
   * given), with --topic only those given (the configuration has the others).
   */
  private Map<String, String> checkSettings(final boolean withDefaults) {
    // A promise adds only the levels the topology decides; the others are reported as not checked.
    final CheckOptions options = checkFlags.options(CarriedLevels.all());
    final Map<String, String> s = new HashMap<>();
    if (withDefaults || checkFlags.given("--levels") || checkFlags.promise().isPresent()) {
      s.put(IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG,
          options.levels().stream().map(Enum::name).collect(Collectors.joining(",")));
    }
    if (options.defaultLevel() != null) {
      s.put(IsoWatchStreamsConfig.CHECK_DEFAULT_LEVEL_CONFIG, options.defaultLevel().name());
    }
    if (withDefaults || checkFlags.given("--initial-value")) {
      s.put(IsoWatchStreamsConfig.CHECK_INITIAL_VALUE_CONFIG, String.valueOf(options.initialValue()));
    }
    if (withDefaults || checkFlags.given("--rt-skew-us")) {
      s.put(IsoWatchStreamsConfig.CHECK_RT_SKEW_US_CONFIG, Long.toString(options.rtSkewMicros()));
    }
    if (withDefaults || checkFlags.given("--max-anomalies")) {
      s.put(IsoWatchStreamsConfig.CHECK_MAX_ANOMALIES_CONFIG, Integer.toString(options.maxAnomalies()));
    }
    if (withDefaults || checkFlags.given("--solver-budget")) {
      s.put(IsoWatchStreamsConfig.CHECK_SOLVER_BUDGET_MS_CONFIG, Long.toString(options.solverBudget().toMillis()));
    }
    return s;
  }

  /** Usage errors in the settings (a bad --initial-value, a negative skew) before anything starts. */
  private void validate(final Map<String, String> settings) {
    try {
      new IsoWatchStreamsConfig(settings);
    } catch (final ConfigException e) {
      throw new ParameterException(spec.commandLine(), "invalid option: " + e.getMessage());
    }
  }

  /** A file large enough that reading it takes about as long as starting a broker (not stdin). */
  private static boolean readsLong(final String file) {
    if (HistoryInput.STDIN.equals(file)) {
      return false;
    }
    try {
      return Files.size(Path.of(file)) >= EARLY_START_BYTES;
    } catch (final IOException | java.nio.file.InvalidPathException e) {
      return false; // read first: reading it says what is wrong
    }
  }

  private static Consumer<String> notice(final PrintWriter err) {
    return line -> {
      err.println("isowatch replay: " + line);
      err.flush();
    };
  }

  /** The tenant every transaction names, when they all name the same one. */
  static String tenantOf(final History history) {
    final List<String> tenants = history.transactions().stream().map(Transaction::tenant).distinct().toList();
    return tenants.size() == 1 && tenants.get(0) != null && !tenants.get(0).isBlank()
        ? tenants.get(0) : DEFAULT_TENANT;
  }

  /** The work directory: the one Main prepared (its log is there), else a new temporary one. */
  private static Path workDir() throws IOException {
    final String set = System.getProperty(WORK_DIR_PROPERTY);
    return set != null ? Path.of(set) : Files.createTempDirectory("isowatch-replay-");
  }

  private static boolean isEmpty(final Path dir) {
    try (var entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    } catch (final IOException e) {
      return false;
    }
  }

  private static void deleteWorkDir(final Path dir) {
    try (var all = Files.walk(dir)) {
      for (final Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (final IOException e) {
      // Left behind in the temporary directory; nothing depends on it.
    }
  }
}
