package io.isowatch.cli;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
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
          + " (Adya PL-2.99), SER, SSER; see docs/levels.md (default: ${DEFAULT-VALUE}).")
  private List<Level> levels;

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
      description = "Time the search of version orders left open by blind writes may take per level (SSER, SER, SI); "
          + "past it the level stays UNKNOWN and the reason says so; 0 or off: no search (default: ${DEFAULT-VALUE}).")
  private long solverBudgetMicros;

  /**
   * The options given, the defaults for the others.
   *
   * @throws ParameterException naming the option when one is out of range (a usage error, exit 2)
   */
  CheckOptions options() {
    if (rtSkewMicros < 0) {
      throw new ParameterException(mixee.commandLine(), "--rt-skew-us must be >= 0, got " + rtSkewMicros);
    }
    if (maxAnomalies < 1) {
      throw new ParameterException(mixee.commandLine(), "--max-anomalies must be >= 1, got " + maxAnomalies);
    }
    return new CheckOptions(EnumSet.copyOf(levels), initialValue, rtSkewMicros, maxAnomalies,
        Duration.ofNanos(Math.multiplyExact(solverBudgetMicros, 1_000L)));
  }

  /** Whether the option was given on the command line rather than left at its default. */
  boolean given(final String name) {
    return mixee.commandLine().getParseResult().hasMatchedOption(name);
  }
}
