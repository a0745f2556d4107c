package io.isowatch.core.online;

import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.FindingMessages;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.RealTime;
import io.isowatch.core.check.SessionSeqs;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where to cut and what to keep of the pruned prefix (docs/segmentation.md): chooses the cut
 * position, folds the prefix into the {@link HorizonSummary} and makes the next segment's state,
 * seeded with the same key and session ids and with each key's frontier value as its initial
 * version. The caller then replays the retained transactions into it.
 */
final class Segmenter {
  private Segmenter() {}

  /** The π position of the first retained transaction, or 0 when nothing can be pruned now. */
  static int cutPosition(final OnlineState s, final Horizon h, final int lastReleasedSlot) {
    final TxnIndex txns = s.txns;
    final int released = txns.released();
    long p = 0;
    if (h.transactions() != Horizon.UNLIMITED) {
      p = Math.max(p, released - h.transactions());
    }
    final long latest = s.cutPoints.latestReleasedTime();
    if (h.micros() != Horizon.UNLIMITED && latest != Long.MIN_VALUE) {
      final long from = latest - h.micros();
      int i = 0;
      while (i < released && txns.endKey(txns.releasedAt(i)) < from) {
        i++;
      }
      p = h.transactions() != Horizon.UNLIMITED ? Math.max(p, i) : i;
    }
    int cut = (int) Math.min(p, released);
    // A read still waiting for its writer must keep its reader (it expires within grace of π).
    cut = Math.min(cut, s.pending.minReader(txns::piPos));
    if (lastReleasedSlot >= 0) {
      // The latest transaction in π orders later arrivals: it stays.
      cut = Math.min(cut, txns.piPos(lastReleasedSlot));
    }
    if (h.onSnapshots()) {
      cut = s.cutPoints.lastSnapshotAtMost(cut);
    }
    return Math.max(0, cut);
  }

