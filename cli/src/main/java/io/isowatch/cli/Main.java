package io.isowatch.cli;

import io.isowatch.streams.RunCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExecutionStrategy;
import picocli.CommandLine.IFactory;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code isowatch} command. Each subcommand is one entry in {@code subcommands}; a subcommand
 * class with a public {@code (Services)} constructor gets the shared {@link Services}. This module
 * assembles the commands of every other one (docs/architecture.md): none of them knows this one.
 *
 * <p>Exit codes are those of {@link ExitCodes}: usage errors are 2 (with the usage on stderr),
 * {@link CliFailure}s are 2 with one line per problem on stderr; any other exception and any
 * {@link Error}, in a command or in another thread, is 3 with one line saying what happened (see
 * {@link Fatal}), followed by the stack trace when it is a bug.
 */
@Command(
    name = "isowatch",
    // Inherited: every subcommand gets -h/--help and -V/--version without declaring them.
    scope = ScopeType.INHERIT,
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = Main.DESCRIPTION,
    subcommands = {
      HelpCommand.class,
      CheckCommand.class,
      ConvertCommand.class,
      GenerateCommand.class,
      BenchCommand.class,
      io.isowatch.streams.TopicsCommand.class,
      io.isowatch.streams.RunCommand.class,
      ReplayCommand.class,
      io.isowatch.streams.ops.ResetCommand.class,
      io.isowatch.streams.ops.DlqCommand.class,
      io.isowatch.agent.cli.AgentCommand.class,
      io.isowatch.cli.demo.DemoCommand.class,
    })
public final class Main implements Runnable {
  @Spec private CommandSpec spec;

  /** The description of {@code isowatch} in its usage help. */
  static final String DESCRIPTION = "Checks database transaction histories for isolation anomalies (SSER, SER, SI).";

  /** picocli's switch that skips its lookup of Groovy's {@code Closure} class. */
  static final String NO_CLOSURES_PROPERTY = "picocli.disable.closures";

  /** The slf4j-simple property that sets the level of every logger without its own. */
  static final String LOG_LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

  public static void main(final String[] args) {
    // The report is the CLI's output; the core's INFO lines (e.g. ops a reader skipped) would only
    // clutter the terminal. -Dorg.slf4j.simpleLogger.defaultLogLevel=info in ISOWATCH_JAVA_OPTS
    // brings them back. Set before the first logger exists, which reads it once.
    if (args.length > 0 && "run".equals(args[0])) {
      // `run` is a service: its log is its output, so it keeps INFO (see RunCommand.LOG_DEFAULTS).
      RunCommand.LOG_DEFAULTS.forEach((k, v) -> {
        if (System.getProperty(k) == null) {
          System.setProperty(k, v);
        }
      });
    }
    // Commands that start a broker, a registry and Kafka Streams in this JVM own the terminal:
    // their logs go to a file in their work directory.
    if (args.length > 0 && "demo".equals(args[0])) {
      logToFile(DEMO_LOG_DIR_PROPERTY, "isowatch-demo-", "isowatch.log");
    }
    if (args.length > 0 && "replay".equals(args[0])) {
      logToFile(ReplayCommand.WORK_DIR_PROPERTY, "isowatch-replay-", "replay.log");
    }
    if (System.getProperty(LOG_LEVEL_PROPERTY) == null) {
      System.setProperty(LOG_LEVEL_PROPERTY, "warn");
    }
    // picocli's default factory looks for Groovy's Closure class once; on this class path (80-odd
    // jars) that miss opens every jar, some 50-80 ms of CPU on the main thread before a check
    // starts (docs/benchmarks.md, clifast4). IsoWatch declares no Groovy closures.
    if (System.getProperty(NO_CLOSURES_PROPERTY) == null) {
      System.setProperty(NO_CLOSURES_PROPERTY, "true");
    }
    System.exit(execute(() -> commandLineFor(Services.real(), args), args));
  }

  /**
   * Runs a command line as a process's {@code main} does and returns the process's exit code: 3
   * for any {@link Error} or unexpected exception, in the command or in another thread (an Error
   * in another thread halts the JVM with 3 at once). {@code agent}'s own {@code main} runs through
   * here too.
   */
  public static int execute(final java.util.function.Supplier<CommandLine> commandLine, final String... args) {
    final PrintWriter err = new PrintWriter(System.err, true);
    Fatal.installThreadHandler(err);
    int code;
    try {
      final CommandLine cl = withExitCodes(commandLine.get());
      cl.setErr(err);
      code = cl.execute(args);
    } catch (final Throwable t) {
      // withExitCodes maps what a command throws; this catches the rest (building, parsing, picocli).
      code = Fatal.report(t, err);
    }
    return Fatal.exitCode(code);
  }

  /**
   * The system property naming the directory of {@code isowatch demo}'s log (set by {@link #main});
   * the demo keeps its work files there too.
   */
  public static final String DEMO_LOG_DIR_PROPERTY = "isowatch.demo.dir";

