package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.Map;

/**
 * The writer of format 2, the hand-written varint and dictionary codec that releases before format
 * 3 (Avro) wrote, kept in test scope: it makes the format-1 and format-2 checkpoints that
 * {@link CheckpointReader} must still restore (checkpoints stored by an older release), and it is
 * the baseline of {@code CheckpointCodecBenchmark}. Unchanged but for the transaction and anomaly
 * writers, which were in {@link CheckpointRecords}.
 */
final class LegacyCheckpointWriter {
  private final OnlineState s;
  private final CheckpointOutput out = new CheckpointOutput();

  private LegacyCheckpointWriter(final OnlineState s) {
    this.s = s;
  }

  /** The engine's current checkpoint in format 2 (it must be checkpointable). */
  static byte[] write(final OnlineChecker c) {
    return c.checkpoint(LegacyCheckpointWriter::write);
  }

  static byte[] write(final OnlineState s, final CheckedReads checked, final CheckpointWriter.CheckerFields checker) {
    if (s.summary == null || s.anomalies.total() != 0) {
      throw new IllegalStateException("a checkpoint is the state right after a cut");
    }
    final LegacyCheckpointWriter w = new LegacyCheckpointWriter(s);
    w.summary(s.summary);
    w.keysAndSessions();
    w.segment();
    w.checked(checked);
    w.waiting();
    w.counters();
    w.findings(s.findings());
    w.pairs(CheckedReads.sortedPairs(s.thinAir().reportedValues()));
    w.repeated();
    w.checker(checker);
    return CheckpointFormat.frame(CheckpointFormat.VERSION_VARINT, w.out.toByteArray(), checker.nanos(), s.summary);
  }

  private void summary(final HorizonSummary h) {
    filter(h.overwritten);
    filter(h.other);
    out.signed(h.bound);
    out.unsigned(h.cuts);
    out.unsigned(h.pruned);
    out.unsigned(h.anomalies.size());
    for (final Anomaly a : h.anomalies) {
      writeAnomaly(out, a);
    }
    out.unsigned(h.counts.size());
    h.counts.forEach((name, n) -> {
      out.name(name);
      out.unsigned(n);
    });
    out.bool(h.truncated);
    out.rawByte(CheckpointRecords.levels(h.violated));
    out.unsigned(h.staleReads);
    out.bool(h.staleViolatesSser);
    out.rawByte(CheckpointRecords.levels(h.staleUndecided));
    out.unsigned(h.nextSeq.size());
    for (int i = 0; i < h.nextSeq.size(); i++) {
      out.signed(h.nextSeq.get(i));
    }
    out.signed(h.edges);
    out.unsigned(h.unknowns);
  }

  /** A filter: first-stage bits, cap, then its stages (index, hashes, legacy flag, bits). */
  private void filter(final RetiredValues f) {
    out.unsigned(f.firstBits());
    out.unsigned(f.maxBits());
    out.unsigned(f.stages().size());
    for (final RetiredValues.Stage st : f.stages()) {
      out.unsigned(st.index);
      out.unsigned(st.hashes);
      out.bool(st.legacy);
      stage(st);
    }
  }

  /** A stage's bits: its word count, then dense (every word) or sparse (gap and word of each non-zero one). */
  private void stage(final RetiredValues.Stage f) {
    final long[] words = f.words();
    int nonZero = 0;
    for (final long w : words) {
      if (w != 0) {
        nonZero++;
      }
    }
    out.unsigned(words.length);
    out.unsigned(f.added());
    // A sparse word costs its 8 bytes plus a gap of 1 to 4 bytes.
    final boolean sparse = 10L * nonZero < 8L * words.length;
    out.bool(sparse);
    if (!sparse) {
      for (final long w : words) {
        out.fixedLong(w);
      }
      return;
    }
    out.unsigned(nonZero);
    int previous = -1;
    for (int i = 0; i < words.length; i++) {
      if (words[i] != 0) {
        out.unsigned(i - previous - 1);
        out.fixedLong(words[i]);
        previous = i;
      }
    }
  }

  private void keysAndSessions() {
    out.unsigned(s.chains.keyCount());
    for (int k = 0; k < s.chains.keyCount(); k++) {
      out.name(s.chains.keyName(k));
      out.nullableSigned(s.chains.initialValueOf(k));
      out.unsigned(s.chains.headCount(k));
      out.bool(s.chains.isAmbiguous(k));
    }
    out.unsigned(s.sessions.count());
    for (int i = 0; i < s.sessions.count(); i++) {
      out.name(s.sessions.name(i));
      out.unsigned(s.sessions.arrivals(i));
    }
  }

  /** The retained transactions in π order, then the buffered ones in buffer order, each with its rank. */
  private void segment() {
    final SegmentTxns seg = SegmentTxns.of(s, 0);
    out.unsigned(seg.retained());
    out.unsigned(seg.size() - seg.retained());
    long base = 0;
    for (int i = 0; i < seg.size(); i++) {
      final Transaction t = seg.txns()[i];
      base = writeTxn(out, t, base);
      // The rank is the seq unless the session gives none (then the arrival index).
      final boolean rankIsSeq = t.hasSeq() && seg.ranks()[i] == t.seq();
      out.bool(!rankIsSeq);
      if (!rankIsSeq) {
        out.signed(seg.ranks()[i]);
      }
    }
  }

  private void checked(final CheckedReads checked) {
    final int[] absent = checked.absentKeys();
    out.unsigned(absent.length);
    int previous = -1;
    for (final int k : absent) {
      out.unsigned(k - previous - 1);
      previous = k;
    }
    pairs(checked.sortedValues());
  }

