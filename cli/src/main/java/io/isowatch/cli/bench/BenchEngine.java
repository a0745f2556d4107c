package io.isowatch.cli.bench;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import java.util.Locale;

/**
 * The checker engine a benchmark times. There is one: the engine {@code isowatch check}, the agent's
 * summary and the topology run. The batch engine that {@code --engine batch} used to select is a
 * test-scope differential oracle now; asking for it is a usage error, so that a script comparing
 * the two engines fails instead of timing the same engine twice.
 */
public enum BenchEngine {
  /** The incremental engine replaying the history in π order: {@code OnlineChecker.check(history, options)}. */
  ONLINE;

  public CheckResult check(final History history, final CheckOptions options) {
    return OnlineChecker.check(history, options);
  }

  /** The name used on the command line and in reports: {@code online}. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static BenchEngine parse(final String s) {
    return switch (s.trim().toLowerCase(Locale.ROOT)) {
      case "online" -> ONLINE;
      case "batch" -> throw new IllegalArgumentException("the batch engine was removed: check, the agent and the "
          + "topology run the online engine, and bench times it (use --engine online, or leave --engine out)");
      default -> throw new IllegalArgumentException("unknown engine '" + s + "' (expected online)");
    };
  }
}
