package io.isowatch.core.format;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;

/**
 * Collects the transactions a reader produces, in source order, rejecting duplicate ids.
 *
 * <p>The ids seen are kept in an open-addressing table of the id strings with their hash and
 * first line next to them, not in a {@code HashMap<String, Integer>}: no entry object and no boxed
 * line per transaction, and no rehash of entry chains. On the 10^6-transaction history of
 * scripts/bench-cli.sh the map's {@code putVal} and {@code resize} were 16% of the JSONL reader
 * thread's samples (JFR, docs/benchmarks.md, issue 13, clifast2).
 */
final class HistoryAccumulator {
  private static final int INITIAL_CAPACITY = 1 << 10;

  private final History.Builder builder = History.builder();
  /** Ids seen, at slots found by linear probing from their spread hash; null: free. */
  private String[] ids = new String[INITIAL_CAPACITY];
  /** Per slot: the id's hash (high 32 bits) and the line it was first seen at (low 32 bits). */
  private long[] hashAndLine = new long[INITIAL_CAPACITY];
  private int size;

  /** Appends a transaction; its id must not have been seen before. */
  void add(final Transaction txn) throws InvalidHistoryException {
    final String id = txn.id();
    final int h = id.hashCode();
    final int mask = ids.length - 1;
    int slot = spread(h) & mask;
    for (String known = ids[slot]; known != null; known = ids[slot]) {
      if ((int) (hashAndLine[slot] >>> 32) == h && known.equals(id)) {
        throw new InvalidHistoryException(
            txn.line(), "duplicate transaction id '" + id + "' (first used at line " + (int) hashAndLine[slot] + ")");
      }
      slot = (slot + 1) & mask;
    }
    ids[slot] = id;
    hashAndLine[slot] = ((long) h << 32) | (txn.line() & 0xFFFFFFFFL);
    if (++size * 2 > ids.length) {
      grow();
    }
    builder.add(txn);
  }

  History build() {
    return builder.build();
  }

  private void grow() {
    final String[] oldIds = ids;
    final long[] oldWords = hashAndLine;
    ids = new String[2 * oldIds.length];
    hashAndLine = new long[ids.length];
    final int mask = ids.length - 1;
    for (int i = 0; i < oldIds.length; i++) {
      if (oldIds[i] != null) {
        int slot = spread((int) (oldWords[i] >>> 32)) & mask;
        while (ids[slot] != null) {
          slot = (slot + 1) & mask;
        }
        ids[slot] = oldIds[i];
        hashAndLine[slot] = oldWords[i];
      }
    }
  }

  private static int spread(final int h) {
    final int x = h * 0x9E3779B9;
    return x ^ (x >>> 16);
  }
}
