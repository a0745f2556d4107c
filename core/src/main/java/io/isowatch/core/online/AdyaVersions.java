package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Op;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * RR's arcs for the incremental weak check ({@link IncrementalWeakCheck}): Adya's certain edges
 * as {@code io.isowatch.core.check.AdyaArcs} derives them over a whole history, added as the
 * versions' readers, overwriters and blind writers arrive. Per version (key, writer): its readers
 * and the transactions that read it and then write the key; per key: its blind writers. Each new
 * member of one list is paired with the members of the others, so every arc is added once: WW
 * from a version's writer to its overwriter, RW from its other readers to the overwriter, RW from
 * a reader of a key's initial version to each blind writer of the key.
 */
final class AdyaVersions {
  private final IncrementalWeakCheck g;
  private final Map<Long, IntList> readers = new HashMap<>();
  private final Map<Long, IntList> overwriters = new HashMap<>();
  private final Map<Integer, IntList> blind = new HashMap<>();
  /** The key of the first blind write counted, or -1: the version order is then open. */
  private int blindKey = -1;

  AdyaVersions(final IncrementalWeakCheck g) {
    this.g = g;
  }

  int blindKey() {
    return blindKey;
  }

  /** A counted transaction: its blind writes (a key whose first op in it is a write); {@code opKeys[j]}: op j's key id. */
  void counted(final int t, final List<Op> ops, final int[] opKeys) {
    final IntList seen = new IntList(4);
    for (int j = 0; j < ops.size(); j++) {
      final Op op = ops.get(j);
      final int key = opKeys[j];
      if (contains(seen, key)) {
        continue;
      }
      seen.add(key);
      if (!op.isWrite()) {
        continue;
      }
      blind.computeIfAbsent(key, k -> new IntList(2)).add(t);
      if (blindKey < 0) {
        blindKey = key;
      }
      final IntList initialReaders = readers.get(version(key, IncrementalWeakCheck.INIT));
      for (int i = 0; initialReaders != null && i < initialReaders.size(); i++) {
        if (initialReaders.get(i) != t) {
          g.rrArc(initialReaders.get(i), t);
        }
      }
    }
  }

  /** Node {@code t} read {@code key} from {@code writer} (a node or INIT), and then writes it or not. */
  void read(final int t, final int key, final int writer, final boolean thenWrites) {
    final long v = version(key, writer);
    final IntList rs = readers.computeIfAbsent(v, x -> new IntList(2));
    rs.add(t);
    final IntList os = overwriters.get(v);
    for (int i = 0; os != null && i < os.size(); i++) {
      if (os.get(i) != t) {
        g.rrArc(t, os.get(i));
      }
    }
    if (writer == IncrementalWeakCheck.INIT) {
      final IntList bs = blind.get(key);
      for (int i = 0; bs != null && i < bs.size(); i++) {
        if (bs.get(i) != t) {
          g.rrArc(t, bs.get(i));
        }
      }
    }
    if (thenWrites) {
      overwriters.computeIfAbsent(v, x -> new IntList(1)).add(t);
      if (writer != IncrementalWeakCheck.INIT) {
        g.rrArc(writer, t);
      }
      for (int i = 0; i < rs.size(); i++) {
        if (rs.get(i) != t) {
          g.rrArc(rs.get(i), t);
        }
      }
    }
  }

  private static long version(final int key, final int writer) {
    return (long) key << 32 | (writer & 0xffffffffL);
  }

  private static boolean contains(final IntList list, final int v) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == v) {
        return true;
      }
    }
    return false;
  }
}
