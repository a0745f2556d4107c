package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Transaction;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * Reads a checkpoint: checks the frame (magic, version, length, checksum) first, then reads the
 * body of format 3 with {@link CheckpointAvroReader}, or that of formats 1 and 2 (the hand-written
 * codec of older releases, whose checkpoints may still sit in state stores) itself, section by
 * section, checking every id against its table, so that bytes that are not a checkpoint of a
 * supported format give a {@link CheckpointFormatException}, never a state that breaks later.
 */
final class CheckpointReader extends CheckpointSections {
  private final CheckpointInput in;

  /** The format version being read: 1 has fixed-size filters, 2 scalable ones. */
  private final int version;

  private CheckpointReader(final CheckpointInput in, final int version) {
    this.in = in;
    this.version = version;
  }

  static Checkpoint read(final byte[] bytes) {
    if (bytes == null) {
      throw new CheckpointFormatException("no checkpoint: the bytes are null");
    }
    final ByteBuffer header = checkFrame(bytes);
    final long nanos = header.getLong(CheckpointFormat.TIMINGS_OFFSET);
    final long cutNanos = header.getLong(CheckpointFormat.TIMINGS_OFFSET + 8);
    final long lastCutNanos = header.getLong(CheckpointFormat.TIMINGS_OFFSET + 16);
    final int length = bytes.length - CheckpointFormat.HEADER - CheckpointFormat.CHECKSUM;
    try {
      final int version = header.getInt(4);
      final Checkpoint c = version == CheckpointFormat.VERSION || version == CheckpointFormat.VERSION_AVRO_THIN_AIR
          || version == CheckpointFormat.VERSION_AVRO_RUNS
          || version == CheckpointFormat.VERSION_AVRO_FILTERS
          ? CheckpointAvroReader.readBody(new CheckpointDecoder(bytes, CheckpointFormat.HEADER, length), nanos,
              version)
          : legacy(new CheckpointInput(bytes, CheckpointFormat.HEADER, length), header.getInt(4), nanos);
      c.summary().cutNanos = cutNanos;
      c.summary().lastCutNanos = lastCutNanos;
      return c;
    } catch (final CheckpointFormatException e) {
      throw e;
    } catch (final RuntimeException e) {
      // A record refused a value (a write without value, a level set out of range, …).
      throw new CheckpointFormatException("corrupt checkpoint: " + e.getMessage(), e);
    }
  }

  private static Checkpoint legacy(final CheckpointInput in, final int version, final long nanos) {
    final Checkpoint c = new CheckpointReader(in, version).read(nanos);
    noneLeft(in.remaining());
    return c;
  }

  private static ByteBuffer checkFrame(final byte[] bytes) {
    if (bytes.length < 8) {
      throw new CheckpointFormatException("not a checkpoint: " + bytes.length + " bytes, fewer than a header");
    }
    final ByteBuffer b = ByteBuffer.wrap(bytes);
    if (b.getInt(0) != CheckpointFormat.MAGIC) {
      throw new CheckpointFormatException("not a checkpoint: the bytes do not start with \"IWCK\"");
    }
    final int version = b.getInt(4);
    if (version != CheckpointFormat.VERSION && version != CheckpointFormat.VERSION_AVRO_THIN_AIR
        && version != CheckpointFormat.VERSION_AVRO_RUNS
        && version != CheckpointFormat.VERSION_AVRO_FILTERS
        && version != CheckpointFormat.VERSION_VARINT && version != CheckpointFormat.VERSION_FIXED_FILTERS) {
      throw new CheckpointFormatException("unsupported checkpoint format version " + version + " (this release reads "
          + CheckpointFormat.VERSION_FIXED_FILTERS + ", " + CheckpointFormat.VERSION_VARINT + ", "
          + CheckpointFormat.VERSION_AVRO_FILTERS + ", " + CheckpointFormat.VERSION_AVRO_RUNS + ", "
          + CheckpointFormat.VERSION_AVRO_THIN_AIR + " and "
          + CheckpointFormat.VERSION + ")");
    }
    if (bytes.length < CheckpointFormat.HEADER + CheckpointFormat.CHECKSUM) {
      throw new CheckpointFormatException("truncated checkpoint: " + bytes.length + " bytes, fewer than a header");
    }
    final int length = b.getInt(8);
    if (bytes.length < length) {
      throw new CheckpointFormatException("truncated checkpoint: " + bytes.length + " bytes of " + length);
    }
    if (bytes.length > length) {
      throw new CheckpointFormatException("trailing bytes after the checkpoint: " + bytes.length + " bytes, the "
          + "checkpoint has " + length);
    }
    final CRC32 crc = new CRC32();
    crc.update(bytes, 0, length - CheckpointFormat.CHECKSUM);
    if ((int) crc.getValue() != b.getInt(length - CheckpointFormat.CHECKSUM)) {
      throw new CheckpointFormatException("corrupt checkpoint: the checksum does not match");
    }
    return b;
  }