  /** Sorted (key id, value) pairs: key as the gap to the previous one, value as a delta within a key. */
  private void pairs(final long[] flat) {
    out.unsigned(flat.length / 2);
    long key = 0;
    long value = 0;
    for (int i = 0; i < flat.length; i += 2) {
      out.unsigned(flat[i] - key);
      out.signed(flat[i] == key ? flat[i + 1] - value : flat[i + 1]);
      key = flat[i];
      value = flat[i + 1];
    }
  }

  private void waiting() {
    out.unsigned(s.pending.waiting());
    s.pending.forEachWaiting(e -> {
      out.unsigned(s.txns.piPos(s.pending.reader(e)));
      out.unsigned(s.pending.op(e));
      out.unsigned(s.pending.key(e));
      out.signed(s.pending.value(e));
    });
  }

  private void counters() {
    final Counters c = s.counters;
    for (final long n : new long[] {c.input(), c.committed(), c.aborted(), c.promoted(), c.operations(), c.longRmw(),
        c.largeReadOnly(), c.duplicates(), c.late()}) {
      out.unsigned(n);
    }
    out.bool(c.missingTimes());
    out.bool(s.repeats.seen());
  }

  private void findings(final Findings findings) {
    final java.util.List<Findings.Entry> entries = findings.entries();
    out.unsigned(entries.size());
    for (final Findings.Entry e : entries) {
      out.name(e.kind().name());
      out.nullableName(e.key());
      out.string(e.firstMessage());
      out.rawByte(CheckpointRecords.levels(e.levels()));
      out.unsigned(e.count());
      out.unsigned(e.txns().size());
      e.txns().forEach(out::string);
      out.unsigned(e.lines().size());
      e.lines().forEach(out::signed);
    }
  }

  private void repeated() {
    out.bool(s.repeats.declaredValues() != null);
    if (s.repeats.declaredValues() != null) {
      final java.util.List<Map.Entry<String, Long>> pairs = s.repeats.declaredValues().pairs();
      out.unsigned(pairs.size());
      for (final Map.Entry<String, Long> p : pairs) {
        out.name(p.getKey());
        out.signed(p.getValue());
      }
    }
    out.bool(s.repeats.wholeHistoryDeclared());
  }

  private void checker(final CheckpointWriter.CheckerFields c) {
    out.unsigned(c.published().size());
    c.published().forEach((level, verdict) -> {
      out.rawByte(CheckpointRecords.level(level));
      out.rawByte(CheckpointRecords.verdict(verdict));
    });
    out.signed(c.maxEnd());
    out.signed(c.lastReleasedPos());
  }

  /**
   * A transaction: flags byte (seq, start, end, tenant, level present; status code in bits 5-6),
   * id, session name, seq, start (as the difference to {@code base}), end (as the difference to
   * start when both are known), tenant, level, line, ops (each a header byte, the key name, the
   * value unless null). Returns the base for the next transaction: its start, if it has one.
   * Transactions written in π order have close starts, so a difference takes 2-3 bytes, not 8.
   */
  private static long writeTxn(final CheckpointOutput out, final Transaction t, final long base) {
    final boolean start = t.start() != Transaction.NO_TIME;
    final boolean end = t.end() != Transaction.NO_TIME;
    out.rawByte((t.hasSeq() ? CheckpointRecords.HAS_SEQ : 0) | (start ? CheckpointRecords.HAS_START : 0) | (end ? CheckpointRecords.HAS_END : 0)
        | (t.tenant() != null ? CheckpointRecords.HAS_TENANT : 0) | (t.level() != null ? CheckpointRecords.HAS_LEVEL : 0)
        | CheckpointRecords.code(CheckpointRecords.STATUSES, t.status()) << CheckpointRecords.STATUS_SHIFT);
    out.string(t.id());
    out.name(t.session());
    if (t.hasSeq()) {
      out.signed(t.seq());
    }
    if (start) {
      out.signed(t.start() - base);
    }
    if (end) {
      // Differences wrap in two's complement, so any pair of times round-trips.
      out.signed(start ? t.end() - t.start() : t.end());
    }
    if (t.tenant() != null) {
      out.name(t.tenant());
    }
    if (t.level() != null) {
      out.name(t.level());
    }
    out.signed(t.line());
    out.unsigned(t.ops().size());
    for (final Op op : t.ops()) {
      out.rawByte((op.isWrite() ? CheckpointRecords.WRITE : 0) | (op.value() == null ? CheckpointRecords.NULL_VALUE : 0));
      out.name(op.key());
      if (op.value() != null) {
        out.signed(op.value());
      }
    }
    return start ? t.start() : base;
  }

  /**
   * An anomaly: type, name, the levels it violates (bit 7 set when it has a read), its
   * transactions, its cycle (each edge: from and to ids, kind code, key, value), its explanation
   * and, if it has one, its read (transaction id, op index, key, value).
   */
  static void writeAnomaly(final CheckpointOutput out, final Anomaly a) {
    out.name(a.type());
    out.nullableName(a.name());
    out.rawByte(CheckpointRecords.levels(a.violates()) | (a.read() != null ? CheckpointRecords.HAS_READ : 0));
    out.unsigned(a.transactions().size());
    for (final Transaction t : a.transactions()) {
      writeTxn(out, t, 0);
    }
    out.unsigned(a.cycle().size());
    for (final Edge e : a.cycle()) {
      out.string(e.from());
      out.string(e.to());
      out.rawByte(CheckpointRecords.code(CheckpointRecords.EDGE_KINDS, e.kind()));
      out.nullableName(e.key());
      out.nullableSigned(e.value());
    }
    out.string(a.explanation());
    if (a.read() != null) {
      out.string(a.read().txn());
      out.unsigned(a.read().op());
      out.name(a.read().key());
      out.nullableSigned(a.read().value());
    }
  }
}
