package io.isowatch.core.check;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link WeakGraph}'s model in primitive arrays, for deciding the weak levels fast: the same
 * counted nodes 1..n in the same order, the same external reads with the same writers, session
 * order, and the same first unknown reason, as int ids (keys interned once, (key, value) pairs in
 * an open-addressing table). No object per read, arc or transaction. It only decides; the
 * counterexample of a violated level is built by {@link WeakGraph} and {@link WeakExplanations},
 * as before, so its explanation does not change (docs/benchmarks.md, "Weak levels").
 */
final class WeakIndex {
  static final int INIT = WeakGraph.INIT;
  private static final byte READ = 0;
  private static final byte WRITE = 1;
  private static final byte APPEND = 2;
  /** Or'ed into an op's kind when its value is null. */
  private static final byte NULL = 4;
  private static final byte COMMITTED = 1;
  private static final byte UNKNOWN = 2;
  private static final byte OTHER = 3;

  final int n;
  final int keyCount;
  /** Node i's transaction (1..n). */
  final Transaction[] txn;
  /** The node before i in its session, 0 for a session's first. */
  final int[] soPred;
  /** External reads of node t: indices readStart[t] .. readStart[t + 1] - 1, in op order. */
  final int[] readStart;
  final int[] readKey;
  /** The node a read read from: INIT or a node (unresolved reads are left out, as in WeakGraph). */
  final int[] readWriter;
  /** Keys node t writes (each once, in the order of its last write of each): writeStart[t] ... */
  final int[] writeStart;
  final int[] writeKey;
  /** Whether node t's first op on the key of write slot v is a read (a read-modify-write). */
  final boolean[] writeAfterRead;
  /** Key names, by id. */
  final String[] keyNames;
  private String unknownReason;
  private boolean readViolation;
  /** The key of the first write that is its transaction's first op on the key (node order), or null. */
  private String blindKey;

