package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.FindingMessages;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.RealTime;
import io.isowatch.core.check.ReadAnomaly;
import io.isowatch.core.check.TransactionAnalysis;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.InternedOps;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.EnumSet;
import java.util.List;

/**
 * Checks released transactions one at a time, in π order (design steps 2-7; step 8 is the
 * {@link CycleDetector}): analyses each alone, registers its writes, counts it (committed), holds
 * it dormant (indeterminate) or keeps it only as a writer (aborted), resolves reads to the
 * versions they read, builds WR, WW, RW, SO and real-time edges, and reports the non-cycle
 * anomalies and lost updates (docs/anomalies.md).
 */
final class TransactionChecker {
  /** {@link #resolve} did not look the version up before asking the replay's oracle. */
  private static final int NOT_LOOKED_UP = Integer.MIN_VALUE;
  private final OnlineState s;
  private final Publisher out;
  private final CycleDetector cycles;
  private final TransactionAnalysis analysis = new TransactionAnalysis();
  private int analyzed = -1;
  private final StepEdges step = new StepEdges();
  /** Transactions that became counted in this step and still have to be processed as such. */
  private final IntList work = new IntList(16);
  private final IntList newVersions = new IntList(8);
  private final IntList resolved = new IntList(16);
  private int[] opKeys = new int[16];
  private final IndexSort.IntComparator byReader;
  private final VersionChains.LostUpdates lostUpdates;

  TransactionChecker(final OnlineState s, final Publisher out) {
    this.s = s;
    this.out = out;
    this.cycles = new CycleDetector(s, out);
    this.lostUpdates = out::lostUpdate;
    this.byReader = (a, b) -> {
      final int c = Integer.compare(s.txns.piPos(s.pending.reader(a)), s.txns.piPos(s.pending.reader(b)));
      return c != 0 ? c : Integer.compare(s.pending.op(a), s.pending.op(b));
    };
  }

  /** Processes a released transaction (design steps 2-8). */
  void release(final int slot) {
    s.txns.markReleased(slot);
    final long end = s.txns.endKey(slot);
    // A proof by absence waits for the declared lateness bound (docs/streaming.md, "No false positive from time").
    final long absence = s.online.absenceMicros();
    if (s.online.graceBounded() && end != TxnIndex.NO_END && end >= Long.MIN_VALUE + absence) {
      expire(end - absence);
    }
    final Transaction t = s.txns.txn(slot);
    s.sessions.add(s.txns.session(slot), s.txns.rank(slot), slot);
    s.counters.countOperations(t.ops().size());
    analyze(slot);
    registerWrites(slot, t);
    if (s.weakLevels != null) {
      s.weakLevels.released(slot, opKeys);
    }
    switch (t.status()) {
      case ABORTED -> s.counters.countAborted();
      case UNKNOWN -> s.txns.markIndeterminate(slot);
      case COMMITTED -> {
        s.txns.markCounted(slot);
        work.add(slot);
      }
    }
    drainWork();
    for (int i = 0; i < newVersions.size(); i++) {
      resolvePending(newVersions.get(i));
    }
    cycles.commit(step);
  }

  /** Reports every read still waiting for a writer as a ThinAirRead (a flush). */
  void expireAll() {
    resolved.clear();
    s.pending.drain(resolved);
    thinAir(resolved);
  }

  private void expire(final long bound) {
    resolved.clear();
    s.pending.expireBefore(bound, resolved);
    thinAir(resolved);
  }

  private void thinAir(final IntList entries) {
    sortByReader(entries);
    for (int i = 0; i < entries.size(); i++) {
      final int e = entries.get(i);
      final int k = s.pending.key(e);
      final long v = s.pending.value(e);
      if (staleRead(s.pending.reader(e), k, v, s.pending.op(e), s.pending.writesKey(e))) {
        continue;
      }
      final Anomaly published = out.read(
          new ReadAnomaly(ReadAnomaly.Kind.ThinAirRead, s.pending.reader(e), -1, k, v, null, s.pending.op(e)));
      if (published != null) {
        s.thinAir().published(k, v, new ThinAirReads.Read(s.txns.txn(s.pending.reader(e)).id(), s.pending.op(e),
            s.pending.writesKey(e), published));
      }
      if (s.pending.writesKey(e)) {
        s.chains.addOpenHead(k);
      }
      s.thinAir().reported(k, v);
    }
  }

