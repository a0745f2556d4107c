package io.isowatch.core.online;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One version order of a stream with blind writes, kept and checked as transactions are processed
 * (issue 14, item 3, online): each key's versions in the order their writers were fed, every new
 * write appended after the key's last version. Its dependency graph (the oracle's: committed
 * transactions, each one's first read of a key before writing it, its last write of a key, session
 * order, and for SSER real time through one node per distinct end time, as {@code
 * core.solve.VersionOrderProblem} builds it) is kept acyclic edge by edge ({@link PearceKellyDag}),
 * so while it {@link #serHolds() holds} the fed history is SER (and SI), while {@link #sserHolds()}
 * it is SSER, and while {@link #siHolds()} (a graph of its own, where only the cycles SI forbids
 * close) it is SI: a checked witness, never a guess.
 *
 * <p>It stops for good (fed the same transactions in the same order again, it would stop at the
 * same place; {@link OnlineChecker} starts a new one only for a new segment state) at whatever
 * it does not model exactly, leaving those levels to the search: a value written twice or the
 * initial value written, a read whose writer is not a fed committed transaction (an indeterminate,
 * aborted, intermediate or not yet seen one), a transaction of a session fed out of its rank.
 * A cycle of the appended order stops the levels it violates only (another order may still be
 * acyclic: the search decides those). SSER stops alone on a transaction without both times or fed
 * out of end-time order.
 */
final class AppendOrderWitness {
  /** One version of a key: its writer's node (-1: the initial version), the next writer's, and readers until then. */
  private static final class Version {
    final int writer;
    int next = -1;
    List<Integer> readers;

    Version(final int writer) {
      this.writer = writer;
    }
  }

  private record KeyValue(String key, Long value) {}

  private final Long initial;
  private final long skew;
  private final PearceKellyDag ser = new PearceKellyDag();
  private final PearceKellyDag sser = new PearceKellyDag();
  /**
   * SI: node 2n is transaction n, 2n+1 is "n entered by a dependency": a WR, WW or session step
   * a → b is 2a → 2b+1, then 2b+1 → 2b, and an RW step b → c is 2b+1 → 2c. A path is a chain of
   * dependencies each optionally followed by one RW, so a cycle here is a cycle with no two
   * adjacent RW steps, the cycles SI forbids (as GraphCycles searches them for the search).
   */
  private final PearceKellyDag si = new PearceKellyDag();
  private final Map<String, Version> last = new HashMap<>();
  private final Map<String, Version> initialVersions = new HashMap<>();
  private final Map<KeyValue, Version> written = new HashMap<>();
  /** Values written by transactions that are not committed: a read of one is left to the search. */
  private final Set<KeyValue> uncommitted = new HashSet<>();
  private final Map<String, long[]> session = new HashMap<>(); // {last node, its rank}
  private final List<Long> ends = new ArrayList<>();
  private final List<Integer> endNodes = new ArrayList<>();
  /**
   * The committed transactions fed, in feed order (the appended order is theirs), for tests: one
   * reference each, to transactions the segment holds anyway (OnlineChecker drops the witness at a
   * cut that prunes).
   */
  private final List<Transaction> fed = new ArrayList<>();
  private int nodes;
  private boolean serHolds = true;
  private boolean sserHolds = true;
  private boolean siHolds = true;
  private String stoppedBy;

  AppendOrderWitness(final Long initial, final long skewMicros) {
    this.initial = initial;
    this.skew = skewMicros;
  }

  /** Whether the appended order of everything fed so far is acyclic for SER (hence SI too). */
  boolean serHolds() {
    return serHolds;
  }

  /** Whether it is acyclic with real time as well (SSER); implies {@link #serHolds()}. */
  boolean sserHolds() {
    return sserHolds && serHolds;
  }

  /** Whether the appended order of everything fed so far has no cycle SI forbids. */
  boolean siHolds() {
    return siHolds;
  }

  /** Why the witness stopped for every level at something it does not model; null when not (a cycle is not that). */
  String stoppedBy() {
    return stoppedBy;
  }

  /** The committed transactions fed so far, in the order fed: each key's versions are in this order. */
  List<Transaction> fedOrder() {
    return List.copyOf(fed);
  }

  /** Feeds the next processed transaction ({@code rank}: its rank in its session). */
  void feed(final Transaction t, final long rank) {
    if (!serHolds && !siHolds) {
      return;
    }
    if (t.status() != TxnStatus.COMMITTED) {
      for (final Map.Entry<String, Long> w : lastWrites(t).entrySet()) {
        uncommitted.add(new KeyValue(w.getKey(), w.getValue()));
      }
      return;
    }
    fed.add(t);
    final int node = nodes++;
    ser.ensureNode(node);
    sser.ensureNode(node);
    si.ensureNode(2 * node);
    si.ensureNode(2 * node + 1);
    si.insert(2 * node + 1, 2 * node, 0, 0);
    final long[] prev = session.get(t.session());
    if (prev != null && prev[1] > rank) {
      stop("transaction " + t.id() + " came after a later one of its session");
      return;
    }
    if (prev != null) {
      if (!edge((int) prev[0], node, false)) {
        return;
      }
    }
    session.put(t.session(), new long[] {node, rank});
    final Map<String, Long> writes = lastWrites(t);
    for (final Map.Entry<String, Long> r : firstExternalReads(t).entrySet()) {
      if (!read(node, t, r.getKey(), r.getValue())) {
        return;
      }
    }
    for (final Map.Entry<String, Long> w : writes.entrySet()) {
      if (!write(node, t, w.getKey(), w.getValue())) {
        return;
      }
    }
    realTime(node, t);
  }

  private boolean read(final int node, final Transaction t, final String key, final Long value) {
    final KeyValue kv = new KeyValue(key, value);
    Version v = written.get(kv);
    if (uncommitted.contains(kv) || v != null && Objects.equals(value, initial)) {
      return stop(t.id() + " read " + key + "=" + value + ", which more than one transaction may have written");
    }
    if (v == null) {
      if (!Objects.equals(value, initial)) {
        return stop(t.id() + " read " + key + "=" + value + ", which no transaction fed so far wrote last");
      }
      v = initialVersions.computeIfAbsent(key, k -> new Version(-1));
      last.putIfAbsent(key, v);
    }
    if (v.writer >= 0 && !edge(v.writer, node, false)) {
      return false;
    }
    if (v.next >= 0) {
      return edge(node, v.next, true);
    }
    if (v.readers == null) {
      v.readers = new ArrayList<>(2);
    }
    v.readers.add(node);
    return true;
  }

  private boolean write(final int node, final Transaction t, final String key, final Long value) {
    final KeyValue kv = new KeyValue(key, value);
    if (written.containsKey(kv) || uncommitted.contains(kv) || Objects.equals(value, initial)) {
      return stop(t.id() + " wrote " + key + "=" + value + ", a value written before or the initial value");
    }
    final Version prev = last.computeIfAbsent(key, k -> initialVersions.computeIfAbsent(k, x -> new Version(-1)));
    if (prev.writer >= 0 && !edge(prev.writer, node, false)) {
      return false;
    }
    if (prev.readers != null) {
      for (final int r : prev.readers) {
        if (r != node && !edge(r, node, true)) {
          return false;
        }
      }
      prev.readers = null;
    }
    prev.next = node;
    final Version v = new Version(node);
    written.put(kv, v);
    last.put(key, v);
    return true;
  }

  /** Real time through time nodes, as VersionOrderProblem encodes it: a → E(a.end) → E(later end) → b. */
  private void realTime(final int node, final Transaction t) {
    if (!sserHolds || !serHolds) {
      return;
    }
    final long start = t.start();
    final long end = t.end();
    if (start == Transaction.NO_TIME || end == Transaction.NO_TIME || end < start
        || !ends.isEmpty() && end < ends.get(ends.size() - 1)) {
      sserHolds = false;
      return;
    }
    // Incoming first: the latest end strictly before start - skew (ends fed so far are all of them
    // that can be: a transaction fed later ends no earlier than this one, so not before its start).
    int lo = 0;
    int hi = ends.size();
    while (lo < hi) {
      final int mid = (lo + hi) >>> 1;
      if (ends.get(mid) + skew < start) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (lo > 0 && !timeEdge(endNodes.get(lo - 1), node)) {
      return;
    }
    if (ends.isEmpty() || end > ends.get(ends.size() - 1)) {
      final int e = nodes++;
      sser.ensureNode(e);
      if (!endNodes.isEmpty() && !timeEdge(endNodes.get(endNodes.size() - 1), e)) {
        return;
      }
      ends.add(end);
      endNodes.add(e);
    }
    timeEdge(node, endNodes.get(endNodes.size() - 1));
  }

  private boolean timeEdge(final int from, final int to) {
    if (sser.insert(from, to, 0, 0) < 0) {
      sserHolds = false;
      return false;
    }
    return true;
  }

  /**
   * Adds a dependency edge ({@code rw}: an anti-dependency) to each graph that still holds; false
   * when no graph holds any more (the appended order has a cycle at SER and one SI forbids).
   */
  private boolean edge(final int from, final int to, final boolean rw) {
    if (serHolds && ser.insert(from, to, 0, 0) < 0) {
      serHolds = false;
      sserHolds = false;
    }
    if (sserHolds && sser.insert(from, to, 0, 0) < 0) {
      sserHolds = false;
    }
    if (siHolds && si.insert(rw ? 2 * from + 1 : 2 * from, rw ? 2 * to : 2 * to + 1, 0, 0) < 0) {
      siHolds = false;
    }
    return serHolds || siHolds;
  }

  private boolean stop(final String why) {
    serHolds = false;
    sserHolds = false;
    siHolds = false;
    stoppedBy = why;
    return false;
  }

  /** Each key {@code t} writes, to its last value written, in the order of the keys' first writes. */
  static Map<String, Long> lastWrites(final Transaction t) {
    final Map<String, Long> out = new LinkedHashMap<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        out.put(op.key(), op.value());
      }
    }
    return out;
  }

  /** Each key {@code t} reads before writing it, to the first value read, in the order of those reads. */
  static Map<String, Long> firstExternalReads(final Transaction t) {
    final Map<String, Long> out = new LinkedHashMap<>();
    final Set<String> writtenHere = new HashSet<>();
    for (final Op op : t.ops()) {
      if (op.isWrite()) {
        writtenHere.add(op.key());
      } else if (!writtenHere.contains(op.key()) && !out.containsKey(op.key())) {
        out.put(op.key(), op.value());
      }
    }
    return out;
  }
}