  WeakIndex(final List<WeakLevelCheck.Entry> all, final Long initialValue, final boolean horizon,
      final boolean complete) {
    final int entries = all.size();
    // Pass 1, the only one over the transactions' objects: every op as a key id, a kind and a value.
    final int[] opStart = new int[entries + 1];
    for (int e = 0; e < entries; e++) {
      opStart[e + 1] = opStart[e] + all.get(e).txn().ops().size();
    }
    final int ops = opStart[entries];
    final int[] opKey = new int[ops];
    final byte[] opKind = new byte[ops];
    final long[] opValue = new long[ops];
    final byte[] status = new byte[entries];
    final KeyIds keys = new KeyIds();
    int writeOps = 0;
    for (int e = 0; e < entries; e++) {
      final Transaction t = all.get(e).txn();
      status[e] = t.status() == TxnStatus.COMMITTED ? COMMITTED : t.status() == TxnStatus.UNKNOWN ? UNKNOWN : OTHER;
      final List<Op> list = t.ops();
      for (int j = 0; j < list.size(); j++) {
        final Op op = list.get(j);
        final int o = opStart[e] + j;
        opKey[o] = keys.id(op.key());
        final Long v = op.value();
        opKind[o] = (byte) ((op.isWrite() ? WRITE : op.isRead() ? READ : APPEND) | (v == null ? NULL : 0));
        opValue[o] = v == null ? 0 : v;
        writeOps += op.isWrite() ? 1 : 0;
      }
    }
    final ValueTable writes = new ValueTable(Math.max(16, writeOps));
    // Each write op: its entry, whether it is the entry's last write of the key, the next write of the same pair.
    final int[] wEntry = new int[writeOps];
    final boolean[] wLast = new boolean[writeOps];
    final int[] wNext = new int[writeOps];
    int w = 0;
    for (int e = 0; e < entries; e++) {
      for (int o = opStart[e]; o < opStart[e + 1]; o++) {
        if (kind(opKind[o]) == WRITE) {
          wEntry[w] = e;
          wLast[w] = !writtenIn(opKind, opKey, o + 1, opStart[e + 1], opKey[o]);
          // Kept in op order per pair (appended at the tail), as WeakGraph's lists are.
          wNext[w] = -1;
          final int head = writes.get(opKey[o], opValue[o]);
          if (head < 0) {
            writes.put(opKey[o], opValue[o], w);
          } else {
            int tail = head;
            while (wNext[tail] >= 0) {
              tail = wNext[tail];
            }
            wNext[tail] = w;
          }
          w++;
        }
      }
    }
    this.keyCount = keys.size();
    this.keyNames = keys.names();
    // Each read's first writer of its (key, value), looked up once: -1 none, -2 not a read with a value.
    final int[] opHead = new int[ops];
    for (int o = 0; o < ops; o++) {
      opHead[o] = opKind[o] == READ ? writes.get(opKey[o], opValue[o]) : -2;
    }
    // Pass 2: the counted entries, in WeakGraph.counted's order (committed ones, then promoted ones as found).
    final int[] nodeOf = new int[entries];
    final int[] order = new int[entries];
    int count = 0;
    for (int e = 0; e < entries; e++) {
      if (status[e] == COMMITTED) {
        order[count++] = e;
        nodeOf[e] = -1;
      }
    }
    for (int head = 0; head < count; head++) {
      final int e = order[head];
      for (int o = opStart[e]; o < opStart[e + 1]; o++) {
        if (opKind[o] != READ) { // a read with a value
          continue;
        }
        if (writtenIn(opKind, opKey, opStart[e], o, opKey[o])) {
          continue; // a read of the reader's own write promotes no one (only external reads do, as in the oracle)
        }
        for (int x = opHead[o]; x >= 0; x = wNext[x]) {
          final int we = wEntry[x];
          if (wLast[x] && status[we] == UNKNOWN && nodeOf[we] == 0) {
            nodeOf[we] = -1;
            order[count++] = we;
          }
        }
      }
    }
    this.n = count;
    this.txn = new Transaction[n + 1];
    for (int i = 1; i <= n; i++) {
      nodeOf[order[i - 1]] = i;
      txn[i] = all.get(order[i - 1]).txn();
    }
    for (int e = 0; e < entries; e++) {
      if (nodeOf[e] < 0) {
        nodeOf[e] = 0;
      }
    }
    this.soPred = sessionOrder(all, order, n);
    // Keys written per node (each once), whether each is a read-modify-write; external reads and their writers.
    this.writeStart = new int[n + 2];
    this.readStart = new int[n + 2];
    int slots = 0;
    int maxReads = 0;
    for (int i = 1; i <= n; i++) {
      final int e = order[i - 1];
      for (int o = opStart[e]; o < opStart[e + 1]; o++) {
        if (kind(opKind[o]) == WRITE && !writtenIn(opKind, opKey, o + 1, opStart[e + 1], opKey[o])) {
          slots++;
        }
      }
      maxReads += opStart[e + 1] - opStart[e];
    }
    this.writeKey = new int[slots];
    this.writeAfterRead = new boolean[slots];
    final int[] rKey = new int[maxReads];
    final int[] rWriter = new int[maxReads];
    int r = 0;
    int s = 0;
    for (int i = 1; i <= n; i++) {
      final int e = order[i - 1];
      final int first = opStart[e];
      final int end = opStart[e + 1];
      readStart[i] = r;
      writeStart[i] = s;
      for (int o = first; o < end; o++) {
        final int key = opKey[o];
        if (kind(opKind[o]) == WRITE) {
          if (!writtenIn(opKind, opKey, o + 1, end, key)) {
            writeKey[s] = key;
            writeAfterRead[s] = firstOpIsRead(opKind, opKey, first, end, key);
            s++;
          }
          if (blindKey == null && !writtenIn(opKind, opKey, first, o, key) && !readIn(opKind, opKey, first, o, key)) {
            blindKey = keyNames[key];
          }
          continue;
        }
        if (writtenIn(opKind, opKey, first, o, key)) {
          continue; // Int: the engine checks reads of own writes
        }
        final int writer = writerOf(all, e, i, o, opKey, opKind, opValue, initialValue, horizon, complete,
            opHead[o] != -2 ? opHead[o] : writes.get(opKey[o], opValue[o]), wEntry, wLast, wNext, nodeOf);
        if ((writer == INIT || writer > 0) && writer != i) {
          rKey[r] = key;
          rWriter[r] = writer;
          r++;
        }
      }
    }
    readStart[n + 1] = r;
    writeStart[n + 1] = s;
    this.readKey = Arrays.copyOf(rKey, r);
    this.readWriter = Arrays.copyOf(rWriter, r);
  }

  /** Why some read's writer is not known for sure (WeakGraph's first reason), or null. */
  String unknownReason() {
    return unknownReason;
  }