  /** Whether {@code t}, committed and processed now, is a snapshot transaction (reads every key). */
  static boolean isSnapshot(final Transaction t, final int keysKnown) {
    if (t.status() != TxnStatus.COMMITTED || t.ops().size() < keysKnown || keysKnown == 0) {
      return false;
    }
    final Set<String> keys = new HashSet<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        return false;
      }
      keys.add(op.key());
    }
    return keys.size() >= keysKnown;
  }

  /**
   * Folds everything before π position {@code cut} of {@code old} into its summary and returns the
   * next segment's empty state, seeded. {@code verdicts} are the old state's current verdicts;
   * {@code thinAirOnly} the levels among them violated by ThinAirReads alone, which the summary
   * keeps apart so that a retraction can give them back.
   */
  static OnlineState cut(final OnlineState old, final int cut, final Map<Level, Verdict> verdicts,
      final Set<Level> thinAirOnly) {
    final HorizonSummary sum = old.summary;
    final CutReplay r = new CutReplay(old, cut);
    final Long[] frontier = retire(old, r, sum);
    saturation(old, sum);
    sessions(old, r, sum);
    unknowns(old, r, sum);
    sum.carry(old.anomalies.select(), old.anomalies.counts(), old.anomalies.truncated(), old.options.maxAnomalies());
    verdicts.forEach((level, v) -> {
      if (v == Verdict.VIOLATED) {
        (thinAirOnly.contains(level) ? sum.thinAirViolated : sum.violated).add(level);
      }
    });
    sum.cuts++;
    sum.pruned += cut;
    final int retained = old.txns.released() - cut + old.buffer.size();
    final OnlineState next = new OnlineState(old.options, old.online, Math.max(1 << 10, 2 * retained), sum);
    next.sessions.seed(old.sessions);
    for (int k = 0; k < old.chains.keyCount(); k++) {
      next.chains.seedKey(old.chains.keyName(k), frontier[k]);
    }
    next.chains.carryNumbering(old.chains);
    return next;
  }

  /** Sorts the pruned versions into frontier and filters; returns each key's frontier value. */
  private static Long[] retire(final OnlineState old, final CutReplay r, final HorizonSummary sum) {
    final int keys = old.chains.keyCount();
    final int[] frontier = new int[keys];
    final int[] frontierPos = new int[keys];
    Arrays.fill(frontier, -1);
    final VersionChains chains = old.chains;
    for (int ver = 0; ver <= chains.lastVersion(); ver++) {
      final int w = chains.writer(ver);
      if (!r.pruned(w)) {
        continue;
      }
      final int k = chains.versionKey(ver);
      final boolean absent = chains.value(ver) == null;
      final long raw = chains.rawValue(ver);
      final boolean counted = old.txns.isCounted(w);
      if (!chains.isFinal(ver) || !counted || chains.isRepeated(ver)) {
        final boolean dormant = !counted && old.txns.status(w) == TxnStatus.UNKNOWN && chains.isFinal(ver);
        if (dormant || chains.isRepeated(ver)) {
          sum.retire(false, k, raw, absent);
        } else {
          // Aborted or intermediate: any later read of it is G1a/G1b, which violates every level.
          sum.retire(true, k, raw, absent);
        }
        continue;
      }
      boolean prunedSuccessor = false;
      boolean endsKnown = true;
      long successorEnd = Long.MIN_VALUE;
      for (int e = chains.firstSuccessor(ver); e >= 0; e = chains.nextSuccessor(e)) {
        final int succ = chains.successor(e);
        if (r.pruned(succ)) {
          prunedSuccessor = true;
          final Transaction st = old.txns.txn(succ);
          if (RealTime.endUsable(st)) {
            successorEnd = Math.max(successorEnd, st.end());
          } else {
            endsKnown = false;
          }
        }
      }
      if (prunedSuccessor) {
        if (endsKnown) {
          sum.retire(true, k, raw, absent);
          sum.bound = Math.max(sum.bound, successorEnd);
        } else {
          sum.retire(false, k, raw, absent);
        }
        continue;
      }
      final int pos = w == TxnIndex.INIT ? -1 : old.txns.piPos(w);
      if (frontier[k] < 0 || pos > frontierPos[k]) {
        if (frontier[k] >= 0) {
          sum.retire(false, k, chains.rawValue(frontier[k]), chains.value(frontier[k]) == null);
        }
        frontier[k] = ver;
        frontierPos[k] = pos;
      } else {
        sum.retire(false, k, raw, absent);
      }
    }
    final Long[] values = new Long[keys];
    for (int k = 0; k < keys; k++) {
      values[k] = frontier[k] >= 0 ? chains.value(frontier[k]) : chains.initialValueOf(k);
    }
    return values;
  }

  /**
   * Once, when the filters of retired versions have reached their cap and their false-positive
   * probability has grown past {@link HorizonSummary#FALSE_POSITIVE_BOUND}: a finding, so that a
   * thin-air read that may now be taken for a stale read is not missed in silence.
   */
  private static void saturation(final OnlineState old, final HorizonSummary sum) {
    final double p = sum.falsePositiveProbability();
    if (p > HorizonSummary.FALSE_POSITIVE_BOUND && !old.findings().has(FindingKind.RETIRED_FILTER_SATURATED)) {
      old.findings().add(FindingKind.RETIRED_FILTER_SATURATED, null, null, 0, "the filters of retired versions ("
          + (sum.overwritten.bytes() + sum.other.bytes()) + " bytes, " + (sum.overwritten.added() + sum.other.added())
          + " versions that fit no run of the exact run-sets, which hold " + sum.runs() + " runs) are past their cap:"
          + " a read of a value never written is taken for a stale read beyond the "
          + "horizon with probability " + Publisher.probability(p) + ", above the bound of "
          + Publisher.probability(HorizonSummary.FALSE_POSITIVE_BOUND) + "; a shorter history per engine or a "
          + "larger cap restores the bound");
    }
  }

  /** Seq findings of the pruned members of each session, and the seq each session expects next. */
  private static void sessions(final OnlineState old, final CutReplay r, final HorizonSummary sum) {
    for (int session = 0; session < old.sessions.count(); session++) {
      final IntList members = old.sessions.members(session);
      final List<Transaction> pruned = new ArrayList<>();
      boolean allSeq = sum.nextSeq(session) != -2;
      for (int i = 0; i < members.size(); i++) {
        final int slot = members.get(i);
        if (r.pruned(slot)) {
          final Transaction t = old.txns.txn(slot);
          pruned.add(t);
          allSeq &= t.hasSeq();
        }
      }
      if (pruned.isEmpty()) {
        continue;
      }
      if (!allSeq) {
        sum.setNextSeq(session, -2);
        continue;
      }
      pruned.sort((a, b) -> Long.compare(a.seq(), b.seq()));
      SessionSeqs.report(pruned, old.findings(), Math.max(0, sum.nextSeq(session)));
      sum.setNextSeq(session, pruned.get(pruned.size() - 1).seq() + 1);
    }
  }

  /** Pruned indeterminate transactions: ignored ones are reported now, all are counted. */
  private static void unknowns(final OnlineState old, final CutReplay r, final HorizonSummary sum) {
    for (int i = 0; i < old.txns.indeterminateCount(); i++) {
      final int slot = old.txns.indeterminateAt(i);
      if (!r.pruned(slot)) {
        continue;
      }
      sum.unknowns++;
      if (!old.txns.isCounted(slot)) {
        final Transaction t = old.txns.txn(slot);
        old.findings().add(FindingKind.UNKNOWN_IGNORED, null, t.id(), t.line(), FindingMessages.unknownIgnored(t.id()));
      }
    }
  }
}
