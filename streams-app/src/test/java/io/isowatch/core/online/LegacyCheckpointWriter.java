package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Transaction;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Writes the state right after a cut as a checkpoint, format version 2 ({@link CheckpointFormat}
 * for the frame; the body's sections, in order, are listed in docs/segmentation.md,
 * "Checkpoints"). Every section is written in a canonical order, so that equal states give equal
 * bytes (timings aside). {@link CheckpointReader} reads it.
 */
final class CheckpointWriter {
  /** The checker's own fields: published verdicts, latest end seen, last released π position, time. */
  record CheckerFields(Map<Level, Verdict> published, long maxEnd, int lastReleasedPos, long nanos) {}

  private final OnlineState s;
  private final CheckpointOutput out = new CheckpointOutput();

  private CheckpointWriter(final OnlineState s) {
    this.s = s;
  }

  static byte[] write(final OnlineState s, final CheckedReads checked, final CheckerFields checker) {
    if (s.summary == null || s.anomalies.total() != 0) {
      throw new IllegalStateException("a checkpoint is the state right after a cut");
    }
    final CheckpointWriter w = new CheckpointWriter(s);
    w.summary(s.summary);
    w.keysAndSessions();
    w.segment();
    w.checked(checked);
    w.waiting();
    w.counters();
    w.findings(s.findings);
    w.pairs(CheckedReads.sortedPairs(s.thinAir));
    w.repeated();
    w.checker(checker);
    return frame(w.out.toByteArray(), checker.nanos(), s.summary);
  }

  private void summary(final HorizonSummary h) {
    filter(h.overwritten);
    filter(h.other);
    out.signed(h.bound);
    out.unsigned(h.cuts);
    out.unsigned(h.pruned);
    out.unsigned(h.anomalies.size());
    for (final Anomaly a : h.anomalies) {
      CheckpointRecords.writeAnomaly(out, a);
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
    out.unsigned(s.keys.count());
    for (int k = 0; k < s.keys.count(); k++) {
      out.name(s.keys.name(k));
      out.nullableSigned(s.versions.value(s.keys.initVersion(k)));
      out.unsigned(s.keys.heads(k));
      out.bool(s.keys.isAmbiguous(k));
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
      base = CheckpointRecords.writeTxn(out, t, base);
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
    for (final long n : new long[] {s.input, s.committed, s.aborted, s.promoted, s.operations, s.longRmw,
        s.largeReadOnly, s.duplicates, s.late}) {
      out.unsigned(n);
    }
    out.bool(s.missingTimes);
    out.bool(s.repeatSeen);
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
    out.bool(s.repeated != null);
    if (s.repeated != null) {
      final java.util.List<Map.Entry<String, Long>> pairs = s.repeated.pairs();
      out.unsigned(pairs.size());
      for (final Map.Entry<String, Long> p : pairs) {
        out.name(p.getKey());
        out.signed(p.getValue());
      }
    }
    out.bool(s.repeatsDeclared);
  }

  private void checker(final CheckerFields c) {
    out.unsigned(c.published().size());
    c.published().forEach((level, verdict) -> {
      out.rawByte(CheckpointRecords.level(level));
      out.rawByte(CheckpointRecords.verdict(verdict));
    });
    out.signed(c.maxEnd());
    out.signed(c.lastReleasedPos());
  }

  private static byte[] frame(final byte[] body, final long nanos, final HorizonSummary h) {
    final int length = CheckpointFormat.HEADER + body.length + CheckpointFormat.CHECKSUM;
    final ByteBuffer b = ByteBuffer.allocate(length);
    b.putInt(CheckpointFormat.MAGIC).putInt(CheckpointFormat.VERSION).putInt(length);
    b.putLong(nanos).putLong(h.cutNanos).putLong(h.lastCutNanos);
    b.put(body);
    final CRC32 crc = new CRC32();
    crc.update(b.array(), 0, length - CheckpointFormat.CHECKSUM);
    b.putInt((int) crc.getValue());
    return b.array();
  }
}
