package io.isowatch.core.check;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/**
 * Options of one check.
 *
 * @param levels the levels to decide
 * @param initialValue the value the implicit initial transaction writes to every key; null means
 *     keys start absent (a read of null reads from the initial transaction)
 * @param rtSkewMicros clock-skew tolerance: T1 precedes T2 in real time only if {@code T1.end +
 *     rtSkewMicros < T2.start}
 * @param maxAnomalies cap on the anomalies listed (counts in the stats stay exact)
 * @param defaultLevel for {@link Level#MIXED}: the level of a transaction that declares none; null
 *     when every transaction must declare one
 * @param solverBudget the time the search of version orders left open by blind writes may take
 *     per level ({@code io.isowatch.core.solve}); zero turns the search off, so such levels stay
 *     UNKNOWN as before issue 14
 */
public record CheckOptions(Set<Level> levels, Long initialValue, long rtSkewMicros, int maxAnomalies,
    Level defaultLevel, Duration solverBudget) {
  public static final int DEFAULT_MAX_ANOMALIES = 100;
  /** The default of {@link #solverBudget()} (CLI {@code --solver-budget}). */
  public static final Duration DEFAULT_SOLVER_BUDGET = Duration.ofSeconds(10);

  public CheckOptions {
    levels = levels.isEmpty() ? EnumSet.noneOf(Level.class) : EnumSet.copyOf(levels);
    if (rtSkewMicros < 0) {
      throw new IllegalArgumentException("rtSkewMicros must be >= 0");
    }
    if (maxAnomalies < 1) {
      throw new IllegalArgumentException("maxAnomalies must be >= 1");
    }
    if (defaultLevel != null && !Level.MIXABLE.contains(defaultLevel)) {
      throw new IllegalArgumentException("the default level must be one of " + Level.MIXABLE + ", got " + defaultLevel);
    }
    if (solverBudget == null || solverBudget.isNegative()) {
      throw new IllegalArgumentException("solverBudget must be >= 0");
    }
  }

  /** Options without a default level, with the default solver budget. */
  public CheckOptions(final Set<Level> levels, final Long initialValue, final long rtSkewMicros, final int maxAnomalies) {
    this(levels, initialValue, rtSkewMicros, maxAnomalies, (Level) null, DEFAULT_SOLVER_BUDGET);
  }

  /** Options with a default level for {@link Level#MIXED} and the default solver budget. */
  public CheckOptions(final Set<Level> levels, final Long initialValue, final long rtSkewMicros, final int maxAnomalies,
      final Level defaultLevel) {
    this(levels, initialValue, rtSkewMicros, maxAnomalies, defaultLevel, DEFAULT_SOLVER_BUDGET);
  }

  /** Options without a default level, with the given solver budget. */
  public CheckOptions(final Set<Level> levels, final Long initialValue, final long rtSkewMicros, final int maxAnomalies,
      final Duration solverBudget) {
    this(levels, initialValue, rtSkewMicros, maxAnomalies, null, solverBudget);
  }

  public static CheckOptions defaults() {
    return new CheckOptions(Level.CLASSIC, 0L, 0L, DEFAULT_MAX_ANOMALIES);
  }

  public CheckOptions withLevels(final Set<Level> newLevels) {
    return new CheckOptions(newLevels, initialValue, rtSkewMicros, maxAnomalies, defaultLevel, solverBudget);
  }

  public CheckOptions withInitialValue(final Long v) {
    return new CheckOptions(levels, v, rtSkewMicros, maxAnomalies, defaultLevel, solverBudget);
  }

  public CheckOptions withRtSkewMicros(final long skew) {
    return new CheckOptions(levels, initialValue, skew, maxAnomalies, defaultLevel, solverBudget);
  }

  public CheckOptions withMaxAnomalies(final int max) {
    return new CheckOptions(levels, initialValue, rtSkewMicros, max, defaultLevel, solverBudget);
  }

  public CheckOptions withDefaultLevel(final Level level) {
    return new CheckOptions(levels, initialValue, rtSkewMicros, maxAnomalies, level, solverBudget);
  }

  public CheckOptions withSolverBudget(final Duration budget) {
    return new CheckOptions(levels, initialValue, rtSkewMicros, maxAnomalies, defaultLevel, budget);
  }
}
