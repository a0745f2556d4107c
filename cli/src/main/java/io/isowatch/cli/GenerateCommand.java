package io.isowatch.cli;

import io.isowatch.core.format.JsonlHistoryWriter;
import io.isowatch.core.gen.GenerationSummary;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedAnomaly;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.RegisterHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch generate}: writes a generated mini-transaction history as native JSONL, streaming,
 * so histories larger than memory can be written. Exit 0 on success, 1 when the output cannot be
 * written, 2 when the options are invalid.
 */
@Command(name = "generate", mixinStandardHelpOptions = true,
    description = "Generate a mini-transaction history (simulated SER or SI database, optional injected"
        + " anomalies) as native JSONL.")
public final class GenerateCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Option(names = "--txns", paramLabel = "N", defaultValue = "" + GeneratorConfig.DEFAULT_TRANSACTIONS,
      description = "Transactions in total, injected ones included (default: ${DEFAULT-VALUE}).")
  long transactions;

  @Option(names = "--level", paramLabel = "LEVEL", defaultValue = "ser",
      converter = GeneratorOptions.SimulatedLevelConverter.class,
      description = "Simulated database: ser (serial, also strictly serializable) or si (snapshot isolation,"
          + " first-committer-wins) (default: ${DEFAULT-VALUE}).")
  SimulatedLevel level;

  @Option(names = "--no-times", description = "Omit start and end times (SSER then cannot be decided).")
  boolean noTimes;

  @Option(names = "--out", paramLabel = "FILE", required = true,
      description = "Output JSONL file, or - for standard output.")
  String out;

  @Mixin
  GeneratorOptions options;

  @Option(names = "--workload", paramLabel = "W", defaultValue = "mt",
      description = "mt: mini-transactions (every write reads its key first); rw-register: transactions of --ops "
          + "operations on uniformly chosen keys, reads with probability --read-ratio, writes blind (PolySI's and "
          + "Cobra's benchmarks; --sessions, --keys, --seed and --level apply, always with times) (default: "
          + "${DEFAULT-VALUE}).")
  String workload;

  @Option(names = "--ops", paramLabel = "N", defaultValue = "15",
      description = "rw-register: operations per transaction (default: ${DEFAULT-VALUE}).")
  int ops;

  @Option(names = "--read-ratio", paramLabel = "R", defaultValue = "0.5",
      description = "rw-register: probability that an operation is a read (default: ${DEFAULT-VALUE}).")
  double readRatio;

  @Override
  public Integer call() {
    final PrintWriter err = spec.commandLine().getErr();
    final GeneratorConfig config;
    final RegisterHistoryGenerator.Config register;
    try {
      config = options.toConfig(transactions, level, !noTimes);
      register = switch (workload) {
        case "mt" -> null;
        case "rw-register" -> new RegisterHistoryGenerator.Config(config.seed(), transactions, config.sessions(),
            config.keys(), ops, readRatio, level);
        default -> throw new IllegalArgumentException("unknown workload '" + workload + "' (expected mt or rw-register)");
      };
    } catch (final IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    final boolean toStdout = "-".equals(out);
    final GenerationSummary summary;
    try (JsonlHistoryWriter writer = new JsonlHistoryWriter(open(toStdout))) {
      summary = register != null
          ? RegisterHistoryGenerator.generate(register, writer::write)
          : MtHistoryGenerator.generate(config, writer::write);
    } catch (final IOException e) {
      err.println("error: cannot write " + (toStdout ? "standard output" : out) + ": " + e.getMessage());
      return 1;
    }
    // With the history on standard output, the summary must not mix into it.
    report(toStdout ? err : spec.commandLine().getOut(), summary);
    return 0;
  }

  private Writer open(final boolean toStdout) throws IOException {
    if (toStdout) {
      return new FilterWriter(spec.commandLine().getOut()) {
        @Override
        public void close() throws IOException {
          // Standard output belongs to the caller: flush, never close.
          flush();
        }
      };
    }
    return Files.newBufferedWriter(Path.of(out), StandardCharsets.UTF_8);
  }

  private void report(final PrintWriter w, final GenerationSummary s) {
    w.printf("generated %d transactions (%d committed, %d aborted) to %s%n", s.transactions(), s.committed(),
        s.aborted(), "-".equals(out) ? "standard output" : out);
    for (final InjectedAnomaly a : s.injected()) {
      w.printf("injected %s at #%d: %s on %s%n", a.kind().patternName(), a.firstIndex(),
          String.join(",", a.txnIds()), String.join(",", a.keys()));
    }
    w.flush();
  }
}