  /** Whether some read is one no level allows (then {@link WeakGraph} decides and explains everything). */
  boolean readViolation() {
    return readViolation;
  }

  /** A key some transaction wrote without reading or writing it first (AdyaArcs.blindWriter), or null. */
  String blindKey() {
    return blindKey;
  }

  /** The write slot of node {@code t}'s last write of {@code key}, or -1 when it does not write it. */
  int writeSlot(final int t, final int key) {
    for (int v = writeStart[t]; v < writeStart[t + 1]; v++) {
      if (writeKey[v] == key) {
        return v;
      }
    }
    return -1;
  }

  /**
   * WeakGraph.writerOf, over ids: the node whose final write the read (op o) returned, INIT, or -1;
   * {@code written} is the first write of its (key, value), or -1.
   */
  private int writerOf(final List<WeakLevelCheck.Entry> all, final int readerEntry, final int reader, final int o,
      final int[] opKey, final byte[] opKind, final long[] opValue, final Long initialValue, final boolean horizon,
      final boolean complete, final int written, final int[] wEntry, final boolean[] wLast, final int[] wNext,
      final int[] nodeOf) {
    final boolean isNull = (opKind[o] & NULL) != 0;
    final long value = opValue[o];
    if (isNull ? initialValue == null : initialValue != null && value == initialValue) {
      return INIT;
    }
    final int key = opKey[o];
    final int head = isNull ? -1 : written;
    if (head >= 0 && wNext[head] >= 0) {
      unknown("a value of " + keyNames[key] + " is written more than once (NON_UNIQUE_WRITE): the transaction a read "
          + "of it saw is not known");
      return -1;
    }
    if (head < 0) {
      if (complete && !horizon) {
        readViolation = true;
      } else if (!horizon) {
        unknown("a read of " + keyNames[key] + "=" + (isNull ? "null" : Long.toString(value)) + " has no writer yet");
      }
      return -1;
    }
    final int we = wEntry[head];
    if (we == readerEntry || all.get(we).txn() == txn[reader] || all.get(we).txn().status() == TxnStatus.ABORTED
        || !wLast[head]) {
      readViolation = true;
      return -1;
    }
    final int node = nodeOf[we];
    return node > 0 ? node : -1;
  }

  private void unknown(final String reason) {
    if (unknownReason == null) {
      unknownReason = reason;
    }
  }

  /**
   * WeakGraph.sessionOrder: per session, its nodes by rank (ties in node order). A stable counting
   * sort by session, then each session's run sorted by rank only if it is not already.
   */
  private static int[] sessionOrder(final List<WeakLevelCheck.Entry> all, final int[] order, final int n) {
    final int[] soPred = new int[n + 1];
    final Map<Integer, Integer> dense = new HashMap<>();
    final int[] sessionOf = new int[n + 1];
    for (int i = 1; i <= n; i++) {
      final int session = all.get(order[i - 1]).session();
      Integer d = dense.get(session);
      if (d == null) {
        d = dense.size();
        dense.put(session, d);
      }
      sessionOf[i] = d;
    }
    final int[] start = new int[dense.size() + 1];
    for (int i = 1; i <= n; i++) {
      start[sessionOf[i] + 1]++;
    }
    for (int d = 0; d < dense.size(); d++) {
      start[d + 1] += start[d];
    }
    final int[] fill = Arrays.copyOf(start, dense.size());
    final int[] byRank = new int[n];
    for (int i = 1; i <= n; i++) {
      byRank[fill[sessionOf[i]]++] = i;
    }
    final long[] rank = new long[n + 1];
    for (int i = 1; i <= n; i++) {
      rank[i] = all.get(order[i - 1]).rank();
    }
    for (int d = 0; d < dense.size(); d++) {
      boolean sorted = true;
      for (int k = start[d] + 1; k < start[d + 1] && sorted; k++) {
        sorted = rank[byRank[k - 1]] <= rank[byRank[k]];
      }
      if (!sorted) {
        final Integer[] run = new Integer[start[d + 1] - start[d]];
        for (int k = 0; k < run.length; k++) {
          run[k] = byRank[start[d] + k];
        }
        Arrays.sort(run, (a, b) -> Long.compare(rank[a], rank[b])); // stable, as List.sort
        for (int k = 0; k < run.length; k++) {
          byRank[start[d] + k] = run[k];
        }
      }
      for (int k = start[d] + 1; k < start[d + 1]; k++) {
        soPred[byRank[k]] = byRank[k - 1];
      }
    }
    return soPred;
  }

