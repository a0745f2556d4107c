package io.isowatch.core.online;

import io.isowatch.core.check.Anomaly;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ThinAirReads a stream published, by the (key, value) they read, kept so that a writer of
 * that value arriving beyond every lateness bound can retract them (docs/streaming.md, "No false
 * positive from time"). Only published anomalies are kept (engines with events on); they are
 * rare, since each one is a violation of every level. They survive a cut (the reads of earlier
 * states are then retracted from the horizon's summary, which lists them) and a checkpoint (format
 * 5), so that a late writer retracts what it disproves however long ago the read was published.
 * At most {@link #CAP} are kept: beyond that, a published ThinAirRead is not retractable (its late
 * writer is only a LATE_TRANSACTION finding).
 */
final class ThinAirReads {
  /** Published ThinAirReads kept for retraction at most; a bound on the state, not a limit seen in practice. */
  static final int CAP = 4096;

  /**
   * One published ThinAirRead.
   *
   * @param reader the reading transaction's id (slots change with every cut)
   * @param op the read's op index
   * @param writesKey whether the reader also writes the key (the read made the key's order open)
   * @param anomaly the anomaly as published
   */
  record Read(String reader, int op, boolean writesKey, Anomaly anomaly) {}

  /** A (key id, value) pair with the reads published of it, for a checkpoint. */
  record Entry(int key, long value, List<Read> reads) {}

  private record KeyValue(int key, long value) {}

  private final Map<KeyValue, List<Read>> byValue = new HashMap<>();
  private int size;

  void add(final int k, final long v, final Read read) {
    if (size >= CAP) {
      return;
    }
    byValue.computeIfAbsent(new KeyValue(k, v), x -> new ArrayList<>(1)).add(read);
    size++;
  }

  /** Removes and returns the published ThinAirReads of (k, v), oldest first; empty if none. */
  List<Read> take(final int k, final long v) {
    final List<Read> reads = byValue.remove(new KeyValue(k, v));
    if (reads == null) {
      return List.of();
    }
    size -= reads.size();
    return reads;
  }

  boolean isEmpty() {
    return byValue.isEmpty();
  }

  int size() {
    return size;
  }

  /** Every (key, value) with its reads, sorted by key then value (a canonical order for a checkpoint). */
  List<Entry> sorted() {
    final List<Entry> entries = new ArrayList<>(byValue.size());
    byValue.forEach((kv, reads) -> entries.add(new Entry(kv.key(), kv.value(), List.copyOf(reads))));
    entries.sort((a, b) -> a.key() != b.key() ? Integer.compare(a.key(), b.key()) : Long.compare(a.value(), b.value()));
    return entries;
  }
}
