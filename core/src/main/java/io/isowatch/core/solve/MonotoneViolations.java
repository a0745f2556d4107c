package io.isowatch.core.solve;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
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

  /**
   * What to keep after a search of a <em>part</em> of the processed history ({@code part}, the
   * committed transactions processed last, whole, and stand-ins of the writers of what they read,
   * each cut down to the writes read; {@code processed}: the real transactions by id): SI, then SER
   * if SI is not proved, searched on the part when {@code open} (the levels still UNKNOWN) has
   * them; a VIOLATED one is kept with the levels above it. {@code previous} when nothing is proved.
   *
   * <p>Why a violation of the part is one of the stream, when every value is written once and the
   * initial value never ({@link #monotone}): each read of the part has the same writer in the part
   * as in the stream, every transaction of the part is committed, and each part transaction's
   * edges in a version order of the part restricted from one of the stream are edges or paths of
   * the stream's graph, as for a prefix (above): a stand-in has a subset of its transaction's
   * writes (fewer edges), session order between part transactions is a path of the stream's
   * session order, a WW step passes through the versions written outside the part, an RW step r →
   * v' is r → w (the first version after the one r read) then WW steps. So every version order of
   * the stream has a forbidden cycle. Used online to prove a level the appended order's witness lost
   * without searching the whole processed history (docs/streaming-design.md, "A bounded search").
   */
  public static MonotoneViolations ofPart(final History part, final Map<String, Transaction> processed,
      final int window, final CheckOptions options, final CheckResult engine, final Set<Level> open,
      final MonotoneViolations previous) {
    if (!monotone(engine)) {
      return previous;
    }
    for (final Level level : List.of(Level.SI, Level.SER)) {
      if (!open.contains(level) || previous != null && previous.levels.contains(level)) {
        continue;
      }
      final VersionOrderSearch.Outcome o = VersionOrderSearch.search(part, level, options.initialValue(),
          options.rtSkewMicros(), options.solverBudget());
      if (o.verdict() != Verdict.VIOLATED) {
        continue;
      }
      final Set<Level> proved = EnumSet.noneOf(Level.class);
      for (final Level stronger : BlindWriteDecision.strongerOrEqual(level)) {
        if (options.levels().contains(stronger)) {
          proved.add(stronger);
        }
      }
      final Anomaly a = BlindWriteDecision.anomaly(level, proved, o);
      final List<Transaction> real = a.transactions().stream().map(t -> processed.getOrDefault(t.id(), t)).toList();
      final String text = a.explanation() + " (Searched on the " + window + " transactions processed last and the "
          + "writers of the values they read: every step is an edge or a path of the whole stream's graph in every "
          + "version order, through versions written outside them where a WW or RW step skips some, so no version "
          + "order of the stream avoids such a cycle either.)";
      final Anomaly shown = new Anomaly(a.type(), a.name(), a.violates(), real, a.cycle(), text, a.read());
      final Set<Level> levels = EnumSet.copyOf(proved);
      final List<Anomaly> proofs = new ArrayList<>();
      if (previous != null) {
        levels.addAll(previous.levels);
        proofs.addAll(previous.proofs);
      }
      proofs.add(shown);
      return new MonotoneViolations(levels, List.copyOf(proofs));
    }
    return previous;
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
