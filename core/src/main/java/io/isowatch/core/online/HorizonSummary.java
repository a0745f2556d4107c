package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Level;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the engine keeps of everything it pruned (docs/segmentation.md, "What is dropped and what
 * is summarised"): two scalable filters of retired versions (false positives under {@link
 * #FALSE_POSITIVE_BOUND} up to their cap, {@link Horizon#maxFilterBits()} each), the real-time
 * bound that makes a stale read an SSER violation, per session the seq expected next, and the
 * results so far (anomalies already listed, exact counts, violated levels, stale reads). One per
 * engine, carried from cut to cut; its size depends on keys, sessions and the anomaly cap, and the
 * filters' on the versions retired (about 20 bits each, up to their cap).
 */
final class HorizonSummary {
  /** Retired versions with a pruned successor whose end is known, and aborted or intermediate writes. */
  final RetiredValues overwritten;
  /** Other retired versions: dormant indeterminate writes, lost-update branches, repeated values. */
  final RetiredValues other;
  /**
   * Every retired version, of both categories, held exactly as runs of values per key
   * (docs/segmentation.md, "Retired versions"): a key's versions of the overwritten category then
   * stay one run even where a version of the other category sits between them. A version of the
   * overwritten category that fits no run under the cap goes to {@link #overwritten}.
   */
  RetiredRuns allRuns;
  /**
   * The retired versions of {@link #other}'s category held exactly; one that fits no run goes to
   * {@link #other}. A version {@link #allRuns} holds is of the overwritten category unless this
   * run-set or that filter knows it.
   */
  RetiredRuns otherRuns;
  /** Retired versions so far, with repeats (runs and filters together). */
  long versions;
  /** The latest end time of a pruned successor of a version in {@link #overwritten}, µs. */
  long bound = Long.MIN_VALUE;

  long cuts;
  long pruned;
  long cutNanos;
  long lastCutNanos;

  /** Anomalies of pruned states, already selected for listing (at most the cap plus one per name). */
  List<Anomaly> anomalies = List.of();
  final Map<String, Long> counts = new LinkedHashMap<>();
  boolean truncated;
  /** Levels some earlier state proved violated. */
  final EnumSet<Level> violated = EnumSet.noneOf(Level.class);
  /**
   * Levels some earlier state found violated by ThinAirReads alone: violated while the summary
   * counts a ThinAirRead, so that retracting the last one (a late writer, docs/streaming.md, "No
   * false positive from time") gives the level back (format 5; empty in older checkpoints, whose
   * {@link #violated} holds such levels for good).
   */
  final EnumSet<Level> thinAirViolated = EnumSet.noneOf(Level.class);

  long staleReads;
  boolean staleViolatesSser;
  /** Levels a stale read left undecided. */
  final EnumSet<Level> staleUndecided = EnumSet.noneOf(Level.class);

  /** Per session id: the seq its next transaction should have, -1 if none was pruned, -2 if one had none. */
  final LongList nextSeq = new LongList(64);

  /** Edges and indeterminate transactions of pruned states (for the stats). */
  long edges;
  long unknowns;

  HorizonSummary(final Horizon horizon) {
    this(new RetiredValues(horizon.filterBits(), horizon.maxFilterBits()),
        new RetiredValues(horizon.filterBits(), horizon.maxFilterBits()),
        new RetiredRuns(horizon.maxRuns()), new RetiredRuns(horizon.maxRuns()));
  }

  /**
   * A summary with these filters and run-sets (a restore keeps the sizes the checkpoint was written
   * with; one of format 3 or older restores empty run-sets and keeps its filters as they are).
   */
  HorizonSummary(final RetiredValues overwritten, final RetiredValues other, final RetiredRuns allRuns,
      final RetiredRuns otherRuns) {
    this.overwritten = overwritten;
    this.other = other;
    this.allRuns = allRuns;
    this.otherRuns = otherRuns;
    // Formats 1-3 held every retired version in the filters.
    this.versions = overwritten.added() + other.added() + allRuns.taken();
  }

  /** A restore of format 4: the run-sets the checkpoint holds. */
  void restoreRuns(final RetiredRuns allRuns, final RetiredRuns otherRuns, final long versions) {
    this.allRuns = allRuns;
    this.otherRuns = otherRuns;
    this.versions = versions;
  }

  /** Key ids the run-sets know of: one past the highest. */
  int runKeyBound() {
    return Math.max(allRuns.keyBound(), otherRuns.keyBound());
  }

  /**
   * Retires a version into the category of {@link #overwritten} ({@code overwrittenCategory}) or
   * {@link #other}: into its run-set when it fits (exact), else into its filter.
   */
  void retire(final boolean overwrittenCategory, final int k, final long v, final boolean absent) {
    versions++;
    final boolean held = allRuns.add(k, v, absent);
    if (overwrittenCategory) {
      if (!held) {
        overwritten.add(k, v, absent);
      }
    } else if (!otherRuns.add(k, v, absent)) {
      // Every version of the other category is in its run-set or its filter: that is what makes
      // a version of allRuns known by neither certainly of the overwritten category.
      other.add(k, v, absent);
    }
  }

  /**
   * Which category knows (k, v): 2 other, 1 overwritten, 0 none (never retired). "Other" first,
   * runs or filter: it claims less (no real-time bound). A version {@link #allRuns} holds that
   * neither {@link #otherRuns} nor {@link #other} knows is of the overwritten category, exactly.
   */
  int retired(final int k, final long v, final boolean absent) {
    if (otherRuns.contains(k, v, absent) || other.mightContain(k, v, absent)) {
      return 2;
    }
    return allRuns.contains(k, v, absent) || overwritten.mightContain(k, v, absent) ? 1 : 0;
  }

  /**
   * Whether (k, v) certainly retired: a run-set holds it. Then "written by a pruned transaction" is
   * a fact, not a filter's "probably" (with {@link #retired} 1 the other category answered no,
   * exactly, so the version is of the overwritten category).
   */
  boolean certainlyRetired(final int k, final long v, final boolean absent) {
    return otherRuns.contains(k, v, absent) || allRuns.contains(k, v, absent);
  }

  /** Runs held by both run-sets. */
  long runs() {
    return allRuns.runs() + otherRuns.runs();
  }

  /** Bytes held by both run-sets. */
  long runBytes() {
    return allRuns.bytes() + otherRuns.bytes();
  }

  /** Retired versions held exactly by the run-sets (with repeats). */
  long exactVersions() {
    return allRuns.taken();
  }

  /**
   * An upper bound of the probability that {@link #retired} says "retired" (1 or 2) for a version
   * never retired: a thin-air read then becomes an undecided stale read. The sum of both filters'
   * (union bound); at most {@link #FALSE_POSITIVE_BOUND} while the filters are under their cap.
   * The run-sets are exact and add nothing: the filters only hold the versions that fit no run, and
   * an empty filter answers no to everything.
   */
  double falsePositiveProbability() {
    return Math.min(1, overwritten.falsePositiveProbability() + other.falsePositiveProbability());
  }

  /** The bound {@link #falsePositiveProbability()} stays under while the filters are under their cap. */
  static final double FALSE_POSITIVE_BOUND = 2 * RetiredValues.BOUND;

  long nextSeq(final int session) {
    return session < nextSeq.size() ? nextSeq.get(session) : -1;
  }

  void setNextSeq(final int session, final long seq) {
    while (nextSeq.size() <= session) {
      nextSeq.add(-1);
    }
    nextSeq.set(session, seq);
  }

  /** Whether an earlier state proved {@code level} violated, by anything or by ThinAirReads still standing. */
  boolean violates(final Level level) {
    return violated.contains(level) || (thinAirViolated.contains(level) && thinAirReadsStanding());
  }

  /** Whether ThinAirReads still standing are what proved {@code level} violated in an earlier state. */
  boolean violatedByThinAir(final Level level) {
    return thinAirViolated.contains(level) && thinAirReadsStanding();
  }

  boolean thinAirReadsStanding() {
    return counts.getOrDefault(THIN_AIR, 0L) > 0;
  }

  /**
   * Removes a retracted ThinAirRead of an earlier state: from the counts, and from the listing if
   * it is listed. False when the summary counts no ThinAirRead (nothing to retract).
   */
  boolean retract(final Anomaly a) {
    final long n = counts.getOrDefault(THIN_AIR, 0L);
    if (n <= 0) {
      return false;
    }
    if (n == 1) {
      counts.remove(THIN_AIR);
    } else {
      counts.put(THIN_AIR, n - 1);
    }
    final List<Anomaly> rest = new ArrayList<>(anomalies);
    if (rest.remove(a)) {
      anomalies = List.copyOf(rest);
    }
    return true;
  }

  private static final String THIN_AIR = io.isowatch.core.check.ReadAnomaly.Kind.ThinAirRead.name();

  /** Anomalies listed, exact counts per name, and whether the listing is truncated. */
  record Listing(List<Anomaly> anomalies, Map<String, Long> counts, boolean truncated) {}

  /** Adds a pruned state's listed anomalies to the carried ones. */
  void carry(final List<Anomaly> listed, final Map<String, Long> stateCounts, final boolean stateTruncated,
      final int cap) {
    final Listing merged = merge(new Listing(anomalies, counts, truncated),
        new Listing(listed, stateCounts, stateTruncated), cap);
    anomalies = merged.anomalies();
    counts.clear();
    counts.putAll(merged.counts());
    truncated = merged.truncated();
  }

  /**
   * The earlier listing followed by the later one, selected as {@link
   * io.isowatch.core.check.AnomalyList} selects (the first of every name, then the earliest, up to
   * the cap), keeping the first of every name beyond the cap as the anomaly log does.
   */
  static Listing merge(final Listing earlier, final Listing later, final int cap) {
    final io.isowatch.core.check.AnomalyList list = new io.isowatch.core.check.AnomalyList(cap);
    final List<Anomaly> all = new ArrayList<>(earlier.anomalies());
    all.addAll(later.anomalies());
    for (final Anomaly a : all) {
      list.add(a.displayName(), () -> a);
    }
    final List<Anomaly> selected = new ArrayList<>(list.select());
    final java.util.Set<String> names = new java.util.HashSet<>();
    selected.forEach(a -> names.add(a.displayName()));
    for (final Anomaly a : all) {
      if (names.add(a.displayName())) {
        selected.add(a);
      }
    }
    final Map<String, Long> counts = new LinkedHashMap<>(earlier.counts());
    later.counts().forEach((name, n) -> counts.merge(name, n, Long::sum));
    long total = 0;
    for (final long n : counts.values()) {
      total += n;
    }
    return new Listing(List.copyOf(selected), counts,
        earlier.truncated() || later.truncated() || total > cap);
  }
}
