package io.isowatch.core.online;

import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.FindingMessages;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.ReadAnomaly;
import io.isowatch.core.check.UnknownReasons;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the current state as a {@link CheckResult}: a level is
 * VIOLATED when a non-cycle anomaly or a lost update was found, or its graph refused an edge;
 * otherwise UNKNOWN when some key's version order is open (or, for SSER, some counted transaction
 * lacks usable times), else SATISFIED. Findings that are only known at the end of a stream (seq
 * gaps, ignored indeterminate transactions) are computed here, on a copy.
 */
final class ResultBuilder {
  private final OnlineState s;
  private final SeqFindings seqs;
  private final WeakVerdicts weak;
  private final MixedVerdicts mixed;

  ResultBuilder(final OnlineState s) {
    this.s = s;
    this.seqs = new SeqFindings(s);
    this.weak = new WeakVerdicts(s, this);
    this.mixed = new MixedVerdicts(s);
  }

  /** Lets the weak levels answer from a check made a few transactions ago (verdict publication only). */
  void allowLag(final boolean lag) {
    weak.allowLag(lag);
    mixed.allowLag(lag);
  }

  /** Tells the weak levels whether every writer has come (a flush) or not (a transaction was processed). */
  void complete(final boolean flushed) {
    weak.complete(flushed);
    mixed.complete(flushed);
  }

  Map<Level, Verdict> verdicts() {
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final boolean everyLevel = everyLevelViolated();
    for (final Level level : s.options.levels()) {
      verdicts.put(level, verdict(level, everyLevel));
    }
    return verdicts;
  }

  /**
   * The levels violated by ThinAirReads alone (this state's or the summary's, which a late writer
   * may still retract) and by nothing else, the weak ones included ({@link
   * WeakVerdicts#violatedOnlyByThinAir}): a cut keeps them apart in the summary ({@link
   * HorizonSummary#thinAirViolated}), so that a retraction after the cut gives them back.
   */
  Set<Level> violatedOnlyByThinAir() {
    final HorizonSummary h = s.summary;
    final long thinAir = s.anomalies.counts().getOrDefault(ReadAnomaly.Kind.ThinAirRead.name(), 0L);
    if (thinAir == 0 && (h == null || !h.thinAirReadsStanding())) {
      return Set.of();
    }
    final Set<Level> levels = EnumSet.noneOf(Level.class);
    // Any other read anomaly or a lost update violates SSER, SER and SI as well.
    if (s.anomalies.readCount() == thinAir && s.anomalies.lostUpdateCount() == 0) {
      for (final Level level : s.options.levels()) {
        if (Level.CLASSIC.contains(level) && !cyclic(level) && (h == null || !(h.violated.contains(level)
            || (level == Level.SSER && h.staleViolatesSser)))) {
          levels.add(level);
        }
      }
    }
    levels.addAll(weak.violatedOnlyByThinAir(thinAir));
    return levels;
  }

  /** Whether a read anomaly or a lost update violates every level at once. */
  boolean everyLevelViolated() {
    return s.anomalies.readCount() > 0 || s.anomalies.lostUpdateCount() > 0;
  }

  /** One level's verdict; {@code everyLevel} is {@link #everyLevelViolated()}, read once per call site. */
  Verdict verdict(final Level level, final boolean everyLevel) {
    if (level == Level.MIXED) {
      return mixed.verdict();
    }
    if (!Level.CLASSIC.contains(level)) {
      return weak.verdict(level);
    }
    return classicVerdict(level, everyLevel);
  }

  /** SSER, SER and SI as before issue 12; RR and PC are derived from them ({@link WeakVerdicts}). */
  Verdict classicVerdict(final Level level, final boolean everyLevel) {
    final HorizonSummary h = s.summary;
    if (everyLevel || cyclic(level) || (h != null && (h.violates(level)
        || (level == Level.SSER && h.staleViolatesSser)))) {
      return Verdict.VIOLATED;
    }
    if (s.chains.undeterminedKeys() > 0 || (level == Level.SSER && s.counters.missingTimes())
        || (h != null && h.staleUndecided.contains(level))) {
      return Verdict.UNKNOWN;
    }
    return Verdict.SATISFIED;
  }

