package io.isowatch.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.isowatch.agent.target.IsolationMix;
import io.isowatch.cli.bench.BenchEngine;
import io.isowatch.cli.bench.BenchReport;
import io.isowatch.cli.bench.CoreBenchmark;
import io.isowatch.cli.bench.HistorySource;
import io.isowatch.core.check.Level;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch bench}: throughput and memory of the checker core, one level at a time, on a
 * generated history (or a parsed file, whose parsing is timed separately). The table (or, with
 * {@code --json}, one JSON document) goes to standard output, progress to standard error. Exit 0
 * when the benchmark ran (whatever the verdicts), 1 on I/O errors, 2 on invalid options or input.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmark the checker core: txn/s per level and heap bytes per transaction.")
public final class BenchCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--txns", paramLabel = "N", defaultValue = "1000000",
      description = "Transactions to generate (default: ${DEFAULT-VALUE}).")
  long transactions;

  @Option(names = "--levels", paramLabel = "LEVELS", split = ",", defaultValue = CheckFlags.DEFAULT_LEVELS,
      converter = Converters.LevelConverter.class, description = "Levels to time, each on its own (default: ${DEFAULT-VALUE}).")
  List<Level> levels;

  @Option(names = "--declare", paramLabel = "LEVEL|mix:LEVEL=WEIGHT,...",
      description = "For --levels MIXED: give each transaction a declared level, as the agent's --isolation does "
          + "(e.g. mix:serializable=1,read-committed=3: a quarter SERIALIZABLE, drawn with --seed), replacing the "
          + "levels of --file; untimed.")
  String declare;

  @Option(names = "--default-level", paramLabel = "LEVEL", converter = Converters.DeclaredLevelConverter.class,
      description = "For --levels MIXED: the level of a transaction that declares none (RC, RA, CC, PC, SI or SER).")
  Level defaultLevel;

  @Option(names = "--repeat", paramLabel = "N", defaultValue = "3",
      description = "Measured runs per level; best and median are reported (default: ${DEFAULT-VALUE}).")
  int repeat;

  @Option(names = "--warmup", paramLabel = "N", defaultValue = "1",
      description = "Unmeasured runs per level first, for the JIT (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "online", converter = EngineConverter.class,
      description = "Engine to time: online, the one engine of check, the agent and the topology, replaying the "
          + "history in its canonical order; streaming, the same engine fed one transaction at a time as the topology "
          + "feeds it (grace 100 ms, verdict changes published after each); batch was removed and is a usage error "
          + "(default: ${DEFAULT-VALUE}).")
  BenchEngine engine;

  @Option(names = "--json", description = "Print one JSON document instead of the table.")
  boolean json;

  @Option(names = "--file", paramLabel = "FILE",
      description = "Check this history file instead of generating one; its parsing is timed too.")
  Path file;

  @Mixin
  HistoryFormatOption format;

  @Option(names = "--sim-level", paramLabel = "LEVEL", defaultValue = "ser",
      converter = GeneratorOptions.SimulatedLevelConverter.class,
      description = "Simulated database of the generated history: ser or si (default: ${DEFAULT-VALUE}).")
  SimulatedLevel simLevel;

  @Mixin
  GeneratorOptions options;

  @Mixin
  WorkloadOptions workload;

  @Override
  public Integer call() {
    final PrintWriter err = spec.commandLine().getErr();
    final HistorySource source;
    final CoreBenchmark bench;
    try {
      source = source();
      bench = new CoreBenchmark(engine, levels, warmup, repeat, err).declaring(defaultLevel, declarations());
    } catch (final IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    final BenchReport report;
    try {
      report = bench.run(source);
    } catch (final InvalidHistoryException e) {
      err.println("error: invalid history " + file + ": " + e.getMessage());
      return 2;
    } catch (final IOException e) {
      err.println("error: cannot read " + file + ": " + e.getMessage());
      return 1;
    } catch (final InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("error: interrupted");
      return 1;
    }
    final PrintWriter out = spec.commandLine().getOut();
    out.print(json ? toJson(report) : BenchTable.render(report));
    out.flush();
    return 0;
  }

  /** The --declare rewrite: each transaction's level drawn from the mix, seeded by --seed. */
  private UnaryOperator<History> declarations() {
    if (declare == null) {
      return UnaryOperator.identity();
    }
    final IsolationMix mix = IsolationMix.parse(declare);
    return h -> {
      final Random rnd = new Random(options.toConfig(transactions, simLevel, true).seed());
      final List<Transaction> out = new ArrayList<>(h.size());
      for (final Transaction t : h.transactions()) {
        out.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops(), t.tenant(),
            mix.pick(rnd).label(), t.line()));
      }
      return new History(out);
    };
  }

  private HistorySource source() {
    if (file == null) {
      final GeneratorConfig config = options.toConfig(transactions, simLevel, true);
      final var register = workload.register(config, transactions, simLevel);
      final var lists = workload.listAppend(config, transactions, simLevel);
      // As generate: the rw-register and list-append generators inject nothing; timing a correct
      // history while --inject asked for anomalies would mislead.
      workload.refuseInjections(options.injections);
      if (register != null) {
        return new HistorySource.GeneratedRegister(register);
      }
      return lists != null ? new HistorySource.GeneratedListAppend(lists) : new HistorySource.Generated(config);
    }
    final CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
    for (final String generatorOnly : List.of("--txns", "--inject", "--sim-level", "--sessions", "--keys", "--dist",
        "--read-only-ratio", "--shapes", "--inject-at", "--seed", "--workload", "--ops", "--read-ratio",
        "--max-writes-per-key")) {
      if (parsed.hasMatchedOption(generatorOnly)) {
        throw new IllegalArgumentException(generatorOnly + " applies to generated histories, not to --file");
      }
    }
    return new HistorySource.File(file, format.format());
  }

  static String toJson(final BenchReport report) {
    try {
      return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(report)
          + System.lineSeparator();
    } catch (final JsonProcessingException e) {
      // Records of numbers, strings, lists and maps always serialize; failing here is a bug.
      throw new IllegalStateException("cannot render the report as JSON", e);
    }
  }

  /** Reads an engine name, any case. */
  static final class EngineConverter extends Converters.Parsing<BenchEngine> {
    EngineConverter() {
      super(BenchEngine::parse);
    }
  }
}
