package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.OpType;
import io.isowatch.core.history.Transaction;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * Reads the body of a checkpoint of format 3 ({@code Checkpoint.avsc}, written by {@link
 * CheckpointWriter}) field by field in the schema's order, checking every id against its table
 * (the checks {@link CheckpointReader} makes of formats 1 and 2).
 */
final class CheckpointAvroReader extends CheckpointSections {
  private final CheckpointDecoder in;
  /** A bound of key ids before the key table is read (which then checks them against its size). */
  private static final long MAX_KEY_ID = 1L << 28;
  /** 5 with the retractable ThinAirReads, 4 with run-sets only, 3 without either. */
  private final int version;

  private CheckpointAvroReader(final CheckpointDecoder in, final int version) {
    this.in = in;
    this.version = version;
  }

  static Checkpoint readBody(final CheckpointDecoder in, final long nanos, final int version) {
    in.readNames();
    final Checkpoint c = new CheckpointAvroReader(in, version).read(nanos);
    noneLeft(in.remaining());
    return c;
  }

  @Override
  KeyTable keys() {
    final List<String> names = new ArrayList<>();
    final List<Long> initials = new ArrayList<>();
    final List<Integer> heads = new ArrayList<>();
    final List<Boolean> ambiguous = new ArrayList<>();
    in.array(4, "keys", () -> {
      names.add(in.name());
      initials.add(in.nullableLong());
      heads.add(in.index(Integer.MAX_VALUE, "head count"));
      ambiguous.add(in.bool());
    });
    final boolean[] flags = new boolean[ambiguous.size()];
    for (int k = 0; k < flags.length; k++) {
      flags[k] = ambiguous.get(k);
    }
    return new KeyTable(names, initials, heads.stream().mapToInt(Integer::intValue).toArray(), flags);
  }

  @Override
  SessionTable sessions() {
    final List<String> names = new ArrayList<>();
    final List<Integer> arrivals = new ArrayList<>();
    in.array(2, "sessions", () -> {
      names.add(in.name());
      arrivals.add(in.index(Integer.MAX_VALUE, "arrival count"));
    });
    return new SessionTable(names, arrivals.stream().mapToInt(Integer::intValue).toArray());
  }

  @Override
  boolean repeatsDeclared() {
    return in.bool();
  }

  @Override
  Map<Level, Verdict> published() {
    final Map<Level, Verdict> published = new EnumMap<>(Level.class);
    in.array(2, "published verdicts",
        () -> published.put(CheckpointRecords.level(in.intValue()), CheckpointRecords.verdict(in.intValue())));
    return published;
  }

  @Override
  long maxEnd() {
    return in.longValue();
  }

  @Override
  long lastReleasedPos() {
    return in.intValue();
  }

  @Override
  ThinAirReads thinAirReads(final HorizonSummary h) {
    final ThinAirReads reads = new ThinAirReads();
    if (version < CheckpointFormat.VERSION_AVRO_THIN_AIR || !in.present()) {
      return reads;
    }
    h.thinAirViolated.addAll(in.levels());
    in.array(8, "published ThinAirReads", () -> {
      final int key = keyId(in.intValue());
      final long value = in.longValue();
      reads.add(key, value, new ThinAirReads.Read(in.string(), in.index(Integer.MAX_VALUE, "read op"), in.bool(),
          anomaly()));
    });
    return reads;
  }

  @Override
  HorizonSummary summary() {
    final RetiredValues overwritten = filter();
    final RetiredValues other = filter();
    final HorizonSummary h = new HorizonSummary(overwritten, other, RetiredRuns.empty(), RetiredRuns.empty());
    h.bound = in.longValue();
    h.cuts = count();
    h.pruned = count();
    final List<Anomaly> anomalies = new ArrayList<>();
    in.array(7, "anomalies", () -> anomalies.add(anomaly()));
    h.anomalies = List.copyOf(anomalies);
    in.array(2, "anomaly counts", () -> h.counts.put(in.name(), count()));
    h.truncated = in.bool();
    h.violated.addAll(in.levels());
    h.staleReads = count();
    h.staleViolatesSser = in.bool();
    h.staleUndecided.addAll(in.levels());
    final int[] session = {0};
    in.array(1, "session seqs", () -> h.setNextSeq(session[0]++, in.longValue()));
    h.edges = in.longValue();
    h.unknowns = count();
    if (version >= CheckpointFormat.VERSION_AVRO_RUNS) {
      if (!in.present()) {
        return h;
      }
      final long maxRuns = count();
      final long versions = count();
      final RetiredRuns allRuns = runs(maxRuns);
      final RetiredRuns otherRuns = runs(maxRuns);
      h.restoreRuns(allRuns, otherRuns, versions);
    }
    return h;
  }

