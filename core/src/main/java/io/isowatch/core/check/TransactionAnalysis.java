package io.isowatch.core.check;

import io.isowatch.core.history.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one transaction does on its own, read from its ops in program order (MTC Definition 1 and
 * the Int axiom), shared by both engines: per key, its external read (the first read before any
 * write of the key), whether it writes the key, blindly or not, and its last write; and the
 * internal anomalies (NonRepeatableReads, NotMyOwnWrite, NotMyLastWrite).
 *
 * <p>Keys are listed in order of first appearance. One instance is reused for transaction after
 * transaction ({@link #analyze} resets it), so that analysing millions of transactions allocates
 * next to nothing; it is not thread-safe.
 */
public final class TransactionAnalysis {
  /** Above this many ops a key's state is found through a map rather than by a scan. */
  private static final int SCAN_LIMIT = 16;

  private int keyCount;
  private int[] key = new int[8];
  private boolean[] readBefore = new boolean[8];
  private Long[] firstRead = new Long[8];
  private int[] firstReadOp = new int[8];
  private boolean[] nonRepeatableReported = new boolean[8];
  private boolean[] written = new boolean[8];
  private boolean[] blind = new boolean[8];
  private long[] lastWrite = new long[8];
  private int[] lastWriteOp = new int[8];
  private int[] stateOfOp = new int[8];
  private final Map<Integer, Integer> byKey = new HashMap<>();
  private final List<ReadAnomaly> internal = new ArrayList<>(2);
  private int reads;
  private int writes;

  /**
   * Analyses the ops of transaction {@code txn}; {@code opKeys[j]} is the key id of op j. Replaces
   * the previous analysis.
   */
  public void analyze(final int txn, final List<Op> ops, final int[] opKeys) {
    keyCount = 0;
    reads = 0;
    writes = 0;
    internal.clear();
    byKey.clear();
    final int n = ops.size();
    if (stateOfOp.length < n) {
      stateOfOp = new int[Math.max(n, 2 * stateOfOp.length)];
    }
    for (int j = 0; j < n; j++) {
      final Op op = ops.get(j);
      final int s = state(opKeys[j], n);
      stateOfOp[j] = s;
      if (op.isRead()) {
        reads++;
        onRead(txn, ops, opKeys, j, op.value(), s);
      } else {
        writes++;
        if (!written[s] && !readBefore[s]) {
          blind[s] = true;
        }
        written[s] = true;
        lastWrite[s] = op.value();
        lastWriteOp[s] = j;
      }
    }
  }

  private int state(final int k, final int opCount) {
    if (opCount > SCAN_LIMIT) {
      final Integer s = byKey.get(k);
      if (s != null) {
        return s;
      }
      byKey.put(k, keyCount);
    } else {
      for (int s = 0; s < keyCount; s++) {
        if (key[s] == k) {
          return s;
        }
      }
    }
    if (keyCount == key.length) {
      grow();
    }
    final int s = keyCount++;
    key[s] = k;
    readBefore[s] = false;
    firstRead[s] = null;
    firstReadOp[s] = -1;
    nonRepeatableReported[s] = false;
    written[s] = false;
    blind[s] = false;
    lastWrite[s] = 0;
    lastWriteOp[s] = -1;
    return s;
  }

  private void grow() {
    final int n = 2 * key.length;
    key = Arrays.copyOf(key, n);
    readBefore = Arrays.copyOf(readBefore, n);
    firstRead = Arrays.copyOf(firstRead, n);
    firstReadOp = Arrays.copyOf(firstReadOp, n);
    nonRepeatableReported = Arrays.copyOf(nonRepeatableReported, n);
    written = Arrays.copyOf(written, n);
    blind = Arrays.copyOf(blind, n);
    lastWrite = Arrays.copyOf(lastWrite, n);
    lastWriteOp = Arrays.copyOf(lastWriteOp, n);
  }

  private void onRead(final int txn, final List<Op> ops, final int[] opKeys, final int j, final Long v, final int s) {
    if (!written[s]) {
      if (!readBefore[s]) {
        readBefore[s] = true;
        firstRead[s] = v;
        firstReadOp[s] = j;
      } else if (!Objects.equals(v, firstRead[s]) && !nonRepeatableReported[s]) {
        nonRepeatableReported[s] = true;
        internal.add(new ReadAnomaly(ReadAnomaly.Kind.NonRepeatableReads, txn, -1, key[s], v, firstRead[s], j));
      }
      return;
    }
    if (v != null && v == lastWrite[s]) {
      return;
    }
    final ReadAnomaly.Kind kind = v != null && wroteEarlier(ops, opKeys, j, key[s], v)
        ? ReadAnomaly.Kind.NotMyLastWrite : ReadAnomaly.Kind.NotMyOwnWrite;
    internal.add(new ReadAnomaly(kind, txn, -1, key[s], v, lastWrite[s], j));
  }

  /** Whether an op before j wrote {@code value} to the key (only scanned for a faulty read). */
  private static boolean wroteEarlier(final List<Op> ops, final int[] opKeys, final int j, final int k, final long value) {
    for (int i = 0; i < j; i++) {
      final Op op = ops.get(i);
      if (opKeys[i] == k && op.isWrite() && op.value() == value) {
        return true;
      }
    }
    return false;
  }

  /** Distinct keys the transaction touches. */
  public int keyCount() {
    return keyCount;
  }

  /** Key id of key state {@code s} (0 ≤ s < {@link #keyCount()}). */
  public int key(final int s) {
    return key[s];
  }

  /** The transaction reads the key before writing it: an external read. */
  public boolean readsBefore(final int s) {
    return readBefore[s];
  }

  /** The value of the external read (null: absent); meaningful when {@link #readsBefore}. */
  public Long firstRead(final int s) {
    return firstRead[s];
  }

  /** Op index of the external read; -1 when there is none. */
  public int firstReadOp(final int s) {
    return firstReadOp[s];
  }

  public boolean writes(final int s) {
    return written[s];
  }

  /** The first write of the key comes before any read of it. */
  public boolean blind(final int s) {
    return blind[s];
  }

  /** The last value written to the key; meaningful when {@link #writes}. */
  public long lastWrite(final int s) {
    return lastWrite[s];
  }

  /** Whether write op {@code j} is the transaction's last write of its key. */
  public boolean isLastWriteOp(final int j) {
    return lastWriteOp[stateOfOp[j]] == j;
  }

  /** Key state of op {@code j}. */
  public int stateOfOp(final int j) {
    return stateOfOp[j];
  }

  /** Internal anomalies found, in op order; the list is reused by the next analysis. */
  public List<ReadAnomaly> internalAnomalies() {
    return internal;
  }

  public int reads() {
    return reads;
  }

  public int writes() {
    return writes;
  }

  /** A read-modify-write transaction longer than a mini-transaction (more than 4 ops). */
  public boolean longReadModifyWrite() {
    return writes > 0 && reads + writes > 4;
  }

  /** A read-only transaction with more than 2 reads (e.g. a snapshot read). */
  public boolean largeReadOnly() {
    return writes == 0 && reads > 2;
  }
}
