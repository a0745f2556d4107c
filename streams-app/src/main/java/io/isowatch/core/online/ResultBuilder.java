package io.isowatch.core.online;

import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.SessionSeqs;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the current state as a {@link CheckResult}, with the batch checker's semantics: a level is
 * VIOLATED when a non-cycle anomaly or a lost update was found, or its graph refused an edge;
 * otherwise UNKNOWN when some key's version order is open (or, for SSER, some counted transaction
 * lacks usable times), else SATISFIED. Findings that are only known at the end of a stream (seq
 * gaps, ignored indeterminate transactions) are computed here, on a copy.
 */
final class ResultBuilder {
  private final OnlineState s;

  ResultBuilder(final OnlineState s) {
    this.s = s;
  }

  Map<Level, Verdict> verdicts() {
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final boolean everyLevel = s.anomalies.readCount() > 0 || s.anomalies.lostUpdateCount() > 0;
    for (final Level level : s.options.levels()) {
      if (everyLevel || cyclic(level)) {
        verdicts.put(level, Verdict.VIOLATED);
      } else if (s.keys.undeterminedCount() > 0 || (level == Level.SSER && s.missingTimes)) {
        verdicts.put(level, Verdict.UNKNOWN);
      } else {
        verdicts.put(level, Verdict.SATISFIED);
      }
    }
    return verdicts;
  }

  /** Why the level is UNKNOWN (call only when it is). */
  String reason(final Level level) {
    if (s.keys.undeterminedCount() == 0) {
      return "real-time order needs start and end times, and some transactions have none; "
          + "no violation is certain without them";
    }
    final List<String> reasons = new ArrayList<>(3);
    for (int k = 0; k < s.keys.count() && reasons.size() < 3; k++) {
      final String name = s.keys.name(k);
      if (s.keys.isAmbiguous(k)) {
        reasons.add("values written to " + name + " are not unique, so its reads cannot be attributed");
      } else if (s.keys.heads(k) > 0) {
        reasons.add(s.keys.heads(k) + " version(s) of " + name
            + " were written without a read of the key first (blind writes or unattributable reads), so "
            + "their place in its version order is open");
      }
    }
    final int all = s.keys.undeterminedCount();
    return "the version order is not determined by the history: " + String.join("; ", reasons)
        + (all > reasons.size() ? " (" + all + " keys in all)" : "") + "; no violation is certain";
  }

  private boolean cyclic(final Level level) {
    for (final LevelGraph g : s.graphs) {
      if (g.level == level) {
        return g.cyclic();
      }
    }
    return false;
  }

  CheckResult result(final double seconds) {
    final Map<Level, Verdict> verdicts = verdicts();
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    verdicts.forEach((level, v) -> {
      if (v == Verdict.UNKNOWN) {
        reasons.put(level, reason(level));
      }
    });
    final Findings findings = s.findings.copy();
    addSeqFindings(findings);
    long unknown = 0;
    for (int i = 0; i < s.unknowns.size(); i++) {
      final int slot = s.unknowns.get(i);
      unknown++;
      if (!s.txns.isCounted(slot)) {
        final Transaction t = s.txns.txn(slot);
        findings.add(FindingKind.UNKNOWN_IGNORED, null, t.id(), t.line(),
            "indeterminate transaction " + t.id() + " was ignored: no committed transaction read its writes");
      }
    }
    final CheckStats stats = new CheckStats(s.input, s.committed, s.aborted, s.promoted, unknown - s.promoted,
        s.sessions.count(), s.keys.count(), s.operations, s.longRmw, s.largeReadOnly, s.edges.edges(),
        s.anomalies.counts(), s.anomalies.truncated(), seconds);
    return new CheckResult(verdicts, reasons, s.anomalies.select(), findings.toList(), stats);
  }

  /** Seq gaps and duplicates, per session (by name) whose every released transaction has a seq. */
  private void addSeqFindings(final Findings findings) {
    final List<Integer> order = new ArrayList<>();
    for (int i = 0; i < s.sessions.count(); i++) {
      order.add(i);
    }
    order.sort((a, b) -> s.sessions.name(a).compareTo(s.sessions.name(b)));
    for (final int session : order) {
      final IntList members = s.sessions.members(session);
      if (members.size() == 0 || !allHaveSeq(members)) {
        continue;
      }
      final List<Transaction> bySeq = new ArrayList<>(members.size());
      for (int i = 0; i < members.size(); i++) {
        bySeq.add(s.txns.txn(members.get(i)));
      }
      bySeq.sort((a, b) -> Long.compare(a.seq(), b.seq()));
      SessionSeqs.report(bySeq, findings);
    }
  }

  private boolean allHaveSeq(final IntList members) {
    for (int i = 0; i < members.size(); i++) {
      if (!s.txns.txn(members.get(i)).hasSeq()) {
        return false;
      }
    }
    return true;
  }
}
