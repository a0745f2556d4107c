package io.isowatch.core.profile;

import io.isowatch.core.check.Level;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a database promises at one of its named isolation levels, in IsoWatch's levels
 * (docs/levels.md, "Database profiles"): the levels it guarantees, the stronger-looking levels it
 * is documented <em>not</em> to give, and the public sources this rests on.
 *
 * <p>A promise of a level is a promise of every level it implies ({@link Level#implies}): a
 * database that gives SI gives RC, so {@link #promised()} is closed downwards. A level outside
 * {@link #promised()} that a history violates is "weaker than promised but allowed", never an alarm.
 *
 * @param spec the name it is asked for by, normalised: {@code postgres:read-committed}, or a bare
 *     IsoWatch level such as {@code SI}
 * @param database the database's display name ({@code PostgreSQL}), or {@code IsoWatch} for a bare level
 * @param namedLevel the database's own name of the level ({@code READ COMMITTED})
 * @param guarantees the strongest levels promised (their closure is {@link #promised()})
 * @param notGiven stronger-looking levels the database is documented not to give, each with the
 *     anomaly that shows it (e.g. SI: lost update)
 * @param certainty whether the sources establish the mapping or leave it uncertain
 * @param sources public references (vendor documentation pages, Jepsen analyses, Hermitage)
 * @param note what a reader should know beyond the levels (empty when nothing)
 */
public record Promise(
    String spec,
    String database,
    String namedLevel,
    Set<Level> guarantees,
    Map<Level, String> notGiven,
    Certainty certainty,
    List<String> sources,
    String note) {

  /** How firmly the sources establish a mapping. */
  public enum Certainty {
    /** The vendor documents it and an independent test (Hermitage, Jepsen) agrees. */
    DOCUMENTED,
    /** The sources disagree, are silent on part of it, or were not checked against the current version. */
    UNCERTAIN
  }

  public Promise {
    guarantees = Collections.unmodifiableSet(guarantees.isEmpty() ? EnumSet.noneOf(Level.class) : EnumSet.copyOf(guarantees));
    notGiven = Collections.unmodifiableMap(notGiven.isEmpty() ? new EnumMap<>(Level.class) : new EnumMap<>(notGiven));
    sources = List.copyOf(sources);
    note = note == null ? "" : note;
  }

  /** A bare IsoWatch level taken as the promise: that level and every level it implies. */
  public static Promise ofLevel(final Level level) {
    return new Promise(level.name(), "IsoWatch", level.name(), EnumSet.of(level), Map.of(), Certainty.DOCUMENTED,
        List.of("docs/levels.md"), "");
  }

  /**
   * Levels listed one by one (the streaming checker's {@code tenant.promised.levels}) taken as a
   * promise: each of them and every level they imply.
   */
  public static Promise ofLevels(final Set<Level> levels) {
    final String names = String.join(",", Level.strongestFirst(levels).stream().map(Level::name).toList());
    return new Promise(names, "IsoWatch", names, levels, Map.of(), Certainty.DOCUMENTED, List.of("docs/levels.md"), "");
  }

  /** Every level promised: the guarantees and every level they imply. */
  public Set<Level> promised() {
    final EnumSet<Level> out = EnumSet.noneOf(Level.class);
    for (final Level l : Level.values()) {
      // MIXED judges each transaction at the level it declared: no database's named level promises
      // it by implication, and deciding it needs declared levels a history may not carry.
      if (l == Level.MIXED && !guarantees.contains(Level.MIXED)) {
        continue;
      }
      if (guarantees.stream().anyMatch(g -> g.implies(l))) {
        out.add(l);
      }
    }
    return Collections.unmodifiableSet(out);
  }

  /**
   * The levels a check of this promise decides when {@code --levels} is not given: the promised
   * ones, the ones the database is documented not to give, and SI and SER for context (SSER only
   * when promised: it needs client timestamps).
   */
  public Set<Level> levelsToCheck() {
    final EnumSet<Level> out = EnumSet.of(Level.SI, Level.SER);
    out.addAll(promised());
    out.addAll(notGiven.keySet());
    return Collections.unmodifiableSet(out);
  }

  /** Whether an anomaly violating {@code violates} breaks this promise. */
  public boolean brokenBy(final Set<Level> violates) {
    return violates.stream().anyMatch(promised()::contains);
  }
}