  private static int kind(final byte k) {
    return k & ~NULL;
  }

  /** Whether one of ops [from, to) writes {@code key}: a scan, as MT transactions have at most four ops. */
  private static boolean writtenIn(final byte[] opKind, final int[] opKey, final int from, final int to,
      final int key) {
    for (int o = from; o < to; o++) {
      if (opKey[o] == key && kind(opKind[o]) == WRITE) {
        return true;
      }
    }
    return false;
  }

  private static boolean readIn(final byte[] opKind, final int[] opKey, final int from, final int to, final int key) {
    for (int o = from; o < to; o++) {
      if (opKey[o] == key && kind(opKind[o]) == READ) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the first read or write of {@code key} in ops [from, to) is a read (appends are not
   * counted, as in AdyaArcs).
   */
  private static boolean firstOpIsRead(final byte[] opKind, final int[] opKey, final int from, final int to,
      final int key) {
    for (int o = from; o < to; o++) {
      if (opKey[o] == key && kind(opKind[o]) != APPEND) {
        return kind(opKind[o]) == READ;
      }
    }
    return false;
  }

  /** Key names to dense ids (open addressing; each slot keeps the name's hash). */
  private static final class KeyIds {
    private String[] names = new String[64];
    private int[] hashes = new int[64];
    private int[] ids = new int[64];
    private String[] byId = new String[16];
    private int size;

    int id(final String name) {
      final int h = name.hashCode();
      int slot = (h ^ (h >>> 16)) & (names.length - 1);
      while (names[slot] != null) {
        if (hashes[slot] == h && names[slot].equals(name)) {
          return ids[slot];
        }
        slot = (slot + 1) & (names.length - 1);
      }
      if (size == byId.length) {
        byId = Arrays.copyOf(byId, size * 2);
      }
      byId[size] = name;
      names[slot] = name;
      hashes[slot] = h;
      ids[slot] = size;
      if (++size * 2 > names.length) {
        rehash();
      }
      return size - 1;
    }

    int size() {
      return size;
    }

    String[] names() {
      return Arrays.copyOf(byId, size);
    }

    private void rehash() {
      final String[] oldNames = names;
      final int[] oldHashes = hashes;
      final int[] oldIds = ids;
      names = new String[oldNames.length * 2];
      hashes = new int[names.length];
      ids = new int[names.length];
      for (int i = 0; i < oldNames.length; i++) {
        if (oldNames[i] != null) {
          int slot = (oldHashes[i] ^ (oldHashes[i] >>> 16)) & (names.length - 1);
          while (names[slot] != null) {
            slot = (slot + 1) & (names.length - 1);
          }
          names[slot] = oldNames[i];
          hashes[slot] = oldHashes[i];
          ids[slot] = oldIds[i];
        }
      }
    }
  }

  /**
   * (key id, value) to a non-negative int, by open addressing with a fixed capacity (at least twice
   * the entries); a slot's value and key-and-payload are adjacent, so a probe reads one cache line.
   */
  private static final class ValueTable {
    /** table[2i]: the value; table[2i + 1]: key << 32 | (payload + 1), 0 for a free slot. */
    private final long[] table;
    private final int mask;

    ValueTable(final int maxEntries) {
      int cap = 16;
      while (cap < 2 * maxEntries) {
        cap <<= 1;
      }
      table = new long[2 * cap];
      mask = cap - 1;
    }

    int get(final int key, final long value) {
      int slot = slot(key, value);
      while (true) {
        final long word = table[2 * slot + 1];
        if (word == 0) {
          return -1;
        }
        if ((int) (word >>> 32) == key && table[2 * slot] == value) {
          return (int) word - 1;
        }
        slot = (slot + 1) & mask;
      }
    }

    /** Stores a new pair (absent). */
    void put(final int key, final long value, final int p) {
      int slot = slot(key, value);
      while (table[2 * slot + 1] != 0) {
        slot = (slot + 1) & mask;
      }
      table[2 * slot] = value;
      table[2 * slot + 1] = ((long) key << 32) | ((p + 1L) & 0xFFFFFFFFL);
    }

    private int slot(final int key, final long value) {
      long h = value * 0x9E3779B97F4A7C15L + key * 0xC2B2AE3D27D4EB4FL;
      h ^= h >>> 29;
      return (int) h & mask;
    }
  }
}
