package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;

/**
 * Writes the state right after a cut as a checkpoint, format version 5: the frame of {@link
 * CheckpointFormat} around the Avro binary encoding of {@code Checkpoint.avsc} (the project's
 * contract, docs/segmentation.md, "Checkpoints"), written field by field in the schema's order.
 * Every section is written in a canonical order, so that equal states give equal bytes (timings
 * aside). {@link CheckpointReader} reads it.
 */
final class CheckpointWriter {
  /** The checker's own fields: published verdicts, latest end seen, last released π position, time. */
  record CheckerFields(Map<Level, Verdict> published, long maxEnd, int lastReleasedPos, long nanos) {}

  /** Writes a checkpoint of a state right after a cut (tests pass the writer of an older format). */
  @FunctionalInterface
  interface Format {
    byte[] write(OnlineState s, CheckedReads checked, CheckerFields checker);
  }

  private final OnlineState s;
  private final CheckpointEncoder out = new CheckpointEncoder();

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
    w.findings(s.findings());
    w.pairs(CheckedReads.sortedPairs(s.thinAir().reportedValues()));
    w.repeated();
    w.checker(checker);
    w.thinAirReads(s.summary, s.thinAir().publishedReads());
    return CheckpointFormat.frame(CheckpointFormat.VERSION, w.out.body(), checker.nanos(), s.summary);
  }

  private void summary(final HorizonSummary h) {
    filter(h.overwritten);
    filter(h.other);
    out.longValue(h.bound);
    out.longValue(h.cuts);
    out.longValue(h.pruned);
    out.array(h.anomalies, this::anomaly);
    out.array(h.counts.entrySet(), e -> {
      out.name(e.getKey());
      out.longValue(e.getValue());
    });
    out.bool(h.truncated);
    out.levels(h.violated);
    out.longValue(h.staleReads);
    out.bool(h.staleViolatesSser);
    out.levels(h.staleUndecided);
    out.arrayStart(h.nextSeq.size());
    for (int i = 0; i < h.nextSeq.size(); i++) {
      out.longValue(h.nextSeq.get(i));
    }
    out.arrayEnd();
    out.longValue(h.edges);
    out.longValue(h.unknowns);
    out.index(1);
    out.longValue(h.allRuns.maxRuns());
    out.longValue(h.versions);
    runs(h.allRuns);
    runs(h.otherRuns);
  }

  /** A run-set: versions taken, absent keys gap-coded, then per key with runs its bounds delta-coded. */
  private void runs(final RetiredRuns r) {
    out.longValue(r.taken());
    final int bound = r.keyBound();
    int absent = 0;
    int withRuns = 0;
    for (int k = 0; k < bound; k++) {
      absent += r.absent(k) ? 1 : 0;
      withRuns += r.runsOf(k).length > 0 ? 1 : 0;
    }
    out.arrayStart(absent);
    int previous = -1;
    for (int k = 0; k < bound; k++) {
      if (r.absent(k)) {
        out.intValue(k - previous - 1);
        previous = k;
      }
    }
    out.arrayEnd();
    out.arrayStart(withRuns);
    previous = -1;
    for (int k = 0; k < bound; k++) {
      final long[] lohi = r.runsOf(k);
      if (lohi.length == 0) {
        continue;
      }
      out.intValue(k - previous - 1);
      previous = k;
      out.arrayStart(lohi.length);
      long last = 0;
      for (int i = 0; i < lohi.length; i++) {
        // Differences wrap in two's complement, so any pair of values round-trips.
        out.longValue(i == 0 ? lohi[0] : lohi[i] - last);
        last = lohi[i];
      }
      out.arrayEnd();
    }
    out.arrayEnd();
  }

  private void filter(final RetiredValues f) {
    out.longValue(f.firstBits());
    out.longValue(f.maxBits());
    out.array(f.stages(), st -> {
      out.intValue(st.index);
      out.intValue(st.hashes);
      out.bool(st.legacy);
      stage(st);
    });
  }

  /** A stage's size, versions added, then its bits: dense (branch 0) or sparse (branch 1), whichever is smaller. */
  private void stage(final RetiredValues.Stage f) {
    final long[] words = f.words();
    int nonZero = 0;
    for (final long w : words) {
      if (w != 0) {
        nonZero++;
      }
    }
    out.intValue(words.length);
    out.longValue(f.added());
    // A sparse word costs its 8 bytes plus a gap of 1 to 4 bytes.
    final boolean sparse = 10L * nonZero < 8L * words.length;
    out.index(sparse ? 1 : 0);
    if (!sparse) {
      final ByteBuffer dense = ByteBuffer.allocate(8 * words.length);
      dense.asLongBuffer().put(words);
      out.bytes(dense.array());
      return;
    }
    final ByteBuffer set = ByteBuffer.allocate(8 * nonZero);
    out.arrayStart(nonZero);
    int previous = -1;
    for (int i = 0; i < words.length; i++) {
      if (words[i] != 0) {
        out.intValue(i - previous - 1);
        set.putLong(words[i]);
        previous = i;
      }
    }
    out.arrayEnd();
    out.bytes(set.array());
  }

  private void keysAndSessions() {
    out.arrayStart(s.chains.keyCount());
    for (int k = 0; k < s.chains.keyCount(); k++) {
      out.name(s.chains.keyName(k));
      out.nullableLong(s.chains.initialValueOf(k));
      out.intValue(s.chains.headCount(k));
      out.bool(s.chains.isAmbiguous(k));
    }
    out.arrayEnd();
    out.arrayStart(s.sessions.count());
    for (int i = 0; i < s.sessions.count(); i++) {
      out.name(s.sessions.name(i));
      out.intValue(s.sessions.arrivals(i));
    }
    out.arrayEnd();
  }

  /** The retained transactions in π order, then the buffered ones in buffer order, each with its rank. */
  private void segment() {
    final SegmentTxns seg = SegmentTxns.of(s, 0);
    out.intValue(seg.retained());
    out.arrayStart(seg.size());
    long base = 0;
    for (int i = 0; i < seg.size(); i++) {
      final Transaction t = seg.txns()[i];
      base = txn(t, base);
      // The rank is the seq unless the session gives none (then the arrival index).
      final boolean rankIsSeq = t.hasSeq() && seg.ranks()[i] == t.seq();
      out.nullableLong(rankIsSeq ? null : seg.ranks()[i]);
    }
    out.arrayEnd();
  }

  /**
   * A {@code Transaction}: its start as the difference to {@code base} (transactions written in π
   * order have close starts, so a difference takes 2-3 bytes, not 8), its end as the difference to
   * its start when both are known. Returns the base for the next one: its start, if it has one.
   */
  private long txn(final Transaction t, final long base) {
    final boolean start = t.start() != Transaction.NO_TIME;
    final boolean end = t.end() != Transaction.NO_TIME;
    out.string(t.id());
    out.name(t.session());
    out.nullableLong(t.hasSeq() ? t.seq() : null);
    out.index(CheckpointRecords.status(t.status()));
    out.nullableLong(start ? t.start() - base : null);
    // Differences wrap in two's complement, so any pair of times round-trips.
    out.nullableLong(!end ? null : start ? t.end() - t.start() : t.end());
    out.nullableName(t.tenant());
    out.nullableName(t.level());
    out.intValue(t.line());
    out.array(t.ops(), this::op);
    return start ? t.start() : base;
  }

  /** An op: the union's branch ({@code Read}, {@code Write}, {@code ReadAbsent}), the key, the value unless absent. */
  private void op(final Op op) {
    out.index(op.isWrite() ? 1 : op.value() == null ? 2 : 0);
    out.name(op.key());
    if (op.value() != null) {
      out.longValue(op.value());
    }
  }

  private void anomaly(final Anomaly a) {
    out.name(a.type());
    out.nullableName(a.name());
    out.levels(a.violates());
    out.array(a.transactions(), t -> txn(t, 0));
    out.array(a.cycle(), this::edge);
    out.string(a.explanation());
    out.index(a.read() == null ? 0 : 1);
    if (a.read() != null) {
      out.string(a.read().txn());
      out.intValue(a.read().op());
      out.name(a.read().key());
      out.nullableLong(a.read().value());
    }
  }

  private void edge(final Edge e) {
    out.string(e.from());
    out.string(e.to());
    out.index(CheckpointRecords.edgeKind(e.kind()));
    out.nullableName(e.key());
    out.nullableLong(e.value());
  }

  private void checked(final CheckedReads checked) {
    final int[] absent = checked.absentKeys();
    out.arrayStart(absent.length);
    int previous = -1;
    for (final int k : absent) {
      out.intValue(k - previous - 1);
      previous = k;
    }
    out.arrayEnd();
    pairs(checked.sortedValues());
  }

  /** Sorted (key id, value) pairs: key as the gap to the previous one, value as a delta within a key. */
  private void pairs(final long[] flat) {
    out.arrayStart(flat.length / 2);
    long key = 0;
    long value = 0;
    for (int i = 0; i < flat.length; i += 2) {
      out.intValue(Math.toIntExact(flat[i] - key));
      out.longValue(flat[i] == key ? flat[i + 1] - value : flat[i + 1]);
      key = flat[i];
      value = flat[i + 1];
    }
    out.arrayEnd();
  }

  private void waiting() {
    out.arrayStart(s.pending.waiting());
    s.pending.forEachWaiting(e -> {
      out.intValue(s.txns.piPos(s.pending.reader(e)));
      out.intValue(s.pending.op(e));
      out.intValue(s.pending.key(e));
      out.longValue(s.pending.value(e));
    });
    out.arrayEnd();
  }

  private void counters() {
    final Counters c = s.counters;
    for (final long n : new long[] {c.input(), c.committed(), c.aborted(), c.promoted(), c.operations(), c.longRmw(),
        c.largeReadOnly(), c.duplicates(), c.late()}) {
      out.longValue(n);
    }
    out.bool(c.missingTimes());
    out.bool(s.repeats.seen());
  }

  private void findings(final Findings findings) {
    out.array(findings.entries(), e -> {
      out.name(e.kind().name());
      out.nullableName(e.key());
      out.string(e.firstMessage());
      out.levels(e.levels());
      out.longValue(e.count());
      out.array(e.txns(), out::string);
      out.array(e.lines(), out::intValue);
    });
  }

  private void repeated() {
    out.index(s.repeats.declaredValues() == null ? 0 : 1);
    if (s.repeats.declaredValues() != null) {
      out.array(s.repeats.declaredValues().pairs(), p -> {
        out.name(p.getKey());
        out.longValue(p.getValue());
      });
    }
    out.bool(s.repeats.wholeHistoryDeclared());
  }

  /** Format 5: the levels violated by ThinAirReads alone and the published ThinAirReads a late writer retracts. */
  private void thinAirReads(final HorizonSummary h, final ThinAirReads published) {
    out.index(1);
    out.levels(h.thinAirViolated);
    final java.util.List<ThinAirReads.Entry> entries = published.sorted();
    out.arrayStart(published.size());
    for (final ThinAirReads.Entry e : entries) {
      for (final ThinAirReads.Read r : e.reads()) {
        out.intValue(e.key());
        out.longValue(e.value());
        out.string(r.reader());
        out.intValue(r.op());
        out.bool(r.writesKey());
        anomaly(r.anomaly());
      }
    }
    out.arrayEnd();
  }

  private void checker(final CheckerFields c) {
    out.array(List.copyOf(c.published().entrySet()), e -> {
      out.index(CheckpointRecords.level(e.getKey()));
      out.index(CheckpointRecords.verdict(e.getValue()));
    });
    out.longValue(c.maxEnd());
    out.intValue(c.lastReleasedPos());
  }
}
