package io.isowatch.core.check;

/**
 * The isolation levels IsoWatch decides, strongest first. Each is defined on dependency graphs as in
 * the MTC paper (Definitions 4-6):
 *
 * <ul>
 *   <li>{@link #SSER}: some dependency graph has RT ∪ SO ∪ WR ∪ WW ∪ RW acyclic;
 *   <li>{@link #SER}: some dependency graph has SO ∪ WR ∪ WW ∪ RW acyclic;
 *   <li>{@link #SI}: some dependency graph has (SO ∪ WR ∪ WW) ; RW? acyclic.
 * </ul>
 *
 * <p>All three also require the internal-consistency axiom (Int) and a committed writer for every
 * value read. SO is included for SSER because the model assumes SO ⊆ RT; adding it keeps SSER ⊆ SER
 * even when client clocks are skewed.
 */
public enum Level {
  SSER,
  SER,
  SI;

  /**
   * The levels as an unmodifiable set that iterates strongest first (SSER, SER, SI), whatever the
   * order of {@code levels}: what anomalies and findings hold, for stable output.
   */
  public static java.util.Set<Level> strongestFirst(final java.util.Collection<Level> levels) {
    final java.util.EnumSet<Level> ordered = java.util.EnumSet.noneOf(Level.class);
    ordered.addAll(levels);
    return java.util.Collections.unmodifiableSet(ordered);
  }

  public static Level parse(final String s) {
    return switch (s.trim().toUpperCase(java.util.Locale.ROOT)) {
      case "SSER", "STRICT-SERIALIZABLE", "STRICT_SERIALIZABLE" -> SSER;
      case "SER", "SERIALIZABLE" -> SER;
      case "SI", "SNAPSHOT", "SNAPSHOT-ISOLATION" -> SI;
      default -> throw new IllegalArgumentException("unknown level '" + s + "' (expected SSER, SER or SI)");
    };
  }
}
