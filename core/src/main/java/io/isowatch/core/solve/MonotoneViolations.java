package io.isowatch.core.solve;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Violations of SER or SI a search proved on the transactions a stream had processed, kept for the
 * stream's later results without searching again (issue 14, item 3, online). Kept only while every
 * value is written once and the initial value never (no NON_UNIQUE_WRITE, no INITIAL_VALUE_WRITE):
 *
 * <p>Then each read of the prefix has exactly one writer, in the prefix and in every extension, and
 * a transaction counted in the prefix (committed, or indeterminate and read) stays counted. Any
 * version order of an extension, restricted to the prefix's writers, is a version order of the
 * prefix, whose graph has a forbidden cycle; each of that cycle's edges is a path of the
 * extension's graph: WR and session and real-time steps stay (or pass through later transactions
 * of the same kind), a WW step becomes a run of WW steps through the versions written later in
 * between, and an RW step r → v' becomes r → w (RW, to the first version after the one r read)
 * followed by WW steps to v'. No RW is added next to another RW, so a cycle with no two adjacent
 * RW steps (SI) maps to a closed walk with none, which contains such a cycle. So every version
 * order of every extension has a forbidden cycle: the violation is the whole stream's.
 *
 * <p>A value written twice or the initial value written later can give a read of the prefix
 * another writer, which may remove the cycle: the kept violation is dropped (the search decides
 * again). SSER violated alone (a real-time cycle) is kept only while every transaction processed
 * has both times: a later transaction without them makes the whole check's SSER UNKNOWN, though the
 * prefix's cycle remains (SER or SI violated settles SSER whatever the times).
 */
public final class MonotoneViolations {
  private final Set<Level> levels;
  private final List<Anomaly> proofs;

  private MonotoneViolations(final Set<Level> levels, final List<Anomaly> proofs) {
    this.levels = levels;
    this.proofs = proofs;
  }

  /**
   * What to keep after a search turned {@code engine} into {@code searched}: the classic levels it
   * proved VIOLATED when SER or SI is among them, or SSER and {@code allTimed} (every transaction
   * processed has a start and an end), and no value was written twice; else {@code previous} (a
   * later search of a larger prefix that decided less keeps the earlier proof).
   */
  public static MonotoneViolations of(final CheckResult engine, final CheckResult searched,
      final MonotoneViolations previous, final boolean allTimed) {
    if (!monotone(engine)) {
      return null;
    }
    final Set<Level> violated = EnumSet.noneOf(Level.class);
    for (final Level level : Level.CLASSIC) {
      if (engine.verdicts().get(level) == Verdict.UNKNOWN && searched.verdicts().get(level) == Verdict.VIOLATED) {
        violated.add(level);
      }
    }
    if (!violated.contains(Level.SER) && !violated.contains(Level.SI) && !(allTimed && violated.contains(Level.SSER))) {
      return previous;
    }
    final List<Anomaly> proofs = new ArrayList<>();
    for (final Anomaly a : searched.anomalies()) {
      if (BlindWriteDecision.isResultOnly(a) && !engine.anomalies().contains(a)) {
        proofs.add(a);
      }
    }
    return new MonotoneViolations(violated, List.copyOf(proofs));
  }

  /** Whether a violation of this prefix stays one of every extension seen so far: every value written once. */
  public static boolean monotone(final CheckResult engine) {
    return engine.findings().stream().noneMatch(f -> f.kind() == FindingKind.NON_UNIQUE_WRITE
        || f.kind() == FindingKind.INITIAL_VALUE_WRITE);
  }

  /** The levels kept VIOLATED. */
  public Set<Level> levels() {
    return Set.copyOf(levels);
  }

  /**
   * {@code engine} (a later result of the same stream) with the kept levels, and every UNKNOWN
   * level stronger than one, VIOLATED and the search's proof listed; {@code engine} itself when a
   * value was written twice since, or SSER alone is kept and a transaction without times came.
   */
  public CheckResult applyTo(final CheckResult engine, final CheckOptions options, final boolean allTimed) {
    if (!monotone(engine)) {
      return engine;
    }
    final boolean sserAlone = !levels.contains(Level.SER) && !levels.contains(Level.SI);
    if (sserAlone && !allTimed) {
      return engine;
    }
    final Map<Level, Verdict> verdicts = new EnumMap<>(engine.verdicts());
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    reasons.putAll(engine.reasons());
    boolean changed = false;
    for (final Level level : levels) {
      for (final Level stronger : BlindWriteDecision.strongerOrEqual(level)) {
        if (verdicts.get(stronger) == Verdict.UNKNOWN) {
          verdicts.put(stronger, Verdict.VIOLATED);
          reasons.remove(stronger);
          changed = true;
        }
      }
    }
    if (!changed) {
      return engine;
    }
    final List<Anomaly> add = proofs.stream().filter(a -> !engine.anomalies().contains(a)).toList();
    return BlindWriteDecision.withAnomalies(engine, options, verdicts, reasons, add);
  }
}
