package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.DeclaredLevels;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.MixedIncremental;
import io.isowatch.core.check.MixedLevelCheck;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.check.WeakLevelCheck;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The verdict of {@link Level#MIXED} (each transaction at its declared level, docs/levels.md
 * "Mixed levels"), read from a state as {@link WeakVerdicts} reads the weak levels: by {@link
 * MixedLevelCheck} over the retained counted transactions, recomputed when the state changed, and
 * VIOLATED as well by the engine's non-cycle anomalies that violate every level. Transactions whose
 * declared level cannot be read (or that declare none without a default) are INVALID_LEVEL findings.
 *
 * <p>Where it can, the verdict comes from {@link MixedIncremental}, told of each released
 * transaction once: SATISFIED extended one transaction at a time, VIOLATED from the transaction that
 * closes the violation on and kept (its counterexample from one whole check, redone at the end of a
 * flush). Where it cannot ({@link MixedIncremental.State#WAITING}, {@link
 * MixedIncremental.State#OFF}, or after a cut), the whole check decides as before; an incremental
 * check that went off only because a session's transactions were released out of their order is
 * rebuilt, in session order, at the next whole check.
 */
final class MixedVerdicts {
  private final OnlineState s;
  private long stamp = -1;
  private boolean complete;
  private boolean lag;
  private MixedLevelCheck.Result cached;
  private MixedIncremental incremental;
  /** How many released transactions {@link #incremental} was told of. */
  private int fed;
  /** The whole check's result once {@link #incremental} found a violation (its counterexample), kept while it stands. */
  private MixedLevelCheck.Result violation;

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
      violation = null;
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
    final MixedIncremental.State state = incremental();
    final Verdict v = state == MixedIncremental.State.SATISFIED ? Verdict.SATISFIED
        : state == MixedIncremental.State.VIOLATED ? Verdict.VIOLATED : check().verdict();
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
    final Anomaly w = incremental() == MixedIncremental.State.VIOLATED ? violation().witness() : check().witness();
    return w == null ? List.of() : List.of(w);
  }

  /**
   * The incremental check told of every released transaction, or OFF after a cut (a read of a
   * pruned writer is then left out by the whole check, and kept by a late writer: not monotone).
   */
  private MixedIncremental.State incremental() {
    final HorizonSummary h = s.summary;
    if (h != null && h.cuts > 0) {
      return MixedIncremental.State.OFF;
    }
    if (incremental == null) {
      incremental = new MixedIncremental(s.options.initialValue(), levels());
      fed = 0;
    }
    for (final int released = s.txns.released(); fed < released; fed++) {
      final int slot = s.txns.releasedAt(fed);
      incremental.add(s.txns.txn(slot), s.txns.session(slot), s.txns.rank(slot));
    }
    return incremental.state();
  }

  /** The whole check's result for the violation the incremental check found; one whole check per violation. */
  private MixedLevelCheck.Result violation() {
    if (violation == null) {
      violation = cached != null && stamp == s.txns.released() ? cached : whole(entries());
    }
    return violation;
  }

  /**
   * A new incremental check told of {@code entries} with each session's members in their order
   * (the i-th released member of a session takes the place of its i-th by rank), when the last one
   * went off only for that order.
   */
  private void rebuild(final List<WeakLevelCheck.Entry> entries) {
    if (incremental == null || !incremental.offByOrder()) {
      return;
    }
    final Map<Integer, List<WeakLevelCheck.Entry>> bySession = new HashMap<>();
    for (final WeakLevelCheck.Entry e : entries) {
      bySession.computeIfAbsent(e.session(), x -> new ArrayList<>()).add(e);
    }
    bySession.values().forEach(members -> members.sort(Comparator.comparingLong(WeakLevelCheck.Entry::rank)));
    final Map<Integer, Integer> next = new HashMap<>();
    incremental = new MixedIncremental(s.options.initialValue(), levels());
    for (final WeakLevelCheck.Entry e : entries) {
      final WeakLevelCheck.Entry inOrder = bySession.get(e.session()).get(next.merge(e.session(), 1, Integer::sum) - 1);
      incremental.add(inOrder.txn(), inOrder.session(), inOrder.rank());
    }
    fed = entries.size();
  }

  private Function<Transaction, Level> levels() {
    final Level fallback = s.options.defaultLevel();
    return t -> {
      try {
        return DeclaredLevels.of(t, fallback);
      } catch (final IllegalArgumentException e) {
        return null;
      }
    };
  }

  private List<WeakLevelCheck.Entry> entries() {
    final List<WeakLevelCheck.Entry> entries = new ArrayList<>();
    for (int i = 0; i < s.txns.released(); i++) {
      final int slot = s.txns.releasedAt(i);
      entries.add(new WeakLevelCheck.Entry(s.txns.txn(slot), s.txns.session(slot), s.txns.rank(slot)));
    }
    return entries;
  }

  private MixedLevelCheck.Result whole(final List<WeakLevelCheck.Entry> entries) {
    final HorizonSummary h = s.summary;
    return new MixedLevelCheck(entries, s.options.initialValue(), h != null && h.cuts > 0, complete, levels(),
        s.options.solverBudget()).decide(s.options.levels());
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
      final List<WeakLevelCheck.Entry> entries = entries();
      cached = whole(entries);
      stamp = now;
      if (s.summary == null || s.summary.cuts == 0) {
        rebuild(entries);
      }
    }
    return cached;
  }
}