  /**
   * Sends the log of a command that owns the terminal (its output is the user's view) to
   * {@code logName} in a new temporary directory, at INFO with Kafka at WARN, and names the
   * directory in {@code dirProperty}. Set before the first logger exists, which reads it once.
   */
  private static void logToFile(final String dirProperty, final String prefix, final String logName) {
    try {
      final Path dir = Files.createTempDirectory(prefix);
      // Removed at exit when nothing was written into it (--help, a usage error); a directory
      // holding logs is kept or deleted by the command itself.
      dir.toFile().deleteOnExit();
      System.setProperty(dirProperty, dir.toString());
      RunCommand.LOG_DEFAULTS.forEach((k, v) -> {
        if (System.getProperty(k) == null) {
          System.setProperty(k, v);
        }
      });
      // The in-process broker's own loggers (kafka.*, state.change.logger) are not under org.apache.kafka.
      for (final String broker : new String[] {"kafka", "state.change.logger", "org.apache.kafka"}) {
        System.setProperty("org.slf4j.simpleLogger.log." + broker,
            System.getProperty("org.slf4j.simpleLogger.log." + broker, "warn"));
      }
      if (System.getProperty("org.slf4j.simpleLogger.logFile") == null) {
        System.setProperty("org.slf4j.simpleLogger.logFile", dir.resolve(logName).toString());
      }
    } catch (final IOException e) {
      // The log then goes to stderr, as for every other command: noisier, not wrong.
      System.err.println("isowatch: cannot create a log directory, logging to stderr: " + e.getMessage());
    }
  }

  /**
   * The command line that runs {@code args}: when the first argument is {@code check}, {@code
   * isowatch} with {@code check} as its only subcommand ({@link #checkCommandLine}), otherwise the
   * whole {@link #commandLine}. picocli builds the model of every subcommand it is given (the
   * reflection over each one's options, a version lookup per command), about a third of the CPU a
   * small {@code check} took before it started reading (docs/benchmarks.md, clifast4); {@code
   * check}'s parsing, help, errors and exit codes are the same either way ({@code MainTest}).
   */
  static CommandLine commandLineFor(final Services services, final String... args) {
    return args.length > 0 && CHECK.equals(args[0]) ? checkCommandLine(services) : commandLine(services);
  }

  private static final String CHECK = "check";

  /** {@code isowatch} with only its {@code check} subcommand: see {@link #commandLineFor}. */
  static CommandLine checkCommandLine(final Services services) {
    return withExitCodes(new CommandLine(new CheckOnly(), new ServicesFactory(services)));
  }

  /** {@link Main}'s command with {@code check} alone: the same attributes, kept equal by {@code MainTest}. */
  @Command(
      name = "isowatch",
      scope = ScopeType.INHERIT,
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = DESCRIPTION,
      subcommands = {CheckCommand.class})
  static final class CheckOnly implements Runnable {
    @Spec private CommandSpec spec;

    @Override
    public void run() {
      throw new ParameterException(spec.commandLine(), "Missing subcommand");
    }
  }

  /** The configured command line; tests call this with their own services and writers. */
  public static CommandLine commandLine(final Services services) {
    return withExitCodes(new CommandLine(new Main(), new ServicesFactory(services)));
  }

  /**
   * Sets {@code isowatch}'s exit codes on a command line: {@link CliFailure} 2 with its lines,
   * any other exception and any {@link Error} 3 with {@link Fatal}'s line. Idempotent.
   */
  public static CommandLine withExitCodes(final CommandLine cl) {
    cl.setExecutionExceptionHandler(new FailureHandler());
    if (!(cl.getExecutionStrategy() instanceof ErrorsToExit3)) {
      cl.setExecutionStrategy(new ErrorsToExit3(cl.getExecutionStrategy()));
    }
    return cl;
  }

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "Missing subcommand");
  }

  /** Passes the services to commands that take them; everything else gets picocli's default. */
  private record ServicesFactory(Services services) implements IFactory {
    @Override
    public <K> K create(final Class<K> cls) throws Exception {
      for (final Constructor<?> c : cls.getConstructors()) {
        if (c.getParameterCount() == 1 && c.getParameterTypes()[0] == Services.class) {
          return cls.cast(c.newInstance(services));
        }
      }
      return CommandLine.defaultFactory().create(cls);
    }
  }

  /**
   * Maps an {@link Error} escaping a command (picocli passes only exceptions to the execution
   * exception handler and lets errors through, which would end the JVM with exit 1, the code of
   * "VIOLATED or UNKNOWN") to {@link Fatal}'s line and exit 3.
   */
  private record ErrorsToExit3(IExecutionStrategy inner) implements IExecutionStrategy {
    @Override
    public int execute(final ParseResult parsed) {
      // A hint left by an earlier command in this JVM (tests run many) must not name the wrong thing.
      Fatal.hint("");
      try {
        return inner.execute(parsed);
      } catch (final Error e) {
        return Fatal.report(e, parsed.commandSpec().commandLine().getErr());
      }
    }
  }

  /** Turns a {@link CliFailure} into its lines on stderr and exit 2; any other exception is a bug. */
  private static final class FailureHandler implements IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(final Exception ex, final CommandLine cmd, final ParseResult parsed) {
      if (ex instanceof CliFailure) {
        ex.getMessage().lines().forEach(l -> cmd.getErr().println("isowatch: " + l));
        cmd.getErr().flush();
        return ExitCodes.INVALID;
      }
      if (ex instanceof GraceBudget.GraceTooLarge) {
        // Not a bug: the run was stopped before the heap ran out; the line says why and what to do.
        cmd.getErr().println("isowatch: " + ex.getMessage());
        cmd.getErr().flush();
        return ExitCodes.INTERNAL;
      }
      return Fatal.report(ex, cmd.getErr());
    }
  }
}
