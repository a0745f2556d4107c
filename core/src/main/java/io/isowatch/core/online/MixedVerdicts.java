package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.DeclaredLevels;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.MixedLevelCheck;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.check.WeakLevelCheck;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;

/**
 * The verdict of {@link Level#MIXED} (each transaction at its declared level, docs/levels.md
 * "Mixed levels"), read from a state as {@link WeakVerdicts} reads the weak levels: by {@link
 * MixedLevelCheck} over the retained counted transactions, recomputed when the state changed, and
 * VIOLATED as well by the engine's non-cycle anomalies that violate every level. Transactions whose
 * declared level cannot be read (or that declare none without a default) are INVALID_LEVEL findings.
 */
final class MixedVerdicts {
  private final OnlineState s;
  private long stamp = -1;
  private boolean complete;
  private boolean lag;
  private MixedLevelCheck.Result cached;

  MixedVerdicts(final OnlineState s) {
    this.s = s;
  }

  boolean requested() {
    return s.options.levels().contains(Level.MIXED);
  }

  void allowLag(final boolean allowed) {
    lag = allowed;
  }

  void complete(final boolean flushed) {
    if (complete != flushed) {
      complete = flushed;
      cached = null;
    }
  }

  Verdict verdict() {
    final HorizonSummary h = s.summary;
    if (h != null && h.violated.contains(Level.MIXED)) {
      return Verdict.VIOLATED;
    }
    final long nonRepeatable = s.anomalies.counts()
        .getOrDefault(io.isowatch.core.check.ReadAnomaly.Kind.NonRepeatableReads.name(), 0L);
    if (s.anomalies.readCount() > nonRepeatable) {
      return Verdict.VIOLATED; // a read no level allows (the anomaly lists MIXED)
    }
    final Verdict v = check().verdict();
    return v == Verdict.SATISFIED && h != null && h.staleUndecided.contains(Level.MIXED) ? Verdict.UNKNOWN : v;
  }

  String reason() {
    final String why = check().unknownReason();
    return why != null ? why : "reads of versions older than the retained horizon cannot be judged "
        + "(STALE_READ_BEYOND_HORIZON); no violation of MIXED is certain";
  }

  /** The counterexample, unless an anomaly of {@code listed} already shows MIXED violated. */
  List<Anomaly> witnesses(final List<Anomaly> listed) {
    if (!requested() || listed.stream().anyMatch(a -> a.violates().contains(Level.MIXED))) {
      return List.of();
    }
    final Anomaly w = check().witness();
    return w == null ? List.of() : List.of(w);
  }

  /** An INVALID_LEVEL finding for each retained transaction whose level cannot be read. */
  void addFindings(final Findings findings) {
    if (!requested()) {
      return;
    }
    for (int i = 0; i < s.txns.released(); i++) {
      final Transaction t = s.txns.txn(s.txns.releasedAt(i));
      if (t.level() == null && s.options.defaultLevel() == null) {
        findings.add(FindingKind.INVALID_LEVEL, null, t.id(), t.line(), "transaction " + t.id() + " declares no "
            + "level, and --levels MIXED judges each read at its reader's declared level; declare one (\"level\") "
            + "or give --default-level");
      } else if (t.level() != null) {
        try {
          DeclaredLevels.parse(t.level());
        } catch (final IllegalArgumentException e) {
          findings.add(FindingKind.INVALID_LEVEL, null, t.id(), t.line(), "transaction " + t.id() + ": "
              + e.getMessage());
        }
      }
    }
  }

  private MixedLevelCheck.Result check() {
    final long now = s.txns.released();
    // Between two transactions (the watch of verdict changes) the decision may lag until the retained
    // history has doubled: about two whole checks over a history's growth, where WeakVerdicts' eighth
    // costs nine. A result read (a verdict published, the end of a check) is never lagged.
    final boolean fresh = cached != null && (now == stamp || (lag && now < stamp + Math.max(64, stamp)));
    if (!fresh) {
      final List<WeakLevelCheck.Entry> entries = new ArrayList<>();
      for (int i = 0; i < s.txns.released(); i++) {
        final int slot = s.txns.releasedAt(i);
        entries.add(new WeakLevelCheck.Entry(s.txns.txn(slot), s.txns.session(slot), s.txns.rank(slot)));
      }
      final HorizonSummary h = s.summary;
      final Level fallback = s.options.defaultLevel();
      cached = new MixedLevelCheck(entries, s.options.initialValue(), h != null && h.cuts > 0, complete, t -> {
        try {
          return DeclaredLevels.of(t, fallback);
        } catch (final IllegalArgumentException e) {
          return null;
        }
      }, s.options.solverBudget()).decide(s.options.levels());
      stamp = now;
    }
    return cached;
  }
}
