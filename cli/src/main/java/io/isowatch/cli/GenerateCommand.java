package io.isowatch.cli;

import io.isowatch.core.format.JsonlHistoryWriter;
import io.isowatch.core.gen.GenerationSummary;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedAnomaly;
import io.isowatch.core.gen.ListAppendHistoryGenerator;
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
 * {@code isowatch generate}: writes a generated history (--workload) as native JSONL, streaming,
 * so histories larger than memory can be written. Exit 0 on success, 1 when the output cannot be
 * written, 2 when the options are invalid.
 */
@Command(name = "generate", mixinStandardHelpOptions = true,
    description = "Generate a history (mini-transactions, rw-register with blind writes or list-append; simulated SER"
        + " or SI database; optional injected anomalies, --inject, for mini-transactions only) as native JSONL.")
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

  @Mixin
  WorkloadOptions workload;

  @Override
  public Integer call() {
    final PrintWriter err = spec.commandLine().getErr();
    final GeneratorConfig config;
    final RegisterHistoryGenerator.Config register;
    final ListAppendHistoryGenerator.Config lists;
    try {
      config = options.toConfig(transactions, level, !noTimes);
      register = workload.register(config, transactions, level);
      lists = workload.listAppend(config, transactions, level);
      workload.refuseInjections(options.injections);
    } catch (final IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    final boolean toStdout = "-".equals(out);
    final GenerationSummary summary;
    try (JsonlHistoryWriter writer = new JsonlHistoryWriter(open(toStdout))) {
      if (register != null) {
        summary = RegisterHistoryGenerator.generate(register, writer::write);
      } else if (lists != null) {
        summary = ListAppendHistoryGenerator.generate(lists, writer::write);
      } else {
        summary = MtHistoryGenerator.generate(config, writer::write);
      }
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
