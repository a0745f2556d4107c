package io.isowatch.cli.bench;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.online.OnlineOptions;
import java.util.Locale;

/**
 * The checker engine a benchmark times: the engine {@code isowatch check}, the agent's summary and
 * the topology run, given the whole history at once ({@link #ONLINE}) or one transaction at a time
 * as a stream ({@link #STREAMING}). The batch engine that {@code --engine batch} used to select is a
 * test-scope differential oracle now; asking for it is a usage error, so that a script comparing
 * the two engines fails instead of timing the same engine twice.
 */
public enum BenchEngine {
  /** The incremental engine replaying the history in π order: {@code OnlineChecker.check(history, options)}. */
  ONLINE,
  /**
   * The same engine as the topology and {@code replay} run it: one {@link OnlineChecker#accept}
   * per transaction in the history's order, with a grace period of {@link #STREAMING_GRACE_MICROS}
   * and events on, so that verdict changes are published after every transaction (the weak levels'
   * check is then re-run as {@code WeakVerdicts} allows), then a flush.
   */
  STREAMING;

  /** The grace period of {@link #STREAMING}: 100 ms, the soaks' {@code --grace-ms} default. */
  public static final long STREAMING_GRACE_MICROS = 100_000;

  public CheckResult check(final History history, final CheckOptions options) {
    if (this == ONLINE) {
      return OnlineChecker.check(history, options);
    }
    final OnlineChecker checker = new OnlineChecker(options, OnlineOptions.streaming(STREAMING_GRACE_MICROS));
    for (final Transaction t : history.transactions()) {
      checker.accept(t);
    }
    checker.flush();
    return checker.result();
  }

  /** The name used on the command line and in reports: {@code online} or {@code streaming}. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static BenchEngine parse(final String s) {
    return switch (s.trim().toLowerCase(Locale.ROOT)) {
      case "online" -> ONLINE;
      case "streaming" -> STREAMING;
      case "batch" -> throw new IllegalArgumentException("the batch engine was removed: check, the agent and the "
          + "topology run the online engine, and bench times it (use --engine online, or leave --engine out)");
      default -> throw new IllegalArgumentException("unknown engine '" + s + "' (expected online or streaming)");
    };
  }
}