  /** A run-set, as {@link CheckpointWriter} writes it; runs out of order are refused. */
  private RetiredRuns runs(final long maxRuns) {
    final RetiredRuns r = new RetiredRuns(maxRuns);
    r.restoreTaken(count());
    final int[] key = {-1};
    in.array(1, "absent keys", () -> {
      key[0] += 1 + in.index(MAX_KEY_ID - key[0], "absent key gap");
      r.restore(key[0], r.runsOf(key[0]), true);
    });
    key[0] = -1;
    in.array(2, "keys with runs", () -> {
      key[0] += 1 + in.index(MAX_KEY_ID - key[0], "run key gap");
      final LongList bounds = new LongList(8);
      final long[] last = {0};
      in.array(1, "run bounds", () -> {
        final long v = bounds.size() == 0 ? in.longValue() : last[0] + in.longValue();
        bounds.add(v);
        last[0] = v;
      });
      final long[] lohi = new long[bounds.size()];
      for (int i = 0; i < lohi.length; i++) {
        lohi[i] = bounds.get(i);
      }
      try {
        r.restore(key[0], lohi, r.absent(key[0]));
      } catch (final IllegalArgumentException e) {
        throw new CheckpointFormatException("corrupt checkpoint: " + e.getMessage(), e);
      }
    });
    return r;
  }

  private RetiredValues filter() {
    final long firstBits = in.longValue();
    if (firstBits < 0 || firstBits >= 1L << 31) {
      throw new CheckpointFormatException("corrupt checkpoint: filter first-stage bits " + firstBits);
    }
    final long maxBits = count();
    final List<RetiredValues.Stage> stages = new ArrayList<>();
    in.array(7, "filter stages", () -> stages.add(stage()));
    return new RetiredValues((int) firstBits, maxBits, stages);
  }

  private RetiredValues.Stage stage() {
    final int index = in.index(1 << 16, "filter stage index");
    final int hashes = in.index(65, "filter stage hashes");
    final boolean legacy = in.bool();
    final int words = in.index((1 << 25) + 1, "filter words");
    final long added = count();
    final long[] bits;
    if (in.index(2, "filter bits branch") == 0) {
      final byte[] dense = in.bytes();
      if (dense.length != 8L * words) {
        throw new CheckpointFormatException("corrupt checkpoint: " + dense.length + " bytes for a filter of " + words
            + " words");
      }
      bits = new long[words];
      ByteBuffer.wrap(dense).asLongBuffer().get(bits);
    } else {
      final List<Integer> at = new ArrayList<>();
      final int[] i = {-1};
      in.array(1, "filter word gaps", () -> {
        i[0] += 1 + in.index(words, "filter word gap");
        if (i[0] >= words) {
          throw new CheckpointFormatException("corrupt checkpoint: filter word " + i[0] + " of " + words);
        }
        at.add(i[0]);
      });
      final byte[] set = in.bytes();
      if (set.length != 8L * at.size()) {
        throw new CheckpointFormatException("corrupt checkpoint: " + set.length + " bytes for " + at.size()
            + " filter words");
      }
      bits = new long[words];
      final ByteBuffer b = ByteBuffer.wrap(set);
      at.forEach(w -> bits[w] = b.getLong());
    }
    return new RetiredValues.Stage(index, hashes, legacy, bits, added);
  }

  /** A {@code Transaction} whose start is written as the difference to {@code base}. */
  private Transaction txn(final long base) {
    final String id = in.string();
    final String session = in.name();
    final Long seq = in.nullableLong();
    final io.isowatch.core.history.TxnStatus status = CheckpointRecords.status(in.intValue());
    final Long startDelta = in.nullableLong();
    final long start = startDelta == null ? Transaction.NO_TIME : base + startDelta;
    final Long endDelta = in.nullableLong();
    final long end = endDelta == null ? Transaction.NO_TIME : start != Transaction.NO_TIME ? start + endDelta : endDelta;
    final String tenant = in.nullableName();
    final String level = in.nullableName();
    final int line = in.intValue();
    final List<Op> ops = new ArrayList<>();
    in.array(2, "operations", () -> {
      final int branch = in.index(3, "op branch");
      ops.add(new Op(branch == 1 ? OpType.WRITE : OpType.READ, in.name(), branch == 2 ? null : in.longValue()));
    });
    return new Transaction(id, session, seq == null ? Transaction.NO_SEQ : seq, status, start, end, ops, tenant,
        level, line);
  }