  /** Why the level is UNKNOWN (call only when it is). */
  String reason(final Level level) {
    if (level == Level.MIXED) {
      return mixed.reason();
    }
    if (!Level.CLASSIC.contains(level)) {
      return weak.reason(level);
    }
    return classicReason(level);
  }

  String classicReason(final Level level) {
    final HorizonSummary h = s.summary;
    if (h != null && h.staleUndecided.contains(level)) {
      return h.staleReads + " read(s) returned a value no retained transaction wrote, a version older than the "
          + "retained horizon by the record of retired versions (STALE_READ_BEYOND_HORIZON; certainly so where its "
          + "exact run-sets held the version, else by a filter, and then a ThinAirRead instead with probability at "
          + "most " + Publisher.probability(h.falsePositiveProbability()) + "); whether they are allowed at " + level
          + " depends on transactions that were pruned; no violation "
          + "is certain";
    }
    if (s.chains.undeterminedKeys() == 0) {
      return UnknownReasons.MISSING_TIMES;
    }
    final List<String> reasons = new ArrayList<>(3);
    for (int k = 0; k < s.chains.keyCount() && reasons.size() < 3; k++) {
      final String name = s.chains.keyName(k);
      if (s.chains.isAmbiguous(k)) {
        reasons.add(UnknownReasons.valuesNotUnique(name));
      } else if (s.chains.headCount(k) > 0) {
        reasons.add(UnknownReasons.versionsWithoutRead(s.chains.headCount(k), name));
      }
    }
    return UnknownReasons.versionOrderOpen(reasons, s.chains.undeterminedKeys());
  }

  boolean cyclic(final Level level) {
    return s.graph.cyclic(level);
  }

