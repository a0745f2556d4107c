package io.isowatch.core.check;

import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Decides which transactions count, resolves every external read to the version it read (WR), and
 * finds the non-cycle anomalies of MTC Table I (a)-(g).
 *
 * <p>A read is external when it precedes the transaction's first write of the key; per MTC
 * Definition 1 only the first such read defines the transaction's read of the key, and later ones
 * must agree (else NonRepeatableReads). Reads after a write must return the transaction's own last
 * write (the Int axiom). Committed transactions count; an indeterminate one counts once a counted
 * transaction reads its write (a fixpoint); aborted ones never do.
 */
final class ReadResolution {
  /** The read is itself an anomaly (thin air, aborted, intermediate, future): it has no writer. */
  static final int ANOMALOUS = -1;
  /** The value read was written more than once: its writer cannot be told without guessing. */
  static final int AMBIGUOUS = -2;

  final IndexedHistory h;
  final VersionIndex versions;
  final boolean[] counted;
  final Long initialValue;

  // External reads of counted transactions, one row per (txn, key).
  final IntList readTxn = new IntList(1 << 12);
  final IntList readKey = new IntList(1 << 12);
  final IntList readVersion = new IntList(1 << 12);

  // Versions installed by counted transactions: (txn, key, version, version it overwrote or -1).
  final IntList instTxn = new IntList(1 << 12);
  final IntList instKey = new IntList(1 << 12);
  final IntList instVersion = new IntList(1 << 12);
  final IntList instPred = new IntList(1 << 12);
  final IntList instBlind = new IntList(1 << 12);

  final List<ReadAnomaly> anomalies = new ArrayList<>();
  private final TransactionAnalysis analysis = new TransactionAnalysis();
  long promoted;
  long longRmw;
  long largeReadOnly;

  private ReadResolution(final IndexedHistory h, final VersionIndex versions, final Long initialValue) {
    this.h = h;
    this.versions = versions;
    this.initialValue = initialValue;
    this.counted = new boolean[h.size()];
  }

  /** The version id of the initial value of {@code key}. */
  int initVersion(final int key) {
    return versions.capacity() + key;
  }

  boolean isInitVersion(final int version) {
    return version >= versions.capacity();
  }

  int keyOfVersion(final int version) {
    return isInitVersion(version) ? version - versions.capacity() : versions.key(version);
  }

  int writerOfVersion(final int version) {
    return isInitVersion(version) ? IndexedHistory.INIT : versions.writer(version);
  }

  Long valueOfVersion(final int version) {
    return isInitVersion(version) ? initialValue : Long.valueOf(versions.value(version));
  }

  static ReadResolution resolve(final IndexedHistory h, final Long initialValue) {
    final VersionIndex versions = indexWrites(h, initialValue);
    final ReadResolution r = new ReadResolution(h, versions, initialValue);
    r.run();
    return r;
  }

  private static VersionIndex indexWrites(final IndexedHistory h, final Long initialValue) {
    int writes = 0;
    for (int t = 1; t < h.size(); t++) {
      for (final Op op : h.txns[t].ops()) {
        if (op.isWrite()) {
          writes++;
        }
      }
    }
    final VersionIndex index = new VersionIndex(writes);
    for (int t = 1; t < h.size(); t++) {
      final Transaction txn = h.txns[t];
      final List<Op> ops = txn.ops();
      final int[] keys = h.opKeys[t];
      for (int j = 0; j < ops.size(); j++) {
        final Op op = ops.get(j);
        if (!op.isWrite()) {
          continue;
        }
        final long v = op.value();
        if (initialValue != null && v == initialValue) {
          h.findings.add(FindingKind.INITIAL_VALUE_WRITE, op.key(), txn.id(), txn.line(),
              FindingMessages.initialValueWrite(txn.id(), op.key(), v));
        }
        if (index.recordIsRepeat(keys[j], v, t, isLastWriteOf(ops, keys, j))) {
          h.findings.add(FindingKind.NON_UNIQUE_WRITE, op.key(), txn.id(), txn.line(),
              FindingMessages.nonUniqueWrite(txn.id(), op.key(), v), io.isowatch.core.check.Level.CLASSIC);
        }
      }
    }
    return index;
  }

  private static boolean isLastWriteOf(final List<Op> ops, final int[] keys, final int j) {
    for (int i = j + 1; i < ops.size(); i++) {
      if (keys[i] == keys[j] && ops.get(i).isWrite()) {
        return false;
      }
    }
    return true;
  }

  private void run() {
    final IntList work = new IntList(h.size());
    for (int t = 1; t < h.size(); t++) {
      if (h.txns[t].status() == TxnStatus.COMMITTED) {
        counted[t] = true;
        work.add(t);
      }
    }
    // The list grows while we walk it: promoted indeterminate transactions join the end.
    for (int i = 0; i < work.size(); i++) {
      analyze(work.get(i), work);
    }
  }

  private void analyze(final int t, final IntList work) {
    final TransactionAnalysis a = analysis;
    a.analyze(t, h.txns[t].ops(), h.opKeys[t]);
    anomalies.addAll(a.internalAnomalies());
    if (a.longReadModifyWrite()) {
      longRmw++;
    } else if (a.largeReadOnly()) {
      largeReadOnly++;
    }
    for (int s = 0; s < a.keyCount(); s++) {
      final int key = a.key(s);
      int readVer = ANOMALOUS;
      if (a.readsBefore(s)) {
        readVer = resolveExternalRead(t, key, a.firstRead(s), a.firstReadOp(s), work);
        readTxn.add(t);
        readKey.add(key);
        readVersion.add(readVer);
      }
      if (a.writes(s)) {
        instTxn.add(t);
        instKey.add(key);
        instVersion.add(versions.find(key, a.lastWrite(s)));
        instPred.add(readVer);
        instBlind.add(a.blind(s) ? 1 : 0);
      }
    }
  }

  /** Returns the version read, or ANOMALOUS / AMBIGUOUS. */
  private int resolveExternalRead(final int t, final int key, final Long v, final int op, final IntList work) {
    if (Objects.equals(v, initialValue)) {
      return initVersion(key);
    }
    final int slot = v == null ? -1 : versions.find(key, v);
    if (slot < 0) {
      anomalies.add(new ReadAnomaly(ReadAnomaly.Kind.ThinAirRead, t, -1, key, v, null, op));
      return ANOMALOUS;
    }
    if (versions.isMultiplyWritten(slot)) {
      return AMBIGUOUS; // reported as NON_UNIQUE_WRITE; guessing the writer would be unsound
    }
    final int w = versions.writer(slot);
    final ReadAnomaly.Kind kind;
    if (w == t) {
      kind = ReadAnomaly.Kind.FutureRead;
    } else if (h.txns[w].status() == TxnStatus.ABORTED) {
      kind = ReadAnomaly.Kind.AbortedRead;
    } else if (!versions.isFinalWrite(slot)) {
      kind = ReadAnomaly.Kind.IntermediateRead;
    } else {
      if (!counted[w]) {
        counted[w] = true;
        promoted++;
        work.add(w);
      }
      return slot;
    }
    anomalies.add(new ReadAnomaly(kind, t, w, key, v, null, op));
    return ANOMALOUS;
  }
}
