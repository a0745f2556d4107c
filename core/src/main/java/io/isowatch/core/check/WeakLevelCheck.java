package io.isowatch.core.check;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides the weak levels PL2, RC, RA and CC (docs/levels.md) from the write-read and session
 * orders alone, by saturation (Biswas-Enea, OOPSLA 2019, Section 4): each level's axiom says which
 * writers must commit before the writer a read returned, and the level holds exactly when SO, WR
 * and those edges together are acyclic (PL2: when SO ∪ WR is). None of them needs a key's version
 * order, so blind writes leave them decided; only a read whose writer is not known for sure (a value
 * written twice, or no committed writer yet) leaves them UNKNOWN, unless a violation is certain.
 *
 * <p>The transactions given are the committed ones (and indeterminate ones that were read); the
 * reads the engine already reports as non-cycle anomalies (thin air, aborted, intermediate, own
 * writes) are its concern, not this class's. The result names one counterexample per violated
 * level, as an {@link Anomaly} with a Let/Then explanation.
 */
public final class WeakLevelCheck {
  /** One transaction as the engine holds it: its session id and rank in the session. */
  public record Entry(Transaction txn, int session, long rank) {}

  /** Verdicts of the weak levels, the counterexample of each violated one, and why an unknown one is. */
  public record Result(Map<Level, Verdict> verdicts, Map<Level, Anomaly> witnesses, String unknownReason) {}

  private static final int INIT = 0;

  private final List<Entry> entries;
  private final Long initialValue;
  private final boolean horizon;
  private final boolean complete;
  /** The levels requested: anomalies list these and SSER, SER, SI ({@link Level#shown}). */
  private Set<Level> requested = Level.CLASSIC;
  /** Every write of every transaction given, committed or not: (key, value) to its writers. */
  private final Map<String, Map<Long, List<Written>>> allWrites = new HashMap<>();
  /** A read no level allows (thin air, aborted, intermediate, own future write), or null. */
  private java.util.function.Supplier<Anomaly> readViolation;

  /** One write op: who wrote it, and whether it is that transaction's last write of the key. */
  private record Written(Transaction txn, boolean last) {}
  /** Node i (1..n) is entries.get(i - 1); node 0 is the initial transaction. */
  private final int n;
  private final List<Read>[] reads;
  private final Map<String, Map<Long, Integer>> finalWriter = new HashMap<>();
  private final int[] soPred;
  private String unknownReason;

  /** An external read of node {@code reader}: op {@code op} read {@code key}={@code value} from {@code writer}. */
  private record Read(int reader, int op, String key, Long value, int writer) {}

  /** A constraint or a fact: {@code from} commits before {@code to}, and why. */
  private record Arc(int from, int to, EdgeKind kind, String key, Long value, Why why) {}

  /** Why a derived arc holds: {@code reader} read {@code read} although it saw {@code from} via {@code seen}. */
  private record Why(Read read, java.util.function.Supplier<List<Arc>> path) {
    List<Arc> seen() {
      return path.get();
    }
  }