  /**
   * A read of a value no retained transaction wrote: a stale read beyond the horizon if the
   * summary's run-sets (exact) or filters know it as retired (docs/segmentation.md). Returns false when the value was
   * certainly never retired (then it is thin air, as without segmentation).
   */
  private boolean staleRead(final int reader, final int k, final Long v, final int op, final boolean writesKey) {
    final HorizonSummary h = s.summary;
    if (h == null || h.cuts == 0) {
      return false;
    }
    final int which = h.retired(k, v == null ? 0 : v, v == null);
    if (which == 0) {
      return false;
    }
    final Transaction t = s.txns.txn(reader);
    final boolean sser = which == 1 && s.requested(Level.SSER) && h.bound != Long.MIN_VALUE
        && RealTime.startUsable(t) && t.start() > h.bound + s.options.rtSkewMicros();
    // A run-set's answer is exact: the explanation then states the pruned writer as a fact.
    final boolean certain = h.certainlyRetired(k, v == null ? 0 : v, v == null);
    out.staleRead(reader, op, s.chains.keyName(k), v, which == 1, certain, h.falsePositiveProbability(), sser);
    if (writesKey) {
      s.chains.addOpenHead(k);
    }
    return true;
  }

  /** Resolution order of several reads: by reader's π position, then op. */
  private void sortByReader(final IntList entries) {
    final int n = entries.size();
    if (n < 2) {
      return;
    }
    final int[] idx = entries.toArray();
    IndexSort.sort(idx, n, byReader);
    for (int i = 0; i < n; i++) {
      entries.set(i, idx[i]);
    }
  }

  private void analyze(final int slot) {
    final List<Op> ops = s.txns.txn(slot).ops();
    if (opKeys.length < ops.size()) {
      opKeys = new int[Math.max(ops.size(), 2 * opKeys.length)];
    }
    if (ops instanceof InternedOps interned) {
      // Numbered by the reader: found by number, not looked up by name again.
      for (int j = 0; j < ops.size(); j++) {
        opKeys[j] = s.chains.key(interned, j);
      }
    } else {
      for (int j = 0; j < ops.size(); j++) {
        opKeys[j] = s.chains.key(ops.get(j).key());
      }
    }
    analysis.analyze(slot, ops, opKeys);
    analyzed = slot;
  }

  /** Design step 4: every write op of any status goes into {@code versions}. */
  private void registerWrites(final int slot, final Transaction t) {
    newVersions.clear();
    final Long initial = s.options.initialValue();
    final List<Op> ops = t.ops();
    for (int j = 0; j < ops.size(); j++) {
      final Op op = ops.get(j);
      if (!op.isWrite()) {
        continue;
      }
      final int k = opKeys[j];
      final long v = op.value();
      if (initial != null && v == initial) {
        out.finding(FindingKind.INITIAL_VALUE_WRITE, op.key(), t,
            FindingMessages.initialValueWrite(t.id(), op.key(), v));
      }
      final int version = s.chains.addWritten(k, v, slot, analysis.isLastWriteOp(j));
      if (version < 0) {
        final int added = s.chains.lastVersion();
        if (s.repeats.declared(op.key(), v)) {
          s.chains.markRepeated(added);
        }
        if (s.thinAir().wasReported(k, v)) {
          late(t, "transaction " + t.id() + " writes " + op.key() + "=" + v
              + ", which a transaction read and was reported as a ThinAirRead before this writer came");
          retractThinAir(k, v, t, t.status() != TxnStatus.ABORTED && analysis.isLastWriteOp(j));
        }
        newVersions.add(added);
      } else {
        s.repeats.markSeen();
        s.chains.markRepeated(version);
        out.finding(FindingKind.NON_UNIQUE_WRITE, op.key(), t, FindingMessages.nonUniqueWrite(t.id(), op.key(), v));
        final int w = s.chains.writer(version);
        if (s.txns.isCounted(w) && s.chains.isFinal(version)) {
          s.chains.markAmbiguous(k);
        }
      }
    }
  }

