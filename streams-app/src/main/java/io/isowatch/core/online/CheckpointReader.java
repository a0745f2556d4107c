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
final class CheckpointReader {
  private final CheckpointInput in;
  private int keyCount;
  private int retained;

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
      final Checkpoint c = header.getInt(4) == CheckpointFormat.VERSION
          ? CheckpointAvroReader.read(new CheckpointDecoder(bytes, CheckpointFormat.HEADER, length), nanos)
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
    final Checkpoint c = new CheckpointReader(in, version).body(nanos);
    noneLeft(in.remaining());
    return c;
  }

  static void noneLeft(final int remaining) {
    if (remaining != 0) {
      throw new CheckpointFormatException("corrupt checkpoint: " + remaining + " bytes left after the last section");
    }
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
    if (version != CheckpointFormat.VERSION && version != CheckpointFormat.VERSION_VARINT
        && version != CheckpointFormat.VERSION_FIXED_FILTERS) {
      throw new CheckpointFormatException("unsupported checkpoint format version " + version + " (this release reads "
          + CheckpointFormat.VERSION_FIXED_FILTERS + ", " + CheckpointFormat.VERSION_VARINT + " and "
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

  private Checkpoint body(final long nanos) {
    final HorizonSummary summary = summary();
    keyCount = in.count(3, "keys");
    final List<String> keyNames = new ArrayList<>(keyCount);
    final List<Long> keyInitials = new ArrayList<>(keyCount);
    final int[] heads = new int[keyCount];
    final boolean[] ambiguous = new boolean[keyCount];
    for (int k = 0; k < keyCount; k++) {
      keyNames.add(in.name());
      keyInitials.add(in.nullableSigned());
      heads[k] = in.index(Integer.MAX_VALUE, "head count");
      ambiguous[k] = in.bool();
    }
    unique(keyNames, "key");
    final int sessionCount = in.count(2, "sessions");
    final List<String> sessionNames = new ArrayList<>(sessionCount);
    final int[] arrivals = new int[sessionCount];
    for (int i = 0; i < sessionCount; i++) {
      sessionNames.add(in.name());
      arrivals[i] = in.index(Integer.MAX_VALUE, "arrival count");
    }
    final SegmentTxns segment = segment(ids(sessionNames, "session"));
    final CheckedReads checked = checked();
    final Set<WaitingRead> waiting = waiting(segment);
    final CarriedCounters carried = counters(heads, ambiguous);
    final Findings findings = findings();
    final KeyValueTable thinAir = new KeyValueTable(16);
    pairs((k, v) -> thinAir.put(k, v, 0));
    final RepeatedValues repeated = repeated();
    final boolean repeatsDeclared = in.bool();
    final Map<Level, Verdict> published = new EnumMap<>(Level.class);
    final int levels = in.count(2, "published verdicts");
    for (int i = 0; i < levels; i++) {
      published.put(CheckpointRecords.level(in.rawByte()), CheckpointRecords.verdict(in.rawByte()));
    }
    final long maxEnd = in.signed();
    final int last = lastReleased(in.signed(), retained);
    return new Checkpoint(summary, keyNames, keyInitials, sessionNames, arrivals, segment, checked, waiting,
        last, carried, findings, thinAir, repeated, repeatsDeclared, published, maxEnd, nanos);
  }

  private HorizonSummary summary() {
    final HorizonSummary h = new HorizonSummary(filter(), filter());
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

  private SegmentTxns segment(final Map<String, Integer> sessionIds) {
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

  private CheckedReads checked() {
    final int absent = in.count(1, "absent keys");
    final CheckedReads checked = new CheckedReads(16);
    long k = -1;
    for (int i = 0; i < absent; i++) {
      k += 1 + in.unsigned();
      checkKey(k);
      checked.add((int) k, null);
    }
    pairs(checked::add);
    return checked;
  }

  /** Reads the (key id, value) pairs {@link CheckpointWriter} writes sorted and delta-coded. */
  private void pairs(final java.util.function.BiConsumer<Integer, Long> each) {
    final int n = in.count(2, "key-value pairs");
    long key = 0;
    long value = 0;
    for (int i = 0; i < n; i++) {
      final long gap = in.unsigned();
      final long delta = in.signed();
      value = gap == 0 && i > 0 ? value + delta : delta;
      key += gap;
      checkKey(key);
      each.accept((int) key, value);
    }
  }

  private Set<WaitingRead> waiting(final SegmentTxns segment) {
    final int n = in.count(4, "waiting reads");
    final Set<WaitingRead> out = new LinkedHashSet<>();
    for (int i = 0; i < n; i++) {
      final int reader = in.index(retained, "reader position");
      final int op = in.index(segment.txns()[reader].ops().size(), "op index");
      final long key = in.unsigned();
      checkKey(key);
      out.add(new WaitingRead((int) key, in.signed(), op, reader));
    }
    return out;
  }

  private CarriedCounters counters(final int[] heads, final boolean[] ambiguous) {
    final long[] n = new long[9];
    for (int i = 0; i < n.length; i++) {
      n[i] = in.unsigned();
    }
    return new CarriedCounters(n[0], n[1], n[2], n[3], n[4], n[5], n[6], n[7], n[8], in.bool(), in.bool(),
        heads, ambiguous);
  }

  private Findings findings() {
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

  private RepeatedValues repeated() {
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

  private void checkKey(final long k) {
    if (k < 0 || k >= keyCount) {
      throw new CheckpointFormatException("corrupt checkpoint: key id " + k + " of " + keyCount);
    }
  }

  static void unique(final List<String> names, final String what) {
    if (new HashSet<>(names).size() != names.size()) {
      throw new CheckpointFormatException("corrupt checkpoint: a " + what + " name is held twice");
    }
  }

  /** Each name's id (its position), after checking that no name is held twice. */
  static Map<String, Integer> ids(final List<String> names, final String what) {
    unique(names, what);
    final Map<String, Integer> ids = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      ids.put(names.get(i), i);
    }
    return ids;
  }

  /** The session id of a segment transaction, after checking that its id is new. */
  static int session(final Transaction t, final Set<String> ids, final Map<String, Integer> sessionIds) {
    if (!ids.add(t.id())) {
      throw new CheckpointFormatException("corrupt checkpoint: transaction id " + t.id() + " held twice");
    }
    final Integer session = sessionIds.get(t.session());
    if (session == null) {
      throw new CheckpointFormatException("corrupt checkpoint: transaction " + t.id() + " of unknown session "
          + t.session());
    }
    return session;
  }

  /** A segment transaction's rank: the one written, or else its seq. */
  static long rank(final Transaction t, final Long written) {
    if (written != null) {
      return written;
    }
    if (!t.hasSeq()) {
      throw new CheckpointFormatException("corrupt checkpoint: transaction " + t.id() + " has neither seq nor rank");
    }
    return t.seq();
  }

  static int lastReleased(final long last, final int retained) {
    if (last < -1 || last >= retained) {
      throw new CheckpointFormatException("corrupt checkpoint: last released position " + last + " of " + retained);
    }
    return (int) last;
  }

  static FindingKind findingKind(final String name) {
    try {
      return FindingKind.valueOf(name);
    } catch (final IllegalArgumentException e) {
      throw new CheckpointFormatException("unsupported checkpoint: unknown finding kind " + name, e);
    }
  }
}
