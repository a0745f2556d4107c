package io.isowatch.core.check;

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
 */
public record CheckOptions(Set<Level> levels, Long initialValue, long rtSkewMicros, int maxAnomalies,
    Level defaultLevel) {
  public static final int DEFAULT_MAX_ANOMALIES = 100;

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
  }

  /** Options without a default level. */
  public CheckOptions(final Set<Level> levels, final Long initialValue, final long rtSkewMicros, final int maxAnomalies) {
    this(levels, initialValue, rtSkewMicros, maxAnomalies, null);
  }

  public static CheckOptions defaults() {
    return new CheckOptions(Level.CLASSIC, 0L, 0L, DEFAULT_MAX_ANOMALIES);
  }

  public CheckOptions withLevels(final Set<Level> newLevels) {
    return new CheckOptions(newLevels, initialValue, rtSkewMicros, maxAnomalies, defaultLevel);
  }

  public CheckOptions withInitialValue(final Long v) {
    return new CheckOptions(levels, v, rtSkewMicros, maxAnomalies, defaultLevel);
  }

  public CheckOptions withRtSkewMicros(final long skew) {
    return new CheckOptions(levels, initialValue, skew, maxAnomalies, defaultLevel);
  }

  public CheckOptions withMaxAnomalies(final int max) {
    return new CheckOptions(levels, initialValue, rtSkewMicros, max, defaultLevel);
  }

  public CheckOptions withDefaultLevel(final Level level) {
    return new CheckOptions(levels, initialValue, rtSkewMicros, maxAnomalies, level);
  }
}