  /**
   * A writer of (k, v) came after reads of that value were published as ThinAirReads: they were
   * false. One published by this state is retracted, and its read waits again, so that this
   * writer's release resolves it as any read of it (WR, or an AbortedRead or IntermediateRead).
   * One published before a cut (its reader pruned since, or replayed into this state after the
   * cut, or restored from a checkpoint) is listed in the horizon's summary: it is retracted from
   * there when {@code committedFinal} (the writer committed this value as its last write of the
   * key, so the read is a plain WR read of it, which cannot be checked again against a pruned
   * reader: the retraction stands, for the value was written, but whether the read was fine is not
   * known, docs/streaming.md); otherwise the read is an AbortedRead or an IntermediateRead of this writer, which
   * violates the same levels, and the ThinAirRead stands (the writer is a LATE_TRANSACTION finding).
   */
  private void retractThinAir(final int k, final long v, final Transaction writer, final boolean committedFinal) {
    for (final ThinAirReads.Read r : s.thinAir().takePublished(k, v)) {
      final int reader = s.txns.slotOf(r.reader());
      if (reader > 0 && s.anomalies.removeRead(ReadAnomaly.Kind.ThinAirRead.name(), reader, r.op())) {
        out.retract(r.anomaly(), writer.id(), "transaction " + writer.id() + " writes " + s.chains.keyName(k) + "="
            + v + ", the value " + r.reader() + " read: that read was published as a ThinAirRead before its writer"
            + " came, later than every lateness bound; the read is checked against this writer instead");
        if (r.writesKey()) {
          s.chains.removeOpenHead(k);
        }
        s.pending.add(k, v, reader, r.op(), r.writesKey(), s.txns.endKey(reader));
        continue;
      }
      if (committedFinal && s.summary != null && s.summary.retract(r.anomaly())) {
        out.retract(r.anomaly(), writer.id(), "transaction " + writer.id() + " writes " + s.chains.keyName(k) + "="
            + v + ", the value " + r.reader() + " read: that read was published as a ThinAirRead before its writer"
            + " came, later than every lateness bound and before a cut of the horizon; the read is not checked against"
            + " this writer (its reader left the checked segment): whether it was a fine read is not known (docs/"
            + "streaming.md, \"A retracted read whose reader was pruned\")");
      }
    }
  }

  void late(final Transaction t, final String message) {
    s.counters.countLate();
    out.finding(FindingKind.LATE_TRANSACTION, null, t, message
        + "; it is checked all the same, but the result may differ from isowatch check on the same history");
  }

  private void drainWork() {
    for (int i = 0; i < work.size(); i++) {
      count(work.get(i));
    }
    work.clear();
  }

  /** The transaction counts from now on: design steps 5-7 for it. */
  private void count(final int slot) {
    final Transaction t = s.txns.txn(slot);
    if (analyzed != slot) {
      analyze(slot);
    }
    s.counters.countCommitted();
    if (analysis.longReadModifyWrite()) {
      s.counters.countLongReadModifyWrite();
    } else if (analysis.largeReadOnly()) {
      s.counters.countLargeReadOnly();
    }
    for (final ReadAnomaly a : analysis.internalAnomalies()) {
      out.read(a);
    }
    s.graph.addTransaction(slot);
    // The nearest counted member before it in its session: its SO predecessor, and the transaction
    // its start is compared with (nothing between the two uses changes who is counted).
    final int pred = s.sessions.before(s.txns.session(slot), s.txns.rank(slot), slot, s.txns::isCounted);
    timingFindings(slot, t, pred);
    sessionOrder(slot, pred);
    s.graph.addTimes(slot, step);
    for (int i = 0; i < analysis.keyCount(); i++) {
      final int k = analysis.key(i);
      final boolean writes = analysis.writes(i);
      if (writes) {
        final int version = s.chains.find(k, analysis.lastWrite(i));
        if (s.chains.isRepeated(version)) {
          s.chains.markAmbiguous(k);
        }
        if (analysis.blind(i)) {
          s.chains.startChain(k, slot, step);
          final String name = s.chains.keyName(k);
          out.finding(FindingKind.BLIND_WRITE, name, t, FindingMessages.blindWrite(t.id(), name, true),
              EnumSet.copyOf(Level.NEED_VERSION_ORDER));
        }
      }
      if (analysis.readsBefore(i)) {
        resolve(slot, k, analysis.firstRead(i), analysis.firstReadOp(i), writes);
      }
    }
  }

  private void timingFindings(final int slot, final Transaction t, final int pred) {
    if (t.hasTimes() && t.end() < t.start()) {
      out.finding(FindingKind.END_BEFORE_START, null, t, FindingMessages.endBeforeStart(t));
    }
    if (!RealTime.known(t)) {
      if (s.takeFutureEventTime(t.id())) {
        // FUTURE_EVENT_TIME: kept out of real time on purpose, reported as such (OnlineChecker#acceptAt).
        return;
      }
      if (s.requested(Level.SSER)) {
        s.counters.markMissingTimes();
        out.finding(FindingKind.MISSING_TIMESTAMPS, null, t, FindingMessages.missingTimestamps(t.id()));
      }
      return;
    }
    if (pred > 0) {
      final Transaction p = s.txns.txn(pred);
      if (RealTime.endUsable(p) && t.start() + s.options.rtSkewMicros() < p.end()) {
        out.finding(FindingKind.SESSION_TIME_OVERLAP, null, t, FindingMessages.sessionTimeOverlap(t, p.id()));
      }
    }
  }