  CheckResult result(final double seconds) {
    final Map<Level, Verdict> verdicts = verdicts();
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    verdicts.forEach((level, v) -> {
      if (v == Verdict.UNKNOWN) {
        reasons.put(level, reason(level));
      }
    });
    final Findings findings = s.findings().copy();
    seqs.addTo(findings);
    mixed.addFindings(findings);
    final HorizonSummary h = s.summary;
    long unknown = h == null ? 0 : h.unknowns;
    for (int i = 0; i < s.txns.indeterminateCount(); i++) {
      final int slot = s.txns.indeterminateAt(i);
      unknown++;
      if (!s.txns.isCounted(slot)) {
        final Transaction t = s.txns.txn(slot);
        findings.add(FindingKind.UNKNOWN_IGNORED, null, t.id(), t.line(), FindingMessages.unknownIgnored(t.id()));
      }
    }
    if (h != null && h.pruned > 0) {
      findings.add(FindingKind.HORIZON_PRUNED, null, null, 0, h.pruned + " transactions were pruned beyond the "
          + "retained horizon in " + h.cuts + " cut(s); cycles through them are no longer searched, so a "
          + "SATISFIED verdict means no violation within the horizon (docs/segmentation.md)");
    }
    List<io.isowatch.core.check.Anomaly> listed = s.anomalies.select();
    Map<String, Long> counts = s.anomalies.counts();
    boolean truncated = s.anomalies.truncated();
    // The counterexamples of the weak levels and of MIXED come after the engine's anomalies; a
    // full listing keeps room for them, dropping the engine's last ones, so that every violated
    // level keeps a listed proof. Dropping one may leave a weak level it proved without proof, so
    // the room is found again until it holds. A counterexample is counted only if the engine's
    // anomalies did not prove its level: all it retained when its listing is truncated (an anomaly
    // counted but not listed, e.g. the NonMonotonicRead of a read whose witness is a FracturedRead,
    // would be counted twice), else its listing before the drops, so the drops add nothing to the counts.
    Witnesses needed = witnessesOf(h, listed);
    final Witnesses counted = s.anomalies.truncated() ? witnessesOf(h, s.anomalies.retained()) : needed;
    while (listed.size() > Math.max(0, s.options.maxAnomalies() - needed.size())) {
      listed = List.copyOf(listed.subList(0, Math.max(0, s.options.maxAnomalies() - needed.size())));
      truncated = true;
      needed = witnessesOf(h, listed);
    }
    final List<io.isowatch.core.check.Anomaly> witnesses = needed.weak();
    final List<io.isowatch.core.check.Anomaly> mixedWitnesses = needed.mixed();
    if (!witnesses.isEmpty() || !mixedWitnesses.isEmpty()) {
      listed = new ArrayList<>(listed);
      counts = new java.util.LinkedHashMap<>(counts);
      for (final io.isowatch.core.check.Anomaly a : witnesses) {
        if (listed.size() < s.options.maxAnomalies()) {
          listed.add(a);
        }
        if (counted.weak().contains(a)) {
          counts.merge(a.displayName(), 1L, Long::sum);
        }
      }
      // The mixed counterexample is the only proof of a violated MIXED (classic anomalies never
      // list it): listed first, so that a full listing cannot leave it out.
      for (final io.isowatch.core.check.Anomaly a : mixedWitnesses) {
        listed.add(0, a);
        if (listed.size() > s.options.maxAnomalies()) {
          listed.remove(listed.size() - 1);
          truncated = true;
        }
        if (counted.mixed().contains(a)) {
          counts.merge(a.displayName(), 1L, Long::sum);
        }
      }
    }
    if (h != null && h.cuts > 0) {
      final HorizonSummary.Listing merged = HorizonSummary.merge(
          new HorizonSummary.Listing(h.anomalies, h.counts, h.truncated),
          new HorizonSummary.Listing(listed, counts, truncated), s.options.maxAnomalies());
      listed = merged.anomalies();
      counts = merged.counts();
      truncated = merged.truncated();
      if (!mixedWitnesses.isEmpty()) {
        // First after a cut too, as without one: the anomalies listed before the cut come first in
        // the merge, and the order of the listing names each level's first violation (the verdict's reason).
        listed = new ArrayList<>(listed);
        listed.removeAll(mixedWitnesses);
        listed.addAll(0, mixedWitnesses);
        while (listed.size() > s.options.maxAnomalies()) {
          listed.remove(listed.size() - 1);
          truncated = true;
        }
      }
    }
    final Counters c = s.counters;
    final CheckStats stats = new CheckStats(c.input(), c.committed(), c.aborted(), c.promoted(), unknown - c.promoted(),
        s.sessions.count(), s.chains.keyCount(), c.operations(), c.longRmw(), c.largeReadOnly(),
        s.graph.edges.edges() + (h == null ? 0 : h.edges), counts, truncated, seconds,
        h == null || h.cuts == 0 ? null : new CheckStats.Retired(
            h.versions, h.overwritten.bytes() + h.other.bytes(),
            h.falsePositiveProbability(), HorizonSummary.FALSE_POSITIVE_BOUND, new CheckStats.Runs(h.runs(),
                h.runBytes(), h.exactVersions(), h.allRuns.maxRuns())));
    return new CheckResult(verdicts, reasons, listed, findings.toList(), stats);
  }

  /** The counterexamples of the violated weak levels, and that of MIXED, to list. */
  private record Witnesses(List<io.isowatch.core.check.Anomaly> weak, List<io.isowatch.core.check.Anomaly> mixed) {
    int size() {
      return weak.size() + mixed.size();
    }
  }

  /**
   * The counterexamples of the violated weak levels and of MIXED that the engine's anomalies
   * {@code listed} (and those listed before a cut) do not prove.
   */
  private Witnesses witnessesOf(final HorizonSummary h, final List<io.isowatch.core.check.Anomaly> listed) {
    // A level proven by an anomaly listed before a cut (in the summary) needs no counterexample
    // either: otherwise a cut, even one that pruned nothing, would add one that check does not list.
    final List<io.isowatch.core.check.Anomaly> proof = h == null || h.anomalies.isEmpty() ? listed
        : concat(h.anomalies, listed);
    final List<io.isowatch.core.check.Anomaly> weakOnes = weak.witnesses(proof);
    return new Witnesses(weakOnes, mixed.witnesses(weakOnes.isEmpty() ? proof : concat(proof, weakOnes)));
  }

  private static <T> List<T> concat(final List<T> a, final List<T> b) {
    final List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
