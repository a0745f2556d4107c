package io.isowatch.core.check;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What the weak checks reason about (docs/levels.md, "The model"): the counted transactions as
 * nodes 1..n (node 0 is the initial transaction), each one's external reads with the writer they
 * read from, and session order. A read whose writer is not known for sure leaves {@link
 * #unknownReason}; a read no level allows is kept as {@link #readViolation}.
 */
final class WeakGraph {
  static final int INIT = 0;

  /** An external read of node {@code reader}: op {@code op} read {@code key}={@code value} from {@code writer}. */
  record Read(int reader, int op, String key, Long value, int writer) {}

  /** A constraint or a fact: {@code from} commits before {@code to}, and why. */
  record Arc(int from, int to, EdgeKind kind, String key, Long value, Why why) {}

  /** Why a derived arc holds: {@code reader} read {@code read} although it saw {@code from} via {@code seen}. */
  record Why(Read read, Supplier<List<Arc>> path) {
    List<Arc> seen() {
      return path.get();
    }
  }

  /** A read of a value that was never committed as its writer's last write; the writer may be null. */
  record ReadViolation(int reader, int op, String key, Long value, Transaction writer, String type, String name,
      String why) {}

  /** One write op: who wrote it, and whether it is that transaction's last write of the key. */
  private record Written(Transaction txn, boolean last) {}

  private final List<WeakLevelCheck.Entry> entries;
  private final Long initialValue;
  private final boolean horizon;
  private final boolean complete;
  /** Every write of every transaction given, committed or not: (key, value) to its writers. */
  private final Map<String, Map<Long, List<Written>>> allWrites = new HashMap<>();
  private final Map<String, Map<Long, Integer>> finalWriter = new HashMap<>();
  /** Node i (1..n) is entries.get(i - 1). */
  final int n;
  final List<Read>[] reads;
  final int[] soPred;
  private String unknownReason;
  private ReadViolation readViolation;

  WeakGraph(final List<WeakLevelCheck.Entry> all, final Long initialValue, final boolean horizon,
      final boolean complete) {
    this.initialValue = initialValue;
    this.horizon = horizon;
    this.complete = complete;
    for (final WeakLevelCheck.Entry e : all) {
      final List<Op> ops = e.txn().ops();
      for (int j = 0; j < ops.size(); j++) {
        final Op op = ops.get(j);
        if (op.isWrite()) {
          allWrites.computeIfAbsent(op.key(), k -> new HashMap<>()).computeIfAbsent(op.value(), v -> new ArrayList<>(1))
              .add(new Written(e.txn(), !writtenIn(ops, j + 1, ops.size(), op.key())));
        }
      }
    }
    this.entries = counted(all);
    this.n = entries.size();
    @SuppressWarnings("unchecked")
    final List<Read>[] r = new List[n + 1];
    this.reads = r;
    this.soPred = new int[n + 1];
    indexWrites();
    sessionOrder();
    resolveReads();
  }

  /**
   * The sub-history of {@code nodes} (ascending, each in 1..n): their transactions, the reads among
   * them (a read from a transaction left out is dropped) and session order restricted to them.
   * Every commit order of this graph's history that satisfies its reads' axioms, restricted to
   * {@code nodes}, satisfies the sub-history's: each axiom instance of the sub-history is one of
   * this history's (its premises use only reads, session order and the commit order, all
   * restricted), so a sub-history with no commit order proves that this one has none.
   */
  WeakGraph sub(final int[] nodes) {
    return new WeakGraph(this, nodes);
  }

  private WeakGraph(final WeakGraph full, final int[] nodes) {
    this.initialValue = full.initialValue;
    this.horizon = full.horizon;
    this.complete = full.complete;
    this.n = nodes.length;
    final int[] index = new int[full.n + 1];
    final List<WeakLevelCheck.Entry> kept = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      index[nodes[i]] = i + 1;
      kept.add(full.entries.get(nodes[i] - 1));
    }
    this.entries = kept;
    @SuppressWarnings("unchecked")
    final List<Read>[] r = new List[n + 1];
    this.reads = r;
    this.soPred = new int[n + 1];
    for (int i = 1; i <= n; i++) {
      final int t = nodes[i - 1];
      final List<Read> list = new ArrayList<>(full.reads[t].size());
      for (final Read read : full.reads[t]) {
        if (read.writer() == INIT || index[read.writer()] > 0) {
          list.add(new Read(i, read.op(), read.key(), read.value(), read.writer() == INIT ? INIT : index[read.writer()]));
        }
      }
      reads[i] = list;
      int p = full.soPred[t];
      while (p > 0 && index[p] == 0) {
        p = full.soPred[p]; // segments between kept members of a session: each walked once
      }
      soPred[i] = p > 0 ? index[p] : 0;
    }
  }

  /** Why some read's writer is not known for sure, or null. */
  String unknownReason() {
    return unknownReason;
  }

  /** The first read no level allows, or null. */
  ReadViolation readViolation() {
    return readViolation;
  }

  Transaction txn(final int node) {
    return entries.get(node - 1).txn();
  }

  String id(final int node) {
    return node == INIT ? "init" : txn(node).id();
  }

  boolean writes(final int node, final String key) {
    for (final Op op : txn(node).ops()) {
      if (op.isWrite() && op.key().equals(key)) {
        return true;
      }
    }
    return false;
  }

  Long lastWrite(final int node, final String key) {
    Long v = null;
    for (final Op op : txn(node).ops()) {
      if (op.isWrite() && op.key().equals(key)) {
        v = op.value();
      }
    }
    return v;
  }

  Set<String> writtenKeys(final int node) {
    final Set<String> keys = new HashSet<>();
    for (final Op op : txn(node).ops()) {
      if (op.isWrite()) {
        keys.add(op.key());
      }
    }
    return keys;
  }

  /** The first external read of each key node {@code t} reads (external reads precede own writes). */
  List<Read> firstReads(final int t) {
    final Set<String> keys = new HashSet<>();
    final List<Read> out = new ArrayList<>();
    for (final Read r : reads[t]) {
      if (keys.add(r.key())) {
        out.add(r);
      }
    }
    return out;
  }

  /** SO ∪ WR, and the initial transaction before every other (as a WR-free fact, kind SO). */
  List<Arc> baseArcs() {
    final List<Arc> arcs = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      if (soPred[i] > 0) {
        arcs.add(new Arc(soPred[i], i, EdgeKind.SO, null, null, null));
      }
      for (final Read r : reads[i]) {
        if (r.writer() != INIT) {
          arcs.add(new Arc(r.writer(), i, EdgeKind.WR, r.key(), r.value(), null));
        }
      }
    }
    return arcs;
  }

  private void indexWrites() {
    for (int i = 1; i <= n; i++) {
      final List<Op> ops = txn(i).ops();
      for (int j = 0; j < ops.size(); j++) {
        final Op op = ops.get(j);
        if (op.isWrite() && !writtenIn(ops, j + 1, ops.size(), op.key())) {
          finalWriter.computeIfAbsent(op.key(), x -> new HashMap<>()).put(op.value(), i);
        }
      }
    }
  }

  private void sessionOrder() {
    final Map<Integer, List<Integer>> bySession = new HashMap<>();
    for (int i = 1; i <= n; i++) {
      bySession.computeIfAbsent(entries.get(i - 1).session(), s -> new ArrayList<>()).add(i);
    }
    for (final List<Integer> members : bySession.values()) {
      members.sort((a, b) -> Long.compare(entries.get(a - 1).rank(), entries.get(b - 1).rank()));
      for (int j = 1; j < members.size(); j++) {
        soPred[members.get(j)] = members.get(j - 1);
      }
    }
  }

  private void resolveReads() {
    for (int i = 1; i <= n; i++) {
      final List<Read> list = new ArrayList<>(4);
      final List<Op> ops = txn(i).ops();
      for (int j = 0; j < ops.size(); j++) {
        final Op op = ops.get(j);
        if (op.isWrite()) {
          continue;
        }
        if (writtenIn(ops, 0, j, op.key())) {
          continue; // Int: the engine checks reads of own writes
        }
        final int w = writerOf(i, j, op.key(), op.value());
        if (w == INIT || w > 0) {
          if (w != i) {
            list.add(new Read(i, j, op.key(), op.value(), w));
          }
        }
      }
      reads[i] = list;
    }
  }

  /**
   * The transactions that count: the committed ones, and an indeterminate one once a counted one
   * reads, by an external read, a value it wrote last (to a fixpoint), as the engine and the oracle
   * count them.
   */
  private List<WeakLevelCheck.Entry> counted(final List<WeakLevelCheck.Entry> all) {
    final List<WeakLevelCheck.Entry> out = new ArrayList<>();
    // By identity: a Transaction record's hash walks all its ops, and the engine gives each once.
    final Set<Transaction> in = Collections.newSetFromMap(new IdentityHashMap<>());
    final ArrayDeque<WeakLevelCheck.Entry> work = new ArrayDeque<>();
    for (final WeakLevelCheck.Entry e : all) {
      if (e.txn().status() == TxnStatus.COMMITTED) {
        work.add(e);
        in.add(e.txn());
      }
    }
    final Map<Transaction, WeakLevelCheck.Entry> byTxn = new IdentityHashMap<>();
    for (final WeakLevelCheck.Entry e : all) {
      if (e.txn().status() == TxnStatus.UNKNOWN) {
        byTxn.put(e.txn(), e);
      }
    }
    while (!work.isEmpty()) {
      final WeakLevelCheck.Entry e = work.poll();
      out.add(e);
      // Only external reads promote: a read after the reader's own write of the key returns that write.
      final Set<String> written = new HashSet<>();
      for (final Op op : e.txn().ops()) {
        if (op.isWrite()) {
          written.add(op.key());
        }
        if (!op.isRead() || op.value() == null || written.contains(op.key())) {
          continue;
        }
        for (final Written w : allWrites.getOrDefault(op.key(), Map.of()).getOrDefault(op.value(), List.of())) {
          if (w.last() && w.txn().status() == TxnStatus.UNKNOWN && in.add(w.txn())) {
            work.add(byTxn.get(w.txn()));
          }
        }
      }
    }
    return out;
  }

  /** The node whose final write a read of (key, value) by {@code reader} returned: INIT, a node, or -1. */
  private int writerOf(final int reader, final int op, final String key, final Long value) {
    if (value == null ? initialValue == null : value.equals(initialValue)) {
      return INIT;
    }
    final List<Written> ws = value == null ? List.of() : allWrites.getOrDefault(key, Map.of()).getOrDefault(value, List.of());
    if (ws.size() > 1) {
      unknown("a value of " + key + " is written more than once (NON_UNIQUE_WRITE): the transaction a read of it "
          + "saw is not known");
      return -1;
    }
    if (ws.isEmpty()) {
      if (complete && !horizon) {
        readViolation(reader, op, key, value, null, "thin-air", "ThinAirRead",
            "no transaction wrote " + value + " to " + key + " and it is not the initial value");
      } else if (!horizon) {
        unknown("a read of " + key + "=" + value + " has no writer yet");
      }
      return -1;
    }
    final Written w = ws.get(0);
    final Integer node = finalWriter.getOrDefault(key, Map.of()).get(value);
    if (w.txn() == txn(reader)) {
      readViolation(reader, op, key, value, null, "internal", "FutureRead", "it writes that value itself only later");
    } else if (w.txn().status() == TxnStatus.ABORTED) {
      readViolation(reader, op, key, value, w.txn(), "G1a", "AbortedRead", w.txn().id() + " wrote it and aborted");
    } else if (!w.last()) {
      readViolation(reader, op, key, value, w.txn(), "G1b", "IntermediateRead",
          w.txn().id() + " wrote it and later overwrote it in the same transaction");
    } else if (node != null) {
      return node;
    }
    return -1;
  }

  /**
   * Whether one of {@code ops[from, to)} writes {@code key}. A scan, not a set per transaction: MT
   * transactions have at most four ops, and this runs for every op of every transaction.
   */
  private static boolean writtenIn(final List<Op> ops, final int from, final int to, final String key) {
    for (int j = from; j < to; j++) {
      final Op op = ops.get(j);
      if (op.isWrite() && op.key().equals(key)) {
        return true;
      }
    }
    return false;
  }

  private void readViolation(final int reader, final int op, final String key, final Long value,
      final Transaction writer, final String type, final String name, final String why) {
    if (readViolation == null) {
      readViolation = new ReadViolation(reader, op, key, value, writer, type, name, why);
    }
  }

  private void unknown(final String reason) {
    if (unknownReason == null) {
      unknownReason = reason;
    }
  }
}
