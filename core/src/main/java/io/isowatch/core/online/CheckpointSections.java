package io.isowatch.core.online;

import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Findings;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Transaction;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The sections of a checkpoint's body in their order, which every format keeps (the table of
 * docs/segmentation.md, "Checkpoints"), and the checks they share: {@link #read} reads each
 * section through the format's reader ({@link CheckpointReader} for formats 1 and 2, {@link
 * CheckpointAvroReader} for format 3) and assembles the {@link Checkpoint}.
 */
abstract class CheckpointSections {
  /** The keys in id order: name, initial value of the segment, open-order flags. */
  record KeyTable(List<String> names, List<Long> initials, int[] heads, boolean[] ambiguous) {}

  /** The sessions in id order: name, arrival counter. */
  record SessionTable(List<String> names, int[] arrivals) {}

  /** The number of keys, once read: the bound of every key id after them. */
  int keyCount;
  /** The number of retained (processed) transactions of the segment, once read. */
  int retained;

  final Checkpoint read(final long nanos) {
    final HorizonSummary summary = summary();
    final KeyTable keys = keys();
    keyCount = keys.names().size();
    if (summary.runKeyBound() > keyCount) {
      throw new CheckpointFormatException("corrupt checkpoint: retired runs of key id " + (summary.runKeyBound() - 1)
          + ", only " + keyCount + " keys");
    }
    unique(keys.names(), "key");
    final SessionTable sessions = sessions();
    final SegmentTxns segment = segment(ids(sessions.names(), "session"));
    final CheckedReads checked = checked();
    final Set<WaitingRead> waiting = waiting(segment);
    final CarriedCounters carried = counters(keys.heads(), keys.ambiguous());
    final Findings findings = findings();
    final KeyValueTable thinAir = new KeyValueTable(16);
    pairs((k, v) -> thinAir.put(k, v, 0));
    final RepeatedValues repeated = repeated();
    final boolean repeatsDeclared = repeatsDeclared();
    final Map<Level, Verdict> published = published();
    final long maxEnd = maxEnd();
    final int last = lastReleased(lastReleasedPos(), retained);
    final ThinAirReads thinAirPublished = thinAirReads(summary);
    return new Checkpoint(summary, keys.names(), keys.initials(), sessions.names(), sessions.arrivals(), segment,
        checked, waiting, last, carried, findings, thinAir, thinAirPublished, repeated, repeatsDeclared, published,
        maxEnd, nanos);
  }

  abstract HorizonSummary summary();

  abstract KeyTable keys();

  abstract SessionTable sessions();

  /** The segment; sets {@link #retained}. */
  abstract SegmentTxns segment(Map<String, Integer> sessionIds);

  abstract CheckedReads checked();

  abstract Set<WaitingRead> waiting(SegmentTxns segment);

  abstract CarriedCounters counters(int[] heads, boolean[] ambiguous);

  abstract Findings findings();

  /** Sorted, delta-coded (key id, value) pairs, each given to {@code each}. */
  abstract void pairs(BiConsumer<Integer, Long> each);

  /** The repeated values, or null when there are none. */
  abstract RepeatedValues repeated();

  abstract boolean repeatsDeclared();

  abstract Map<Level, Verdict> published();

  abstract long maxEnd();

  abstract long lastReleasedPos();

  /**
   * The published ThinAirReads a late writer retracts, and the summary's levels violated by them
   * alone (into {@code h}); none before format 5.
   */
  ThinAirReads thinAirReads(final HorizonSummary h) {
    return new ThinAirReads();
  }

  static void noneLeft(final int remaining) {
    if (remaining != 0) {
      throw new CheckpointFormatException("corrupt checkpoint: " + remaining + " bytes left after the last section");
    }
  }

  /** A key id read from the body, checked against the key table. */
  final int keyId(final long k) {
    if (k < 0 || k >= keyCount) {
      throw new CheckpointFormatException("corrupt checkpoint: key id " + k + " of " + keyCount);
    }
    return (int) k;
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
