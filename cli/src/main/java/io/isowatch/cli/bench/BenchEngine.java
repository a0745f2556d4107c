package io.isowatch.cli.bench;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Checker;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import java.util.Locale;

/** The checker engine a benchmark times. */
public enum BenchEngine {
  /** The batch engine: {@code new Checker(options).check(history)}. */
  BATCH {
    @Override
    public CheckResult check(final History history, final CheckOptions options) {
      return new Checker(options).check(history);
    }
  },
  /** The incremental engine replaying the history in π order: {@code OnlineChecker.check(history, options)}. */
  ONLINE {
    @Override
    public CheckResult check(final History history, final CheckOptions options) {
      return OnlineChecker.check(history, options);
    }
  };

  public abstract CheckResult check(History history, CheckOptions options);

  /** The name used on the command line and in reports: {@code batch} or {@code online}. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static BenchEngine parse(final String s) {
    return switch (s.trim().toLowerCase(Locale.ROOT)) {
      case "batch" -> BATCH;
      case "online" -> ONLINE;
      default -> throw new IllegalArgumentException("unknown engine '" + s + "' (expected batch or online)");
    };
  }
}
