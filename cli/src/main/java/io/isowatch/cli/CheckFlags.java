package io.isowatch.cli;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.profile.Promise;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options that say what a check decides, read as a {@link CheckOptions}: one declaration each,
 * with its one default, shared by {@code check} and {@code replay} as a picocli {@code @Mixin}. With
 * no option given they are {@link CheckOptions#defaults()} (CheckFlagsTest holds them to it).
 */
public final class CheckFlags {
  /** The levels decided when {@code --levels} is not given: SSER, SER and SI, as before the weak levels. */
  static final String DEFAULT_LEVELS = "SSER,SER,SI";

  @Spec(Spec.Target.MIXEE)
  private CommandSpec mixee;

  @Option(names = "--levels", split = ",", paramLabel = "LEVEL", defaultValue = DEFAULT_LEVELS,
      converter = Converters.LevelConverter.class,
      description = "Levels to decide, comma-separated, weakest to strongest: PL2 (Adya PL-2), RC, RA, CC, PC, SI, RR"
          + " (Adya PL-2.99), SER, SSER; and MIXED: each transaction at the level it declares (\"level\" in JSONL); "
          + "see docs/levels.md (default: ${DEFAULT-VALUE}).")
  private List<Level> levels;

  @Option(names = "--promise", paramLabel = "DB:LEVEL", converter = Converters.PromiseConverter.class,
      description = "What the database promises, e.g. postgres:read-committed, mysql:repeatable-read, oracle:serializable,"
          + " or an IsoWatch level (SI): the report separates 'promise broken' from 'weaker than X but allowed', and"
          + " the exit code is 1 only when a promised level is VIOLATED or UNKNOWN. Without --levels it checks the"
          + " promised levels, those the database is documented not to give, SI and SER; with --levels, those and"
          + " the promised ones. The table and its sources: docs/levels.md, \"Database profiles\".")
  private Promise promise;

  @Option(names = "--default-level", paramLabel = "LEVEL", converter = Converters.DeclaredLevelConverter.class,
      description = "With --levels MIXED: the level of a transaction that declares none (RC, RA, CC, PC, SI or SER); "
          + "without it, such a transaction is invalid input (exit 2).")
  private Level defaultLevel;

  @Option(names = "--initial-value", paramLabel = "N|null", defaultValue = "0",
      converter = Converters.InitialValueConverter.class,
      description = "Value every key holds before the history; null: keys start absent (default: ${DEFAULT-VALUE}).")
  private Long initialValue;

  @Option(names = "--rt-skew-us", paramLabel = "N", defaultValue = "0",
      description = "Clock-skew tolerance in microseconds for real-time order (SSER) (default: ${DEFAULT-VALUE}).")
  private long rtSkewMicros;

  @Option(names = "--max-anomalies", paramLabel = "N", defaultValue = "" + CheckOptions.DEFAULT_MAX_ANOMALIES,
      description = "List at most N anomalies; counts stay exact (default: ${DEFAULT-VALUE}).")
  private int maxAnomalies;

  @Option(names = "--solver-budget", paramLabel = "DURATION|0", defaultValue = "10s",
      converter = Converters.SolverBudgetConverter.class,
      description = "Time the search of version orders left open by blind writes may take per level (SSER, SER, SI), "
          + "and MIXED's search of the order of lost updates' branches; past it the level stays UNKNOWN and the reason "
          + "says so; 0 or off: no search (default: ${DEFAULT-VALUE}).")
  private long solverBudgetMicros;

  /**
   * The options given, the defaults for the others.
   *
   * @throws ParameterException naming the option when one is out of range (a usage error, exit 2)
   */
  CheckOptions options() {
    return options(EnumSet.allOf(Level.class));
  }

  /**
   * As {@link #options()}, with the levels a promise adds kept to {@code available} (the streaming
   * checker decides fewer levels than {@code check}; a promised level it does not decide is
   * reported as not checked).
   */
  CheckOptions options(final Set<Level> available) {
    if (rtSkewMicros < 0) {
      throw new ParameterException(mixee.commandLine(), "--rt-skew-us must be >= 0, got " + rtSkewMicros);
    }
    if (maxAnomalies < 1) {
      throw new ParameterException(mixee.commandLine(), "--max-anomalies must be >= 1, got " + maxAnomalies);
    }
    final EnumSet<Level> decided = promise != null && !given("--levels") ? EnumSet.noneOf(Level.class)
        : EnumSet.copyOf(levels);
    if (promise != null) {
      (given("--levels") ? promise.promised() : promise.levelsToCheck()).stream()
          .filter(available::contains).forEach(decided::add);
      if (decided.isEmpty()) {
        decided.addAll(Level.CLASSIC);
      }
    }
    return new CheckOptions(decided, initialValue, rtSkewMicros, maxAnomalies, defaultLevel,
        Duration.ofNanos(Math.multiplyExact(solverBudgetMicros, 1_000L)));
  }

  /** The promise given with {@code --promise}, if any. */
  Optional<Promise> promise() {
    return Optional.ofNullable(promise);
  }

  /** Whether the option was given on the command line rather than left at its default. */
  boolean given(final String name) {
    return mixee.commandLine().getParseResult().hasMatchedOption(name);
  }
}
