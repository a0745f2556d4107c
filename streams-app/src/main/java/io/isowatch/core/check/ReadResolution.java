package io.isowatch.core.check;

import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
              "transaction " + txn.id() + " writes " + op.key() + "=" + v
                  + ", the initial value; every written value must differ from it");
        }
        if (index.recordIsRepeat(keys[j], v, t, isLastWriteOf(ops, keys, j))) {
          h.findings.add(FindingKind.NON_UNIQUE_WRITE, op.key(), txn.id(), txn.line(),
              "value " + v + " is written to " + op.key() + " more than once (again by " + txn.id()
                  + "); reads of it cannot be attributed");
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

  /** Per-key state of one transaction while its ops are scanned in program order. */
  private static final class KeyState {
    final int key;
    boolean readBefore;
    Long firstRead;
    int firstReadOp;
    boolean nonRepeatableReported;
    boolean written;
    boolean blind;
    long lastWrite;
    final List<Long> writes = new ArrayList<>(2);

    KeyState(final int key) {
      this.key = key;
    }
  }

  private void analyze(final int t, final IntList work) {
    final List<Op> ops = h.txns[t].ops();
    final int[] keys = h.opKeys[t];
    final List<KeyState> states = new ArrayList<>(4);
    // Small transactions scan a short list; big ones (snapshot reads) need a map.
    final Map<Integer, KeyState> byKey = ops.size() > 16 ? new HashMap<>() : null;
    int reads = 0;
    int writes = 0;
    for (int j = 0; j < ops.size(); j++) {
      final Op op = ops.get(j);
      final KeyState st = state(states, byKey, keys[j]);
      if (op.isRead()) {
        reads++;
        onRead(t, j, op.value(), st);
      } else {
        writes++;
        if (!st.written && !st.readBefore) {
          st.blind = true;
        }
        st.written = true;
        st.lastWrite = op.value();
        st.writes.add(op.value());
      }
    }
    if (writes > 0 && ops.size() > 4) {
      longRmw++;
    } else if (writes == 0 && reads > 2) {
      largeReadOnly++;
    }
    for (final KeyState st : states) {
      int readVer = ANOMALOUS;
      if (st.readBefore) {
        readVer = resolveExternalRead(t, st, work);
        readTxn.add(t);
        readKey.add(st.key);
        readVersion.add(readVer);
      }
      if (st.written) {
        instTxn.add(t);
        instKey.add(st.key);
        instVersion.add(versions.find(st.key, st.lastWrite));
        instPred.add(readVer);
        instBlind.add(st.blind ? 1 : 0);
      }
    }
  }

  private static KeyState state(final List<KeyState> states, final Map<Integer, KeyState> byKey, final int key) {
    if (byKey != null) {
      return byKey.computeIfAbsent(key, k -> {
        final KeyState s = new KeyState(k);
        states.add(s);
        return s;
      });
    }
    for (final KeyState s : states) {
      if (s.key == key) {
        return s;
      }
    }
    final KeyState s = new KeyState(key);
    states.add(s);
    return s;
  }

  private void onRead(final int t, final int j, final Long v, final KeyState st) {
    if (!st.written) {
      if (!st.readBefore) {
        st.readBefore = true;
        st.firstRead = v;
        st.firstReadOp = j;
      } else if (!Objects.equals(v, st.firstRead) && !st.nonRepeatableReported) {
        st.nonRepeatableReported = true;
        anomalies.add(new ReadAnomaly(ReadAnomaly.Kind.NonRepeatableReads, t, -1, st.key, v, st.firstRead, j));
      }
      return;
    }
    if (v != null && v == st.lastWrite) {
      return;
    }
    final ReadAnomaly.Kind kind = v != null && st.writes.contains(v)
        ? ReadAnomaly.Kind.NotMyLastWrite : ReadAnomaly.Kind.NotMyOwnWrite;
    anomalies.add(new ReadAnomaly(kind, t, -1, st.key, v, st.lastWrite, j));
  }

  /** Returns the version read, or ANOMALOUS / AMBIGUOUS. */
  private int resolveExternalRead(final int t, final KeyState st, final IntList work) {
    final Long v = st.firstRead;
    if (Objects.equals(v, initialValue)) {
      return initVersion(st.key);
    }
    final int slot = v == null ? -1 : versions.find(st.key, v);
    if (slot < 0) {
      anomalies.add(new ReadAnomaly(ReadAnomaly.Kind.ThinAirRead, t, -1, st.key, v, null, st.firstReadOp));
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
    anomalies.add(new ReadAnomaly(kind, t, w, st.key, v, null, st.firstReadOp));
    return ANOMALOUS;
  }
}
