package io.isowatch.cli;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.ListAppendHistoryGenerator;
import io.isowatch.core.gen.RegisterHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import picocli.CommandLine.Option;

/**
 * The workload options of {@code generate} and {@code bench}: mini-transactions (the default),
 * rw-register with blind writes, or Elle's list-append.
 */
public final class WorkloadOptions {
  @Option(names = "--workload", paramLabel = "W", defaultValue = "mt",
      description = "mt: mini-transactions (every write reads its key first); rw-register: transactions of --ops "
          + "operations on keys drawn by --dist (uniform by default; PolySI's workload is zipf), reads with probability --read-ratio, writes blind (PolySI's and "
          + "Cobra's benchmarks); list-append: Elle's list-append workload, transactions of 1 to --ops operations, "
          + "reads of whole lists with probability --read-ratio, otherwise appends of the key's next element, --keys "
          + "keys active at a time, each retired after --max-writes-per-key appends. rw-register and list-append use "
          + "--sessions, --keys, --seed and the simulated level (rw-register also --dist), always with times (default: ${DEFAULT-VALUE}).")
  String workload;

  @Option(names = "--ops", paramLabel = "N",
      description = "rw-register: operations per transaction (default 15); list-append: the most operations of a "
          + "transaction (default " + ListAppendHistoryGenerator.Config.DEFAULT_OPS + ", Elle's).")
  Integer ops;

  @Option(names = "--read-ratio", paramLabel = "R", defaultValue = "0.5",
      description = "rw-register and list-append: probability that an operation is a read (default: ${DEFAULT-VALUE}).")
  double readRatio;

  @Option(names = "--max-writes-per-key", paramLabel = "N",
      defaultValue = "" + ListAppendHistoryGenerator.Config.DEFAULT_MAX_WRITES_PER_KEY,
      description = "list-append: appends a key gets before a fresh key replaces it (default: ${DEFAULT-VALUE}, "
          + "Elle's).")
  int maxWritesPerKey;

  /** True for the default mini-transaction workload. */
  boolean isMt() {
    return "mt".equals(workload);
  }

  /**
   * The rw-register config, or null for another workload.
   *
   * @throws IllegalArgumentException for an unknown workload or invalid options
   */
  RegisterHistoryGenerator.Config register(final GeneratorConfig c, final long transactions,
      final SimulatedLevel level) {
    check();
    return "rw-register".equals(workload) ? new RegisterHistoryGenerator.Config(c.seed(), transactions, c.sessions(),
        c.keys(), ops == null ? 15 : ops, readRatio, level, c.distribution()) : null;
  }

  /**
   * The list-append config, or null for another workload.
   *
   * @throws IllegalArgumentException for an unknown workload or invalid options
   */
  ListAppendHistoryGenerator.Config listAppend(final GeneratorConfig c, final long transactions,
      final SimulatedLevel level) {
    check();
    return "list-append".equals(workload) ? new ListAppendHistoryGenerator.Config(c.seed(), transactions,
        c.sessions(), c.keys(), ops == null ? ListAppendHistoryGenerator.Config.DEFAULT_OPS : ops, readRatio,
        maxWritesPerKey, level) : null;
  }

  /**
   * Refuses injected anomalies for a workload whose generator has none: only the mini-transaction
   * generator injects ({@code --inject}); the others would silently write a history without them.
   *
   * @throws IllegalArgumentException when injections are asked for another workload
   */
  void refuseInjections(final java.util.List<io.isowatch.core.gen.Injection> injections) {
    check();
    if (!isMt() && !injections.isEmpty()) {
      throw new IllegalArgumentException("--inject is supported only with --workload mt (mini-transactions); the "
          + workload + " workload generates histories of a correct simulated database, without injected anomalies");
    }
  }

  private void check() {
    switch (workload) {
      case "mt", "rw-register", "list-append" -> { }
      default -> throw new IllegalArgumentException("unknown workload '" + workload
          + "' (expected mt, rw-register or list-append)");
    }
  }
}