  /** Design step 7, SO: edges from and to the nearest counted neighbours in session order. */
  private void sessionOrder(final int slot, final int pred) {
    final int session = s.txns.session(slot);
    final long rank = s.txns.rank(slot);
    if (pred > 0) {
      step.add(pred, slot, EdgeKind.SO, -1);
    }
    final int succ = s.sessions.after(session, rank, slot, s.txns::isCounted);
    if (succ > 0) {
      step.add(slot, succ, EdgeKind.SO, -1);
    }
  }

  /** Design step 5: resolves one external read of a counted transaction. */
  private void resolve(final int reader, final int k, final Long v, final int op, final boolean writesKey) {
    // The key's initial version: the initial value, or after a cut the key's frontier value.
    if (s.chains.readsInitial(k, v)) {
      link(reader, s.chains.initialVersion(k), writesKey);
      return;
    }
    // During a replay the new state is asked first: a read of a version a retained transaction
    // wrote lets the oracle answer without the replaced state's (much larger) tables.
    final int found = s.replay != null && v != null ? s.chains.find(k, v) : NOT_LOOKED_UP;
    if (s.replay != null && s.replay.alreadyChecked(k, v, found >= 0)) {
      // Its writer was pruned by the cut being made; the replaced state checked this read.
      return;
    }
    if (v == null) {
      // Nobody writes null: the absent initial version was retired (a stale read) or it is thin air.
      if (!(s.options.initialValue() == null && staleRead(reader, k, null, op, writesKey))) {
        readAnomaly(ReadAnomaly.Kind.ThinAirRead, reader, -1, k, null, op, writesKey);
      }
      return;
    }
    final int version = found != NOT_LOOKED_UP ? found : s.chains.find(k, v);
    if (version < 0) {
      s.pending.add(k, v, reader, op, writesKey, s.txns.endKey(reader));
      return;
    }
    resolveTo(reader, version, op, writesKey);
  }

  private void resolveTo(final int reader, final int version, final int op, final boolean writesKey) {
    final int k = s.chains.versionKey(version);
    if (s.chains.isRepeated(version)) {
      // Reported as NON_UNIQUE_WRITE; guessing the writer would be unsound.
      s.chains.markAmbiguous(k);
      if (writesKey) {
        s.chains.startChain(k, reader, step);
      }
      return;
    }
    final int w = s.chains.writer(version);
    final ReadAnomaly.Kind kind;
    if (w == reader) {
      kind = ReadAnomaly.Kind.FutureRead;
    } else if (s.txns.status(w) == TxnStatus.ABORTED) {
      kind = ReadAnomaly.Kind.AbortedRead;
    } else if (!s.chains.isFinal(version)) {
      kind = ReadAnomaly.Kind.IntermediateRead;
    } else {
      if (!s.txns.isCounted(w)) {
        s.txns.markCounted(w);
        s.counters.countPromoted();
        work.add(w);
      }
      link(reader, version, writesKey);
      return;
    }
    readAnomaly(kind, reader, w, k, s.chains.value(version), op, writesKey);
  }

  private void readAnomaly(final ReadAnomaly.Kind kind, final int reader, final int writer, final int k,
      final Long v, final int op, final boolean writesKey) {
    out.read(new ReadAnomaly(kind, reader, writer, k, v, null, op));
    if (writesKey) {
      s.chains.addOpenHead(k);
    }
  }

  /** Design step 4 (end): the reads that waited for this version get their writer now. */
  private void resolvePending(final int version) {
    resolved.clear();
    s.pending.take(s.chains.versionKey(version), s.chains.rawValue(version), resolved);
    sortByReader(resolved);
    for (int i = 0; i < resolved.size(); i++) {
      final int e = resolved.get(i);
      resolveTo(s.pending.reader(e), version, s.pending.op(e), s.pending.writesKey(e));
    }
    drainWork();
  }

  /** The read of {@code version} by {@code reader} is WR; design step 6 for it. */
  private void link(final int reader, final int version, final boolean writesKey) {
    s.chains.addRead(reader, version, writesKey, step, lostUpdates);
  }
}