  /**
   * @param entries the transactions to judge
   * @param initialValue the value of every key before any write (null: absent)
   * @param horizon whether transactions were pruned (a cut): a read of a value no given transaction
   *     wrote then reads a pruned version and is not judged, instead of leaving the levels UNKNOWN
   * @param complete whether every transaction has arrived (a flush): a read of a value nobody wrote
   *     is then from thin air, not waiting for its writer
   */
  public WeakLevelCheck(final List<Entry> all, final Long initialValue, final boolean horizon, final boolean complete) {
    this.initialValue = initialValue;
    this.horizon = horizon;
    this.complete = complete;
    for (final Entry e : all) {
      final Map<String, Integer> lastAt = new HashMap<>();
      final List<Op> ops = e.txn().ops();
      for (int j = 0; j < ops.size(); j++) {
        if (ops.get(j).isWrite()) {
          lastAt.put(ops.get(j).key(), j);
        }
      }
      for (int j = 0; j < ops.size(); j++) {
        final Op op = ops.get(j);
        if (op.isWrite()) {
          allWrites.computeIfAbsent(op.key(), k -> new HashMap<>()).computeIfAbsent(op.value(), v -> new ArrayList<>(1))
              .add(new Written(e.txn(), lastAt.get(op.key()) == j));
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

  /** Decides {@code levels} (those of them that are weak); its anomalies show {@code requested}. */
  public Result decide(final Set<Level> levels, final Set<Level> requestedLevels) {
    this.requested = requestedLevels;
    return decide(levels);
  }

  /** Decides {@code levels} (those of them that are weak). */
  public Result decide(final Set<Level> levels) {
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final Map<Level, Anomaly> witnesses = new EnumMap<>(Level.class);
    if (readViolation != null) {
      for (final Level level : levels) {
        if (Level.WEAK.contains(level)) {
          verdicts.put(level, Verdict.VIOLATED);
          witnesses.put(level, readViolation.get());
        }
      }
      return new Result(verdicts, witnesses, null);
    }
    final List<Arc> base = baseArcs();
    final List<Arc> g1c = cycle(base);
    final List<Arc> wr = base.stream().filter(a -> a.kind() != EdgeKind.SO).toList();
    String rrReason = null;
    for (final Level level : Level.weakestFirst(levels)) {
      if (!Level.WEAK.contains(level)) {
        continue;
      }
      final List<Arc> cycle;
      if (level == Level.PL2) {
        cycle = cycle(wr);
      } else if (level == Level.RR) {
        final List<Arc> adya = adyaArcs(wr);
        cycle = cycle(adya);
        rrReason = blindWriter == null ? null : "the version order of " + blindWriter + " is open (BLIND_WRITE), and "
            + "Adya's PL-2.99 needs one; no violation is certain";
      } else {
        cycle = g1c != null ? g1c : cycle(withDerived(base, level));
      }
      if (cycle != null) {
        verdicts.put(level, Verdict.VIOLATED);
        witnesses.put(level, level == Level.RR || level == Level.PL2 ? adyaAnomaly(cycle, level) : anomaly(cycle, level));
      } else if (unknownReason != null || (level == Level.RR && rrReason != null)) {
        verdicts.put(level, Verdict.UNKNOWN);
      } else {
        verdicts.put(level, Verdict.SATISFIED);
      }
    }
    return new Result(verdicts, witnesses, unknownReason != null ? unknownReason : rrReason);
  }

  /** A key some transaction wrote without reading it first, or null. */
  private String blindWriter;

  /**
   * Adya's certain edges (docs/anomalies.md, "Certain edges"), without session order: WR; WW from
   * the writer of the version a transaction read to that transaction when it then writes the key;
   * RW from every other reader of that version to it; RW from a reader of a key's initial version to
   * every writer of the key that did not read it first (a blind write). With no blind write these
   * are all the edges of the one version order read-modify-write leaves (or a cycle shows there is
   * none); with one, a cycle is a violation whatever the order.
   */
  private List<Arc> adyaArcs(final List<Arc> wr) {
    final List<Arc> arcs = new ArrayList<>(wr);
    // Readers of each version (key, writer node), and its overwriters.
    final Map<String, Map<Integer, List<Read>>> readers = new HashMap<>();
    final Map<String, Map<Integer, List<Integer>>> overwriters = new HashMap<>();
    final Map<String, List<Integer>> blind = new HashMap<>();
    for (int t = 1; t <= n; t++) {
      for (final Read r : reads[t]) {
        readers.computeIfAbsent(r.key(), k -> new HashMap<>()).computeIfAbsent(r.writer(), w -> new ArrayList<>()).add(r);
      }
      final Set<String> seen = new java.util.HashSet<>();
      for (final Op op : txn(t).ops()) {
        if (!op.isWrite() || !seen.add(op.key())) {
          if (op.isRead()) {
            seen.add(op.key());
          }
          continue;
        }
        // The key's first op is this write: a blind write.
        blind.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(t);
        blindWriter = blindWriter == null ? op.key() : blindWriter;
      }
      for (final Read first : firstReads(t)) {
        if (writes(t, first.key())) {
          overwriters.computeIfAbsent(first.key(), k -> new HashMap<>())
              .computeIfAbsent(first.writer(), w -> new ArrayList<>()).add(t);
        }
      }
    }
    overwriters.forEach((key, byVersion) -> byVersion.forEach((w, us) -> {
      for (final int u : us) {
        if (w != INIT) {
          arcs.add(new Arc(w, u, EdgeKind.WW, key, lastWrite(w, key), null));
        }
        for (final Read r : readers.getOrDefault(key, Map.of()).getOrDefault(w, List.of())) {
          if (r.reader() != u) {
            arcs.add(new Arc(r.reader(), u, EdgeKind.RW, key, r.value(), null));
          }
        }
      }
    }));
    blind.forEach((key, bs) -> {
      for (final int b : bs) {
        for (final Read r : readers.getOrDefault(key, Map.of()).getOrDefault(INIT, List.of())) {
          if (r.reader() != b) {
            arcs.add(new Arc(r.reader(), b, EdgeKind.RW, key, r.value(), null));
          }
        }
      }
    });
    return arcs;
  }

  /** The first external read of each key node {@code t} reads (external reads precede own writes). */
  private List<Read> firstReads(final int t) {
    final Set<String> keys = new java.util.HashSet<>();
    final List<Read> out = new ArrayList<>();
    for (final Read r : reads[t]) {
      if (keys.add(r.key())) {
        out.add(r);
      }
    }
    return out;
  }

  /** The counterexample of an Adya level: a DSG cycle of certain edges, classified as Adya does. */
  private Anomaly adyaAnomaly(final List<Arc> cycle, final Level level) {
    final List<Edge> edges = new ArrayList<>();
    final LinkedHashSet<Integer> nodes = new LinkedHashSet<>();
    final StringBuilder then = new StringBuilder("Then:\n");
    int rw = 0;
    boolean allWw = true;
    for (final Arc a : cycle) {
      nodes.add(a.from());
      edges.add(edge(a));
      rw += a.kind() == EdgeKind.RW ? 1 : 0;
      allWw &= a.kind() == EdgeKind.WW;
      then.append("  - ").append(id(a.from())).append(" < ").append(id(a.to())).append(", because ")
          .append(switch (a.kind()) {
            case WR -> id(a.to()) + " read " + a.key() + "=" + a.value() + ", which " + id(a.from()) + " wrote";
            case WW -> id(a.to()) + " read " + a.key() + "=" + a.value() + " from " + id(a.from())
                + " and then wrote " + a.key() + ": its version follows " + id(a.from()) + "'s";
            default -> id(a.from()) + " read " + a.key() + "=" + a.value() + ", a version that " + id(a.to())
                + " overwrote";
          }).append(";\n");
    }
    nodes.remove(INIT);
    final String type = rw == 0 ? (allWw ? "G0" : "G1c") : rw == 1 ? "G-single" : "G2-item";
    final String name = cycle.size() == 2 && rw == 2 ? "WriteSkew"
        : cycle.size() == 2 && rw == 1 && cycle.stream().anyMatch(a -> a.kind() == EdgeKind.WW) ? "LostUpdate" : null;
    final Set<Level> violates = rw == 0 ? java.util.EnumSet.allOf(Level.class)
        : java.util.EnumSet.of(Level.RR, Level.SER, Level.SSER);
    final List<Transaction> txns = new ArrayList<>();
    for (final int v : nodes) {
      txns.add(txn(v));
    }
    return new Anomaly(type, name, Level.shown(violates, requested), txns, edges, let(nodes) + then
        + "These edges form a cycle of Adya's direct serialization graph (no session order). This violates "
        + String.join(", ", Level.strongestFirst(Level.shown(violates, requested)).stream().map(Level::name).toList()) + " (" + type
        + (name == null ? "" : ", " + name) + ")");
  }

  private String let(final Set<Integer> nodes) {
    final StringBuilder let = new StringBuilder("Let:\n");
    for (final int v : nodes) {
      if (v == INIT) {
        continue;
      }
      final Transaction t = txn(v);
      let.append("  ").append(t.id()).append(" = [")
          .append(String.join(" ", t.ops().stream().map(Op::toString).toList())).append("] (session ")
          .append(t.session()).append(", ").append(t.status() == TxnStatus.COMMITTED ? "committed" : t.status().wire())
          .append(t.line() > 0 ? ", line " + t.line() : "").append(")\n");
    }
    return let.toString();
  }

  private Transaction txn(final int node) {
    return entries.get(node - 1).txn();
  }

  private String id(final int node) {
    return node == INIT ? "init" : txn(node).id();
  }

  private void indexWrites() {
    for (int i = 1; i <= n; i++) {
      final Transaction t = txn(i);
      final Map<String, Long> last = new LinkedHashMap<>();
      for (final Op op : t.ops()) {
        if (op.isWrite()) {
          last.put(op.key(), op.value());
        }
      }
      final int node = i;
      last.forEach((k, v) -> finalWriter.computeIfAbsent(k, x -> new HashMap<>()).put(v, node));
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
      final Set<String> written = new LinkedHashSet<>();
      final List<Op> ops = txn(i).ops();
      for (int j = 0; j < ops.size(); j++) {
        final Op op = ops.get(j);
        if (op.isWrite()) {
          written.add(op.key());
          continue;
        }
        if (written.contains(op.key())) {
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
   * reads a value it wrote last (to a fixpoint), as the engine and the oracle count them.
   */
  private List<Entry> counted(final List<Entry> all) {
    final List<Entry> out = new ArrayList<>();
    final Set<Transaction> in = new java.util.HashSet<>();
    final ArrayDeque<Entry> work = new ArrayDeque<>();
    for (final Entry e : all) {
      if (e.txn().status() == TxnStatus.COMMITTED) {
        work.add(e);
        in.add(e.txn());
      }
    }
    final Map<Transaction, Entry> byTxn = new HashMap<>();
    all.forEach(e -> byTxn.put(e.txn(), e));
    while (!work.isEmpty()) {
      final Entry e = work.poll();
      out.add(e);
      for (final Op op : e.txn().ops()) {
        if (!op.isRead() || op.value() == null) {
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

  private void readViolation(final int reader, final int op, final String key, final Long value,
      final Transaction writer, final String type, final String name, final String why) {
    if (readViolation != null) {
      return;
    }
    final Transaction r = txn(reader);
    final List<Transaction> txns = writer == null ? List.of(r) : List.of(writer, r);
    final Set<Integer> none = Set.of();
    readViolation = () -> new Anomaly(type, name, Level.shown(java.util.EnumSet.allOf(Level.class), requested), txns,
        List.of(),
        let(none) + "  " + r.id() + " = [" + String.join(" ", r.ops().stream().map(Op::toString).toList()) + "]\n"
        + "Then:\n  - " + r.id() + " read " + key + "=" + value + " (op " + op + "), but " + why
        + ": no level allows a read of a value that was never committed as its writer's last write.\n"
        + "This violates every level (" + type + ", " + name + ")",
        new AnomalyRead(r.id(), op, key, value));
  }

  private void unknown(final String reason) {
    if (unknownReason == null) {
      unknownReason = reason;
    }
  }

  /** SO ∪ WR, and the initial transaction before every other (as a WR-free fact, kind SO). */
  private List<Arc> baseArcs() {
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

  /**
   * The base arcs and the axiom's: for each read of {@code x} from t1 by t, and each other writer t2
   * of x that t saw as the axiom counts seeing, t2 before t1 (an arc of kind RW from t to t2 in
   * the reported cycle, "t read a version of x older than t2's").
   */
  private List<Arc> withDerived(final List<Arc> base, final Level level) {
    final List<Arc> arcs = new ArrayList<>(base);
    final List<Map<String, Map<Integer, Arc>>> seen = level == Level.CC ? causalWriters(base) : null;
    for (int t = 1; t <= n; t++) {
      final List<Read> rs = reads[t];
      for (int i = 0; i < rs.size(); i++) {
        final Read r = rs.get(i);
        final List<java.util.function.Supplier<List<Arc>>> via = new ArrayList<>();
        if (level == Level.RC) {
          for (int j = 0; j < i; j++) {
            addIfWrites(via, rs.get(j).writer(), r, List.of(wr(rs.get(j))));
          }
        } else if (level == Level.RA) {
          for (final Read other : rs) {
            addIfWrites(via, other.writer(), r, List.of(wr(other)));
          }
          for (int p = soPred[t]; p > 0; p = soPred[p]) {
            if (writes(p, r.key())) {
              addIfWrites(via, p, r, soPath(p, t));
              break;
            }
          }
        } else {
          final int reader = t;
          for (final int w : seen.get(t).getOrDefault(r.key(), Map.of()).keySet()) {
            if (w != r.writer()) {
              arcs.add(new Arc(w, r.writer(), EdgeKind.RW, r.key(), r.value(),
                  new Why(r, () -> causalPath(seen, w, reader, r.key()))));
            }
          }
        }
        for (final java.util.function.Supplier<List<Arc>> path : via) {
          final int t2 = path.get().get(0).from();
          if (t2 != r.writer()) {
            arcs.add(new Arc(t2, r.writer(), EdgeKind.RW, r.key(), r.value(), new Why(r, path)));
          }
        }
      }
    }
    return arcs;
  }

  private void addIfWrites(final List<java.util.function.Supplier<List<Arc>>> via, final int t2, final Read r,
      final List<Arc> path) {
    if (t2 > 0 && t2 != r.writer() && writes(t2, r.key())) {
      via.add(() -> path);
    }
  }

  /** The path by which writer {@code w} of {@code key} precedes {@code t} in (SO ∪ WR)+. */
  private static List<Arc> causalPath(final List<Map<String, Map<Integer, Arc>>> seen, final int w, final int t,
      final String key) {
    final List<Arc> path = new ArrayList<>();
    int v = t;
    while (v != w) {
      final Arc a = seen.get(v).get(key).get(w);
      path.add(0, a);
      v = a.from();
    }
    return path;
  }

  private static Arc wr(final Read r) {
    return new Arc(r.writer(), r.reader(), EdgeKind.WR, r.key(), r.value(), null);
  }

  private List<Arc> soPath(final int from, final int to) {
    final List<Arc> path = new ArrayList<>();
    for (int t = to; t != from; t = soPred[t]) {
      path.add(0, new Arc(soPred[t], t, EdgeKind.SO, null, null, null));
    }
    return path;
  }

  private boolean writes(final int node, final String key) {
    for (final Op op : txn(node).ops()) {
      if (op.isWrite() && op.key().equals(key)) {
        return true;
      }
    }
    return false;
  }

  /**
   * For each node t and key x, the writers of x that precede t in (SO ∪ WR)+, each with the last
   * arc of a path from it to t; a writer is dropped when a later writer of x on the same path
   * precedes t (it precedes that one in every commit order, so its arc is implied). SO ∪ WR is
   * acyclic here.
   */
  private List<Map<String, Map<Integer, Arc>>> causalWriters(final List<Arc> base) {
    final List<List<Arc>> in = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      in.add(new ArrayList<>());
    }
    for (final Arc a : base) {
      in.get(a.to()).add(a);
    }
    final List<Map<String, Map<Integer, Arc>>> out = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      out.add(null);
    }
    for (final int t : topological(base)) {
      final Map<String, Map<Integer, Arc>> mine = new HashMap<>();
      final Set<Integer> preds = new java.util.HashSet<>();
      for (final Arc a : in.get(t)) {
        if (!preds.add(a.from())) {
          continue;
        }
        final int p = a.from();
        final Set<String> pw = writtenKeys(p);
        for (final String k : pw) {
          mine.computeIfAbsent(k, x -> new HashMap<>(2)).putIfAbsent(p, a);
        }
        out.get(p).forEach((k, writers) -> {
          if (!pw.contains(k)) {
            final Map<Integer, Arc> m = mine.computeIfAbsent(k, x -> new HashMap<>(2));
            for (final int w : writers.keySet()) {
              m.putIfAbsent(w, a);
            }
          }
        });
      }
      out.set(t, mine);
    }
    return out;
  }

  private Set<String> writtenKeys(final int node) {
    final Set<String> keys = new java.util.HashSet<>();
    for (final Op op : txn(node).ops()) {
      if (op.isWrite()) {
        keys.add(op.key());
      }
    }
    return keys;
  }

  private int[] topological(final List<Arc> arcs) {
    final int[] indeg = new int[n + 1];
    final List<List<Integer>> succ = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      succ.add(new ArrayList<>());
    }
    for (final Arc a : arcs) {
      succ.get(a.from()).add(a.to());
      indeg[a.to()]++;
    }
    final ArrayDeque<Integer> ready = new ArrayDeque<>();
    for (int i = 1; i <= n; i++) {
      if (indeg[i] == 0) {
        ready.add(i);
      }
    }
    final int[] order = new int[n];
    int k = 0;
    while (!ready.isEmpty()) {
      final int v = ready.poll();
      order[k++] = v;
      for (final int w : succ.get(v)) {
        if (--indeg[w] == 0) {
          ready.add(w);
        }
      }
    }
    return Arrays.copyOf(order, k);
  }

  /**
   * A cycle of {@code arcs}, as arcs in order, or null when they are acyclic. An arc into the
   * initial transaction is a cycle by itself: the initial transaction precedes every other.
   */
  private List<Arc> cycle(final List<Arc> arcs) {
    for (final Arc a : arcs) {
      if (a.to() == INIT) {
        return List.of(a);
      }
    }
    final List<List<Arc>> out = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      out.add(new ArrayList<>());
    }
    for (final Arc a : arcs) {
      out.get(a.from()).add(a);
    }
    final int[] color = new int[n + 1];
    final Arc[] via = new Arc[n + 1];
    for (int s = 1; s <= n; s++) {
      if (color[s] != 0) {
        continue;
      }
      // Iterative DFS: 1 = on the stack, 2 = done.
      final ArrayDeque<int[]> stack = new ArrayDeque<>();
      stack.push(new int[] {s, 0});
      color[s] = 1;
      while (!stack.isEmpty()) {
        final int[] top = stack.peek();
        final List<Arc> edges = out.get(top[0]);
        if (top[1] == edges.size()) {
          color[top[0]] = 2;
          stack.pop();
          continue;
        }
        final Arc a = edges.get(top[1]++);
        if (color[a.to()] == 1) {
          final List<Arc> cyc = new ArrayList<>();
          cyc.add(a);
          for (int v = a.from(); v != a.to(); v = via[v].from()) {
            cyc.add(0, via[v]);
          }
          return cyc;
        }
        if (color[a.to()] == 0) {
          color[a.to()] = 1;
          via[a.to()] = a;
          stack.push(new int[] {a.to(), 0});
        }
      }
    }
    return null;
  }

  /** The counterexample of {@code level}: the cycle, named and explained. */
  private Anomaly anomaly(final List<Arc> cycle, final Level level) {
    int derived = 0;
    int at = -1;
    for (int i = 0; i < cycle.size(); i++) {
      if (cycle.get(i).why() != null) {
        derived++;
        at = i;
      }
    }
    final List<Edge> edges = new ArrayList<>();
    final LinkedHashSet<Integer> inCycle = new LinkedHashSet<>();
    final LinkedHashSet<Integer> mentioned = new LinkedHashSet<>();
    final StringBuilder then = new StringBuilder("Then:\n");
    final String type;
    final String name;
    final Set<Level> violates;
    if (derived == 1) {
      // Drawn as the classic anti-dependency cycle: the reader read x older than the version of t2,
      // a writer it saw; the rest of the cycle is why t1's version precedes t2's.
      final Arc d = cycle.get(at);
      final Read r = d.why().read();
      final int t2 = d.from();
      edges.add(new Edge(id(r.reader()), id(t2), EdgeKind.RW, r.key(), r.value()));
      inCycle.add(r.reader());
      for (final Arc p : d.why().seen()) {
        inCycle.add(p.from());
        edges.add(edge(p));
      }
      final List<Arc> rest = new ArrayList<>();
      for (int i = 1; i < cycle.size(); i++) {
        rest.add(cycle.get((at + i) % cycle.size()));
      }
      final String t1 = r.writer() == INIT ? "init" : id(r.writer());
      then.append("  - ").append(id(r.reader())).append(" read ").append(r.key()).append('=').append(r.value())
          .append(r.writer() == INIT ? ", the initial value" : ", written by " + t1).append(", although it had seen ")
          .append(id(t2)).append(", which also wrote ").append(r.key()).append(" (").append(seenBy(d.why().seen()))
          .append(");\n  - so ").append(axiom(level)).append(": ").append(id(t2)).append(" must commit before ")
          .append(t1).append(";\n  - but ").append(t1).append(" commits before ").append(id(t2));
      if (rest.isEmpty()) {
        then.append(", since the initial transaction precedes every other");
      } else {
        then.append(": ");
        for (int i = 0; i < rest.size(); i++) {
          then.append(i == 0 ? "" : ", ").append(fact(rest.get(i)));
          mentioned.add(rest.get(i).from());
        }
      }
      then.append(".\n");
      type = "G-single" + (d.why().seen().stream().allMatch(p -> p.kind() == EdgeKind.SO) ? "-process" : "");
      name = nameOf(d, level);
      violates = level.andStronger();
    } else {
      for (final Arc a : cycle) {
        inCycle.add(a.from());
        if (a.why() == null) {
          edges.add(edge(a));
          then.append("  - ").append(fact(a)).append(";\n");
        } else {
          final Read r = a.why().read();
          edges.add(new Edge(id(a.from()), id(a.to()), EdgeKind.WW, r.key(), lastWrite(a.from(), r.key())));
          mentioned.add(r.reader());
          then.append("  - ").append(id(a.from())).append(" must commit before ").append(id(a.to()))
              .append(", because ").append(id(r.reader())).append(" read ").append(r.key()).append('=')
              .append(r.value()).append(" from ").append(id(a.to())).append(" although it had seen ")
              .append(id(a.from())).append(" (").append(seenBy(a.why().seen())).append("), and ")
              .append(axiom(level)).append(";\n");
        }
      }
      final boolean so = cycle.stream().anyMatch(a -> a.kind() == EdgeKind.SO);
      type = derived == 0 ? "G1c" + (so ? "-process" : "") : "G2-item";
      if (derived == 0) {
        // A read from a later transaction of one's own session: SO one way, WR back.
        name = so && cycle.size() == 2 ? "SessionGuaranteeViolation" : null;
        final Set<Level> all = java.util.EnumSet.allOf(Level.class);
        if (so) {
          all.remove(Level.PL2); // Adya's levels have no session order
          all.remove(Level.RR);
        }
        violates = all;
      } else {
        // Several derived orders from one reader that read each writer directly: it saw parts of each.
        final Set<Integer> readers = new java.util.HashSet<>();
        boolean direct = true;
        for (final Arc a : cycle) {
          if (a.why() != null) {
            readers.add(a.why().read().reader());
            direct &= a.why().seen().size() == 1;
          }
        }
        name = readers.size() == 1 && direct ? (level == Level.RC ? "NonMonotonicRead" : "FracturedRead") : null;
        violates = level.andStronger();
      }
    }
    final LinkedHashSet<Integer> all = new LinkedHashSet<>(inCycle);
    all.addAll(mentioned);
    all.remove(INIT);
    inCycle.remove(INIT);
    final String let = let(all);
    final List<Transaction> txns = new ArrayList<>();
    for (final int v : inCycle) {
      txns.add(txn(v));
    }
    final String explanation = let + then.toString() + "No commit order satisfies these constraints. This violates "
        + String.join(", ", Level.strongestFirst(Level.shown(violates, requested)).stream().map(Level::name).toList()) + " (" + type
        + (name == null ? "" : ", " + name) + ")";
    return new Anomaly(type, name, Level.shown(violates, requested), txns, edges, explanation);
  }

  private Edge edge(final Arc a) {
    return new Edge(id(a.from()), id(a.to()), a.kind(), a.key(), a.value());
  }

  /** A fact arc as a sentence: session order, or a read from a writer. */
  private String fact(final Arc a) {
    return a.kind() == EdgeKind.SO
        ? id(a.from()) + " precedes " + id(a.to()) + " in session " + txn(a.to()).session()
        : id(a.to()) + " read " + a.key() + "=" + a.value() + ", which " + id(a.from()) + " wrote";
  }

  private Long lastWrite(final int node, final String key) {
    Long v = null;
    for (final Op op : txn(node).ops()) {
      if (op.isWrite() && op.key().equals(key)) {
        v = op.value();
      }
    }
    return v;
  }

  private String seenBy(final List<Arc> path) {
    final StringBuilder sb = new StringBuilder();
    for (final Arc p : path) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(p.kind() == EdgeKind.SO ? id(p.from()) + " precedes " + id(p.to()) + " in its session"
          : id(p.to()) + " read " + p.key() + "=" + p.value() + " from " + id(p.from()));
    }
    return sb.toString();
  }

  private static String axiom(final Level level) {
    return switch (level) {
      case RC -> "Read Committed orders before the writer a read returns every writer of the key that an earlier "
          + "read of the transaction read from";
      case RA -> "Read Atomic orders before the writer a read returns every writer of the key that the "
          + "transaction read from or follows in its session";
      default -> "Causal Consistency orders before the writer a read returns every writer of the key that causally "
          + "precedes the transaction (SO ∪ WR)+";
    };
  }

  /** The literature name of a one-derived-arc cycle. */
  private static String nameOf(final Arc a, final Level level) {
    final List<Arc> seen = a.why().seen();
    if (seen.stream().allMatch(p -> p.kind() == EdgeKind.SO)) {
      return "SessionGuaranteeViolation";
    }
    if (seen.size() > 1) {
      return "CausalityViolation";
    }
    return level == Level.RC ? "NonMonotonicRead" : "FracturedRead";
  }
}