  private Anomaly anomaly() {
    final String type = in.name();
    final String name = in.nullableName();
    final EnumSet<Level> violates = in.levels();
    final List<Transaction> txns = new ArrayList<>();
    in.array(10, "anomaly transactions", () -> txns.add(txn(0)));
    final List<Edge> cycle = new ArrayList<>();
    in.array(5, "cycle edges", () -> cycle.add(new Edge(in.string(), in.string(),
        CheckpointRecords.edgeKind(in.intValue()), in.nullableName(), in.nullableLong())));
    final String explanation = in.string();
    if (!in.present()) {
      return new Anomaly(type, name, violates, txns, cycle, explanation);
    }
    return new Anomaly(type, name, violates, txns, cycle, explanation, new AnomalyRead(in.string(),
        in.index(Integer.MAX_VALUE, "read op"), in.name(), in.nullableLong()));
  }

  @Override
  SegmentTxns segment(final Map<String, Integer> sessionIds) {
    retained = in.index(Integer.MAX_VALUE, "retained transactions");
    final List<Transaction> txns = new ArrayList<>();
    final List<Long> ranks = new ArrayList<>();
    final List<Integer> sessions = new ArrayList<>();
    final Set<String> ids = new HashSet<>();
    final long[] base = {0};
    in.array(11, "transactions", () -> {
      final Transaction t = txn(base[0]);
      base[0] = t.start() != Transaction.NO_TIME ? t.start() : base[0];
      txns.add(t);
      sessions.add(session(t, ids, sessionIds));
      ranks.add(rank(t, in.nullableLong()));
    });
    if (retained > txns.size()) {
      throw new CheckpointFormatException("corrupt checkpoint: " + retained + " retained of " + txns.size()
          + " transactions");
    }
    return new SegmentTxns(txns.toArray(new Transaction[0]), ranks.stream().mapToLong(Long::longValue).toArray(),
        sessions.stream().mapToInt(Integer::intValue).toArray(), retained);
  }

  @Override
  CheckedReads checked() {
    final CheckedReads checked = new CheckedReads(16);
    final long[] k = {-1};
    in.array(1, "absent keys", () -> {
      k[0] += 1 + in.index(Integer.MAX_VALUE, "absent key gap");
      checked.add(keyId(k[0]), null);
    });
    pairs(checked::add);
    return checked;
  }

  /** Reads the (key id, value) pairs {@link CheckpointWriter} writes sorted and delta-coded. */
  @Override
  void pairs(final BiConsumer<Integer, Long> each) {
    final long[] keyValue = {0, 0};
    final boolean[] first = {true};
    in.array(2, "key-value pairs", () -> {
      final int gap = in.index(Integer.MAX_VALUE, "key gap");
      final long delta = in.longValue();
      keyValue[1] = gap == 0 && !first[0] ? keyValue[1] + delta : delta;
      keyValue[0] += gap;
      first[0] = false;
      each.accept(keyId(keyValue[0]), keyValue[1]);
    });
  }

  @Override
  Set<WaitingRead> waiting(final SegmentTxns segment) {
    final Set<WaitingRead> out = new LinkedHashSet<>();
    in.array(4, "waiting reads", () -> {
      final int reader = in.index(retained, "reader position");
      final int op = in.index(segment.txns()[reader].ops().size(), "op index");
      final int key = keyId(in.intValue());
      out.add(new WaitingRead(key, in.longValue(), op, reader));
    });
    return out;
  }

  @Override
  CarriedCounters counters(final int[] heads, final boolean[] ambiguous) {
    final long[] n = new long[9];
    for (int i = 0; i < n.length; i++) {
      n[i] = count();
    }
    return new CarriedCounters(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], in.bool(), in.bool(),
        heads, ambiguous);
  }

  @Override
  Findings findings() {
    final List<Findings.Entry> entries = new ArrayList<>();
    in.array(7, "findings", () -> {
      final FindingKind kind = findingKind(in.name());
      final String key = in.nullableName();
      final String message = in.string();
      final Set<Level> levels = in.levels();
      final long count = count();
      final List<String> txns = new ArrayList<>();
      in.array(1, "finding examples", () -> txns.add(in.string()));
      final List<Integer> lines = new ArrayList<>();
      in.array(1, "finding lines", () -> lines.add(in.intValue()));
      entries.add(new Findings.Entry(kind, key, message, levels, count, txns, lines));
    });
    return Findings.of(entries);
  }

  @Override
  RepeatedValues repeated() {
    if (!in.present()) {
      return null;
    }
    final List<Map.Entry<String, Long>> pairs = new ArrayList<>();
    in.array(2, "repeated values", () -> pairs.add(Map.entry(in.name(), in.longValue())));
    return RepeatedValues.ofPairs(pairs);
  }

  /** A non-negative long: a count. */
  private long count() {
    final long n = in.longValue();
    if (n < 0) {
      throw new CheckpointFormatException("corrupt checkpoint: a count is " + n);
    }
    return n;
  }
}
