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
 * rare, since each one is a violation of every level. One per state: a cut starts a new one (its
 * anomalies go to the horizon's summary), so a late writer of a value read before the latest cut
 * is only a LATE_TRANSACTION finding.
 */
final class ThinAirReads {
  /**
   * One published ThinAirRead.
   *
   * @param reader the reading transaction's id (slots change with every cut)
   * @param op the read's op index
   * @param writesKey whether the reader also writes the key (the read made the key's order open)
   * @param anomaly the anomaly as published
   */
  record Read(String reader, int op, boolean writesKey, Anomaly anomaly) {}

  private final Map<Long, List<Read>> byValue = new HashMap<>();
  private final KeyValueTable ids = new KeyValueTable(16);
  private int nextId;

  void add(final int k, final long v, final Read read) {
    int id = ids.get(k, v);
    if (id < 0) {
      id = nextId++;
      ids.put(k, v, id);
    }
    byValue.computeIfAbsent((long) id, x -> new ArrayList<>(1)).add(read);
  }

  /** Removes and returns the published ThinAirReads of (k, v), oldest first; empty if none. */
  List<Read> take(final int k, final long v) {
    final int id = ids.get(k, v);
    if (id < 0) {
      return List.of();
    }
    final List<Read> reads = byValue.remove((long) id);
    return reads == null ? List.of() : reads;
  }

  boolean isEmpty() {
    return byValue.isEmpty();
  }
}