  @Override
  KeyTable keys() {
    final int n = in.count(3, "keys");
    final List<String> names = new ArrayList<>(n);
    final List<Long> initials = new ArrayList<>(n);
    final int[] heads = new int[n];
    final boolean[] ambiguous = new boolean[n];
    for (int k = 0; k < n; k++) {
      names.add(in.name());
      initials.add(in.nullableSigned());
      heads[k] = in.index(Integer.MAX_VALUE, "head count");
      ambiguous[k] = in.bool();
    }
    return new KeyTable(names, initials, heads, ambiguous);
  }

  @Override
  SessionTable sessions() {
    final int n = in.count(2, "sessions");
    final List<String> names = new ArrayList<>(n);
    final int[] arrivals = new int[n];
    for (int i = 0; i < n; i++) {
      names.add(in.name());
      arrivals[i] = in.index(Integer.MAX_VALUE, "arrival count");
    }
    return new SessionTable(names, arrivals);
  }

  @Override
  boolean repeatsDeclared() {
    return in.bool();
  }

  @Override
  Map<Level, Verdict> published() {
    final Map<Level, Verdict> published = new EnumMap<>(Level.class);
    final int levels = in.count(2, "published verdicts");
    for (int i = 0; i < levels; i++) {
      published.put(CheckpointRecords.level(in.rawByte()), CheckpointRecords.verdict(in.rawByte()));
    }
    return published;
  }

  @Override
  long maxEnd() {
    return in.signed();
  }

  @Override
  long lastReleasedPos() {
    return in.signed();
  }

  @Override
  HorizonSummary summary() {
    final HorizonSummary h = new HorizonSummary(filter(), filter(), RetiredRuns.empty(), RetiredRuns.empty());
    h.bound = in.signed();
    h.cuts = in.unsigned();
    h.pruned = in.unsigned();
    final int n = in.count(4, "anomalies");
    final List<Anomaly> anomalies = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      anomalies.add(CheckpointRecords.readAnomaly(in));
    }
    h.anomalies = List.copyOf(anomalies);
    final int names = in.count(2, "anomaly counts");
    for (int i = 0; i < names; i++) {
      h.counts.put(in.name(), in.unsigned());
    }
    h.truncated = in.bool();
    h.violated.addAll(CheckpointRecords.levels(in.rawByte()));
    h.staleReads = in.unsigned();
    h.staleViolatesSser = in.bool();
    h.staleUndecided.addAll(CheckpointRecords.levels(in.rawByte()));
    final int sessions = in.count(1, "session seqs");
    for (int i = 0; i < sessions; i++) {
      h.setNextSeq(i, in.signed());
    }
    h.edges = in.signed();
    h.unknowns = in.unsigned();
    return h;
  }

  /**
   * A filter of retired versions. Format 1: one fixed-size filter (4 hashes), taken over as the
   * first stage of a scalable filter, closed. Format 2: first-stage bits, cap, then the stages.
   */
  private RetiredValues filter() {
    if (version == CheckpointFormat.VERSION_FIXED_FILTERS) {
      final RetiredValues.Stage legacy = stage(0, RetiredValues.LEGACY_HASHES, true);
      return new RetiredValues((int) legacy.bitCount(), Horizon.MAX_FILTER_BITS, List.of(legacy));
    }
    final int firstBits = in.index(1L << 31, "filter first-stage bits");
    final long maxBits = in.unsigned();
    final int n = in.count(4, "filter stages");
    final List<RetiredValues.Stage> stages = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      final int index = in.index(1 << 16, "filter stage index");
      final int hashes = in.index(65, "filter stage hashes");
      stages.add(stage(index, hashes, in.bool()));
    }
    try {
      return new RetiredValues(firstBits, maxBits, stages);
    } catch (final IllegalArgumentException e) {
      throw new CheckpointFormatException("corrupt checkpoint: " + e.getMessage(), e);
    }
  }

  private RetiredValues.Stage stage(final int index, final int hashes, final boolean legacy) {
    final int words = in.index(1 << 26, "filter words");
    final long added = in.unsigned();
    final long[] bits;
    if (!in.bool()) {
      if (8L * words > in.remaining()) {
        throw new CheckpointFormatException("truncated checkpoint: a filter of " + words + " words, "
            + in.remaining() + " bytes left");
      }
      bits = new long[words];
      for (int i = 0; i < words; i++) {
        bits[i] = in.fixedLong();
      }
    } else {
      bits = new long[words];
      final int nonZero = in.count(9, "filter words");
      int i = -1;
      for (int j = 0; j < nonZero; j++) {
        i += 1 + in.index(words, "filter word gap");
        if (i >= words) {
          throw new CheckpointFormatException("corrupt checkpoint: filter word " + i + " of " + words);
        }
        bits[i] = in.fixedLong();
      }
    }
    try {
      return new RetiredValues.Stage(index, hashes, legacy, bits, added);
    } catch (final IllegalArgumentException e) {
      throw new CheckpointFormatException("corrupt checkpoint: " + e.getMessage(), e);
    }
  }

  @Override
  SegmentTxns segment(final Map<String, Integer> sessionIds) {
    // A transaction takes at least 6 bytes: flags, id, session, line, op count, rank flag.
    retained = in.count(6, "retained transactions");
    final int buffered = in.count(6, "buffered transactions");
    final int n = retained + buffered;
    final Transaction[] txns = new Transaction[n];
    final long[] ranks = new long[n];
    final int[] sessions = new int[n];
    final Set<String> ids = new HashSet<>();
    long base = 0;
    for (int i = 0; i < n; i++) {
      final Transaction t = CheckpointRecords.readTxn(in, base);
      base = t.start() != Transaction.NO_TIME ? t.start() : base;
      txns[i] = t;
      sessions[i] = session(t, ids, sessionIds);
      ranks[i] = rank(t, in.bool() ? in.signed() : null);
    }
    return new SegmentTxns(txns, ranks, sessions, retained);
  }

  @Override
  CheckedReads checked() {
    final int absent = in.count(1, "absent keys");
    final CheckedReads checked = new CheckedReads(16);
    long k = -1;
    for (int i = 0; i < absent; i++) {
      k += 1 + in.unsigned();
      checked.add(keyId(k), null);
    }
    pairs(checked::add);
    return checked;
  }

  /** Reads the (key id, value) pairs {@link CheckpointWriter} writes sorted and delta-coded. */
  @Override
  void pairs(final java.util.function.BiConsumer<Integer, Long> each) {
    final int n = in.count(2, "key-value pairs");
    long key = 0;
    long value = 0;
    for (int i = 0; i < n; i++) {
      final long gap = in.unsigned();
      final long delta = in.signed();
      value = gap == 0 && i > 0 ? value + delta : delta;
      key += gap;
      each.accept(keyId(key), value);
    }
  }

  @Override
  Set<WaitingRead> waiting(final SegmentTxns segment) {
    final int n = in.count(4, "waiting reads");
    final Set<WaitingRead> out = new LinkedHashSet<>();
    for (int i = 0; i < n; i++) {
      final int reader = in.index(retained, "reader position");
      final int op = in.index(segment.txns()[reader].ops().size(), "op index");
      final long key = in.unsigned();
      out.add(new WaitingRead(keyId(key), in.signed(), op, reader));
    }
    return out;
  }

  @Override
  CarriedCounters counters(final int[] heads, final boolean[] ambiguous) {
    final long[] n = new long[9];
    for (int i = 0; i < n.length; i++) {
      n[i] = in.unsigned();
    }
    return new CarriedCounters(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], in.bool(), in.bool(),
        heads, ambiguous);
  }

  @Override
  Findings findings() {
    final int n = in.count(6, "findings");
    final List<Findings.Entry> entries = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      final FindingKind kind = findingKind(in.name());
      final String key = in.nullableName();
      final String message = in.string();
      final Set<Level> levels = CheckpointRecords.levels(in.rawByte());
      final long count = in.unsigned();
      final int txnCount = in.count(1, "finding examples");
      final List<String> txns = new ArrayList<>(txnCount);
      for (int j = 0; j < txnCount; j++) {
        txns.add(in.string());
      }
      final int lineCount = in.count(1, "finding lines");
      final List<Integer> lines = new ArrayList<>(lineCount);
      for (int j = 0; j < lineCount; j++) {
        lines.add((int) in.signed());
      }
      entries.add(new Findings.Entry(kind, key, message, levels, count, txns, lines));
    }
    return Findings.of(entries);
  }

  @Override
  RepeatedValues repeated() {
    if (!in.bool()) {
      return null;
    }
    final int n = in.count(2, "repeated values");
    final List<Map.Entry<String, Long>> pairs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      pairs.add(Map.entry(in.name(), in.signed()));
    }
    return RepeatedValues.ofPairs(pairs);
  }
}
