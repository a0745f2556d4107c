package io.isowatch.core.online;

import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.check.WeakLevelCheck;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The verdicts of {@link WeakLevelCheck} (PL2, RC, RA, CC, RR) kept up to date one released
 * transaction at a time, instead of recomputed over every retained one (docs/streaming.md, "Weak
 * levels online"). It holds the same graph as {@link io.isowatch.core.check.WeakGraph}: the
 * counted transactions as nodes, each external read with its writer, session order by rank; and
 * for each level an incrementally sorted DAG ({@link PearceKellyDag}) of that level's arcs (PL2:
 * WR; RC, RA, CC: SO, WR and the arcs the level's axiom derives; RR: Adya's certain edges, {@link
 * AdyaVersions}). Every arc is a fact of the history received so far: a transaction, a read's
 * writer or a session predecessor that arrives later only adds arcs, so a level's graph, once
 * cyclic, stays so, and a level is VIOLATED the moment the arc that closes the cycle is added.
 *
 * <p>Arcs are local to the arriving transaction and the versions around it: RC and RA pair a read
 * with the other reads of its transaction; RA adds the nearest earlier writer of the key in the
 * session ({@link RankedNodes}); CC adds, per session, the last writer of the key in the reader's
 * causal past, by vector clocks ({@link CausalClocks}) that grow forward from a late arc. A
 * transaction that arrives after its session successors makes the few scans described at {@link
 * #lateInSession}.
 *
 * <p>Where the history is not shaped as mini-transactions this class gives up ({@link #gaveUp()}),
 * and the caller falls back to the whole-history check: a value written twice (the writer of a
 * read is then not known), an indeterminate transaction (counted only once read, by a fixpoint),
 * and, when RR is decided, a transaction that reads a key twice and then writes it, whose first
 * read's writer comes after the second's. The counterexample of a violated level is
 * built by the whole-history check, when asked for (violations are rare).
 *
 * <p>Inside the engine ({@link WeakVerdicts}) it is fed each transaction as the engine releases it
 * and reads the engine's key ids and version table (who wrote a value first, whether that was its
 * last write of the key, whether the value was written again) instead of indexing the ops again;
 * standalone (tests) it keeps its own.
 */
final class IncrementalWeakCheck {
  static final int INIT = -1;
  private static final int UNRESOLVED = -2;
  private static final int NONE = RankedNodes.NONE;

  private static final int PL2 = 0;
  private static final int RC = 1;
  private static final int RA = 2;
  private static final int CC = 3;
  private static final int RR = 4;
  private static final Level[] LEVELS = {Level.PL2, Level.RC, Level.RA, Level.CC, Level.RR};

  private final Long initialValue;
  /** Per level (index above): its DAG while acyclic, null when not decided or once cyclic. */
  private final PearceKellyDag[] dags = new PearceKellyDag[LEVELS.length];
  private final boolean[] cyclic = new boolean[LEVELS.length];
  private final boolean[] decided = new boolean[LEVELS.length];
  private String gaveUp;

  // Nodes: the released transactions, by release position; only the counted ones are in the graphs.
  private Transaction[] txn = new Transaction[1024];
  private int[] session = new int[1024];
  private long[] rank = new long[1024];
  private boolean[] counted = new boolean[1024];
  /** Whether the node aborted (kept next to the graph: a read's writer is looked up here, not in its transaction). */
  private boolean[] aborted = new boolean[1024];
  /** External reads in op order: key id, value, writer (a node, INIT or UNRESOLVED). */
  private int[][] readKey = new int[1024][];
  private Long[][] readValue = new Long[1024][];
  private int[][] readWriter = new int[1024][];
  /** The keys a node writes, each once. */
  private int[][] writtenKeys = new int[1024][];
  private int nodes;

  /**
   * The engine whose state this check follows, or null (standalone: it then interns the keys and
   * indexes the written values itself). Inside the engine the key ids are the engine's and the
   * writer of a value is read from its version table, which holds every released transaction's
   * writes: nothing is indexed twice.
   */
  private final OnlineState engine;
  /** Standalone: key name → id, and the names. */
  private final StringIntMap keyIds;
  private final List<String> keyNames;
  /** Standalone: (key id, value) → (writer node << 1 | 1 when it is the writer's last write of the key). */
  private KeyValueTable writes;
  /** The key id of each op of the transaction being released. */
  private int[] opKeys = new int[16];
  /** The same for writes of null (a key deleted), by key id. */
  private final Map<Integer, Integer> nullWrites = new HashMap<>();
  /** Per key id: value → reads (node, read index pairs) waiting for its writer. */
  private final List<Map<Long, IntList>> pending = new ArrayList<>();
  /** How many reads {@link #pending} holds: nearly always none, and then a writer need not look. */
  private int pendingReads;
  /** The reads without a writer (node << 32 | read index), first first: an UNKNOWN's reason names the first. */
  private final TreeSet<Long> unresolved = new TreeSet<>();
  /** A read no level allows (FutureRead, AbortedRead, IntermediateRead); thin air is judged at the query. */
  private boolean readViolated;

  private final Map<Integer, Integer> sessionIds = new HashMap<>();
  private final List<RankedNodes> sessionMembers = new ArrayList<>();
  /** Per key id, per session: the members of the session that write the key (null: none). */
  private final List<RankedNodes[]> sessionWriters = new ArrayList<>();
  /** The same for RA when CC is not decided (no binary search needed; null otherwise). */
  private final SessionWriterChains writerChains;

  private final CausalClocks clocks;
  private final AdyaVersions adya;

  /** Standalone, fed transactions by {@link #release(Transaction, int, long)}. @param levels the weak levels to decide (others are ignored) */
  IncrementalWeakCheck(final Set<Level> levels, final Long initialValue) {
    this(levels, initialValue, null, 0);
  }

  /**
   * Following {@code engine}'s state ({@link #release(int, int[])}), or standalone when it is null.
   *
   * @param levels the weak levels to decide (others are ignored)
   * @param expected how many transactions to size the graphs for (0: grow from small)
   */
  IncrementalWeakCheck(final Set<Level> levels, final Long initialValue, final OnlineState engine,
      final int expected) {
    this.initialValue = initialValue;
    this.engine = engine;
    this.keyIds = engine == null ? new StringIntMap(1 << 10) : null;
    this.keyNames = engine == null ? new ArrayList<>() : null;
    this.writes = engine == null ? new KeyValueTable(1 << 12) : null;
    for (int l = 0; l < LEVELS.length; l++) {
      if (levels.contains(LEVELS[l])) {
        decided[l] = true;
        // SO, WR and a few derived arcs per transaction.
        dags[l] = expected > 0 ? new PearceKellyDag(expected, 4 * expected) : new PearceKellyDag();
      }
    }
    this.clocks = decided[CC] ? new CausalClocks(this) : null;
    this.writerChains = decided[RA] && !decided[CC] ? new SessionWriterChains() : null;
    this.adya = decided[RR] ? new AdyaVersions(this) : null;
  }

  /** Why the history left this class's scope (the caller then runs the whole check), or null. */
  String gaveUp() {
    return gaveUp;
  }

  /** Whether {@code level} is one this check decides. */
  static boolean decides(final Level level) {
    for (final Level l : LEVELS) {
      if (l == level) {
        return true;
      }
    }
    return false;
  }

  /** Standalone: takes the next released transaction (its release position is its node). */
  void release(final Transaction t, final int sessionId, final long rankInSession) {
    if (engine != null) {
      throw new IllegalStateException("this check follows an engine: release(slot, opKeys)");
    }
    if (gaveUp != null) {
      return;
    }
    final List<Op> ops = t.ops();
    ensureOpKeys(ops.size());
    for (int j = 0; j < ops.size(); j++) {
      opKeys[j] = keyId(ops.get(j).key());
    }
    release(t, sessionId, rankInSession, -1);
  }

  /**
   * Inside the engine: takes the engine's next released transaction, the one at this check's
   * next node (its π position), after the engine registered its writes; {@code keys[j]} is the
   * engine's key id of its op j, or {@code keys} is null (they are looked up).
   */
  void release(final int slot, final int[] keys) {
    if (gaveUp != null) {
      return;
    }
    if (engine.txns.piPos(slot) != nodes) {
      throw new IllegalStateException("slot " + slot + " released at " + engine.txns.piPos(slot) + ", expected " + nodes);
    }
    final Transaction t = engine.txns.txn(slot);
    final List<Op> ops = t.ops();
    ensureOpKeys(ops.size());
    for (int j = 0; j < ops.size(); j++) {
      opKeys[j] = keys != null ? keys[j] : engine.chains.key(ops.get(j).key());
    }
    release(t, engine.txns.session(slot), engine.txns.rank(slot), slot);
  }

  private void ensureOpKeys(final int n) {
    if (opKeys.length < n) {
      opKeys = new int[Math.max(n, 2 * opKeys.length)];
    }
  }

  /** Takes the next node; {@link #opKeys} holds its ops' key ids ({@code slot}: the engine's, or -1). */
  private void release(final Transaction t, final int sessionId, final long rankInSession, final int slot) {
    final int node = nodes++;
    grow(node);
    txn[node] = t;
    aborted[node] = t.status() == TxnStatus.ABORTED;
    rank[node] = rankInSession;
    session[node] = sessionIds.computeIfAbsent(sessionId, s -> {
      sessionMembers.add(new RankedNodes());
      return sessionMembers.size() - 1;
    });
    if (t.status() == TxnStatus.UNKNOWN) {
      giveUp("an indeterminate transaction (" + t.id() + ") counts only once read");
      return;
    }
    indexOps(node);
    if (gaveUp != null) {
      return;
    }
    if (!registerWrites(node, slot)) {
      return;
    }
    if (t.status() == TxnStatus.COMMITTED) {
      count(node);
    }
    resolveWaiting(node);
  }

  /** The verdict of {@code level} as the whole check would give it now (horizon: a cut pruned some). */
  Verdict verdict(final Level level, final boolean horizon, final boolean complete) {
    final int l = index(level);
    final boolean judgeUnresolved = !horizon && !unresolved.isEmpty();
    if (readViolated || (complete && judgeUnresolved) || cyclic[l]) {
      return Verdict.VIOLATED;
    }
    if (!complete && judgeUnresolved) {
      return Verdict.UNKNOWN;
    }
    return l == RR && adya.blindKey() >= 0 ? Verdict.UNKNOWN : Verdict.SATISFIED;
  }

  /** As {@link #verdict} with every read that has no writer left unjudged (as after a cut). */
  boolean violatedWithoutThinAir(final Level level) {
    return readViolated || cyclic[index(level)];
  }

  /** The whole check's {@link WeakLevelCheck.Result#unknownReason()}, when some level is UNKNOWN. */
  String unknownReason(final boolean horizon, final boolean complete) {
    if (!complete && !horizon && !unresolved.isEmpty()) {
      final long first = unresolved.first();
      final int node = (int) (first >>> 32);
      final int k = (int) first;
      return "a read of " + keyName(readKey[node][k]) + "=" + readValue[node][k] + " has no writer yet";
    }
    if (adya != null && adya.blindKey() >= 0) {
      return "the version order of " + keyName(adya.blindKey())
          + " is open (BLIND_WRITE), and Adya's PL-2.99 needs one; no violation is certain";
    }
    return null;
  }

  // --- The graph, as the level classes read it.

  int nodeCount() {
    return nodes;
  }

  boolean counted(final int node) {
    return counted[node];
  }

  int session(final int node) {
    return session[node];
  }

  long rank(final int node) {
    return rank[node];
  }

  int sessionCount() {
    return sessionMembers.size();
  }

  int reads(final int node) {
    return readKey[node].length;
  }

  int readKey(final int node, final int k) {
    return readKey[node][k];
  }

  int readWriter(final int node, final int k) {
    return readWriter[node][k];
  }

  int[] writtenKeys(final int node) {
    return writtenKeys[node];
  }

  boolean writes(final int node, final int key) {
    for (final int k : writtenKeys[node]) {
      if (k == key) {
        return true;
      }
    }
    return false;
  }

  /** The members of {@code sessionIndex} writing {@code key}, or null. */
  RankedNodes sessionWriters(final int sessionIndex, final int key) {
    final RankedNodes[] bySession = sessionWriters.get(key);
    return sessionIndex < bySession.length ? bySession[sessionIndex] : null;
  }

  /** Whether the graph of CC is still kept (not cyclic): the clocks are needed only then. */
  boolean ccOpen() {
    return dags[CC] != null;
  }

  void ccArc(final int from, final int to) {
    arc(CC, from, to);
  }

  void rrArc(final int from, final int to) {
    arc(RR, from, to);
  }

  // --- Building.

  private void indexOps(final int node) {
    final List<Op> ops = txn[node].ops();
    final IntList keys = new IntList(4);
    final IntList written = new IntList(2);
    final List<Long> values = new ArrayList<>(4);
    for (int j = 0; j < ops.size(); j++) {
      final Op op = ops.get(j);
      final int key = opKeys[j];
      ensureKey(key);
      if (op.isWrite()) {
        if (!contains(written, key)) {
          written.add(key);
        }
      } else if (!contains(written, key)) {
        keys.add(key);
        values.add(op.value());
      }
    }
    readKey[node] = keys.toArray();
    readValue[node] = values.toArray(new Long[0]);
    readWriter[node] = new int[keys.size()];
    Arrays.fill(readWriter[node], UNRESOLVED);
    writtenKeys[node] = written.toArray();
  }

  /**
   * Registers every write of the node (standalone; inside the engine they are in its version table
   * already); false (giving up) when a value is written a second time.
   */
  private boolean registerWrites(final int node, final int slot) {
    final List<Op> ops = txn[node].ops();
    for (int j = 0; j < ops.size(); j++) {
      final Op op = ops.get(j);
      if (!op.isWrite()) {
        continue;
      }
      final int written = node << 1 | (writtenLater(ops, j) ? 0 : 1);
      final int key = opKeys[j];
      final boolean again;
      if (op.value() == null) {
        again = nullWrites.putIfAbsent(key, written) != null;
      } else if (engine == null) {
        again = writes.putIfAbsent(key, op.value(), written) >= 0;
      } else {
        // The engine keeps the first writer of a value and marks a value written again (also by a
        // transaction released after this one, or declared ahead: then this check gives up earlier,
        // and the whole-history check it falls back to answers the same).
        final int version = engine.chains.find(key, op.value());
        again = version < 0 || engine.chains.writer(version) != slot || engine.chains.isRepeated(version);
      }
      if (again) {
        giveUp(op.key() + "=" + op.value() + " is written more than once (NON_UNIQUE_WRITE)");
        return false;
      }
    }
    return true;
  }

  private void count(final int t) {
    counted[t] = true;
    for (final PearceKellyDag dag : dags) {
      if (dag != null) {
        dag.ensureNode(t);
      }
    }
    final RankedNodes members = sessionMembers.get(session[t]);
    final int at = members.insert(rank[t], t);
    final int pred = members.nodeOrNone(at - 1);
    final int succ = members.nodeOrNone(at + 1);
    if (pred != NONE) {
      sessionArc(pred, t);
    }
    if (succ != NONE) {
      sessionArc(t, succ);
    }
    for (int i = 0; writerChains != null && dags[RA] != null && i < writtenKeys[t].length; i++) {
      writerChains.insert(writtenKeys[t][i], session[t], rank[t], t);
    }
    for (int i = 0; clocks != null && i < writtenKeys[t].length; i++) {
      final int key = writtenKeys[t][i];
      RankedNodes[] bySession = sessionWriters.get(key);
      if (session[t] >= bySession.length) {
        bySession = Arrays.copyOf(bySession, Math.max(sessionMembers.size(), session[t] + 1));
        sessionWriters.set(key, bySession);
      }
      if (bySession[session[t]] == null) {
        bySession[session[t]] = new RankedNodes();
      }
      bySession[session[t]].insert(rank[t], t);
    }
    if (adya != null) {
      adya.counted(t, txn[t].ops(), opKeys);
    }
    for (int k = 0; k < readKey[t].length; k++) {
      resolve(t, k);
      if (gaveUp != null) {
        return;
      }
    }
    if (clocks != null) {
      clocks.counted(t, pred, succ);
    }
    if (succ != NONE) {
      lateInSession(t, succ);
    }
  }

  /**
   * A transaction counted before a member of its session that was counted already: RA's arc from
   * the nearest session writer of a key changes for the later members that read a key it writes,
   * up to the next writer of that key, and CC's clocks grow forward from it, so a reader whose
   * causal past now holds it may owe it an arc ({@link CausalClocks#lateWriter}). Rare: only a
   * transaction processed out of session order.
   */
  private void lateInSession(final int p, final int succ) {
    if (dags[RA] != null) {
      final RankedNodes members = sessionMembers.get(session[p]);
      for (final int key : writtenKeys[p]) {
        int i = indexOf(members, succ);
        for (; i < members.size(); i++) {
          final int u = members.node(i);
          for (int k = 0; k < readKey[u].length; k++) {
            final int w = readWriter[u][k];
            if (readKey[u][k] == key && w != UNRESOLVED && w != p) {
              arc(RA, p, w);
            }
          }
          if (writes(u, key)) {
            break;
          }
        }
      }
    }
    if (clocks != null) {
      clocks.lateWriter(p);
    }
  }

  private static int indexOf(final RankedNodes members, final int node) {
    for (int i = 0; i < members.size(); i++) {
      if (members.node(i) == node) {
        return i;
      }
    }
    throw new IllegalStateException("node " + node + " is not in its session");
  }

  /** Resolves the reads that waited for a value the node wrote. */
  private void resolveWaiting(final int node) {
    if (pendingReads == 0) {
      return;
    }
    final List<Op> ops = txn[node].ops();
    for (int j = 0; j < ops.size(); j++) {
      final Op op = ops.get(j);
      if (!op.isWrite() || gaveUp != null) {
        continue;
      }
      final IntList waiting = pending.get(opKeys[j]).remove(op.value());
      if (waiting == null) {
        continue;
      }
      pendingReads -= waiting.size() / 2;
      for (int i = 0; i < waiting.size() && gaveUp == null; i += 2) {
        unresolved.remove((long) waiting.get(i) << 32 | waiting.get(i + 1));
        resolve(waiting.get(i), waiting.get(i + 1));
      }
    }
  }

  /** Finds the writer of read {@code k} of counted node {@code t}, as WeakGraph.writerOf does. */
  private void resolve(final int t, final int k) {
    final int key = readKey[t][k];
    final Long value = readValue[t][k];
    final int writer;
    if (Objects.equals(value, initialValue)) {
      writer = INIT;
    } else if (value == null) {
      unresolved.add((long) t << 32 | k); // a read of null where the initial value is not: no write resolves it
      return;
    } else {
      final int w = writerOf(key, value);
      if (w < 0) {
        final IntList waiting = pending.get(key).computeIfAbsent(value, v -> new IntList(2));
        waiting.add(t);
        waiting.add(k);
        pendingReads++;
        unresolved.add((long) t << 32 | k);
        return;
      }
      final int node = w >>> 1;
      if (node == t || aborted[node] || (w & 1) == 0) {
        readViolated = true; // FutureRead, AbortedRead, IntermediateRead
        return;
      }
      writer = node;
    }
    readWriter[t][k] = writer;
    read(t, k, writer);
  }

  /**
   * The writer of (key, value) among the nodes so far, as {@code node << 1 | 1 when it is the
   * writer's last write of the key}, or -1. Inside the engine: its version table's first writer of
   * the value, when that transaction is a node already (its π position is below {@link #nodes}).
   */
  private int writerOf(final int key, final long value) {
    if (engine == null) {
      return writes.get(key, value);
    }
    final int version = engine.chains.find(key, value);
    if (version < 0) {
      return -1;
    }
    final int node = engine.txns.piPos(engine.chains.writer(version));
    return node < 0 || node >= nodes ? -1 : node << 1 | (engine.chains.isFinal(version) ? 1 : 0);
  }

  /** The arcs a resolved read adds: WR, RC's and RA's pairs with the other reads, RA's session writer, RR's, CC's. */
  private void read(final int t, final int k, final int b) {
    final int key = readKey[t][k];
    boolean firstOfKey = true;
    for (int j = 0; j < readKey[t].length; j++) {
      if (j != k && readKey[t][j] == key && readWriter[t][j] != UNRESOLVED) {
        if (j > k && adya != null && writes(t, key)) {
          // RR's overwriter of a version is t's first read of the key whose writer is known; a
          // later read was that one until now, and the arcs it gave are not taken back.
          giveUp(txn[t].id() + " reads " + keyName(key) + " twice and then writes it, and the first read's "
              + "writer came later (not a mini-transaction)");
          return;
        }
        firstOfKey &= j > k;
      }
    }
    if (b != INIT) {
      arc(PL2, b, t);
      arc(RR, b, t);
      sessionArc(b, t);
    }
    if (dags[RC] != null || dags[RA] != null) {
      for (int j = 0; j < readKey[t].length; j++) {
        final int a = readWriter[t][j];
        if (j == k || a == UNRESOLVED) {
          continue;
        }
        if (a != INIT && a != b && writes(a, key)) {
          arc(RA, a, b);
          if (j < k) {
            arc(RC, a, b);
          }
        }
        if (b != INIT && b != a && writes(b, readKey[t][j])) {
          arc(RA, b, a);
          if (k < j) {
            arc(RC, b, a);
          }
        }
      }
      final int p;
      if (dags[RA] == null) {
        p = NONE;
      } else if (writerChains != null) {
        p = writerChains.lastBelow(key, session[t], rank[t]);
      } else {
        final RankedNodes writers = sessionWriters(session[t], key);
        p = writers == null ? NONE : writers.lastBelow(rank[t]);
      }
      if (p != NONE && p != b) {
        arc(RA, p, b);
      }
    }
    if (adya != null) {
      adya.read(t, key, b, firstOfKey && writes(t, key));
    }
    if (clocks != null) {
      clocks.read(t, k, b);
    }
  }

  /** SO or WR: an arc of RC's, RA's and CC's graphs. */
  private void sessionArc(final int from, final int to) {
    arc(RC, from, to);
    arc(RA, from, to);
    arc(CC, from, to);
  }

  private void arc(final int level, final int from, final int to) {
    final PearceKellyDag dag = dags[level];
    if (dag == null) {
      return;
    }
    // An arc into the initial transaction is a cycle by itself: it precedes every other.
    if (to == INIT || dag.insert(from, to, 0, 0) < 0) {
      cyclic[level] = true;
      dags[level] = null;
    }
  }

  /** Standalone: the key's id, made on first sight. */
  private int keyId(final String key) {
    final int id = keyIds.get(key);
    if (id >= 0) {
      return id;
    }
    keyIds.putNew(key, keyNames.size());
    keyNames.add(key);
    return keyNames.size() - 1;
  }

  private String keyName(final int key) {
    return engine == null ? keyNames.get(key) : engine.chains.keyName(key);
  }

  /** Makes room for key ids up to {@code key} (ids are dense: the engine's or {@link #keyId}'s). */
  private void ensureKey(final int key) {
    while (pending.size() <= key) {
      pending.add(new HashMap<>(1));
      sessionWriters.add(new RankedNodes[0]);
    }
  }

  private static int index(final Level level) {
    for (int l = 0; l < LEVELS.length; l++) {
      if (LEVELS[l] == level) {
        return l;
      }
    }
    throw new IllegalArgumentException(level + " is not decided here");
  }

  private void giveUp(final String why) {
    gaveUp = why;
    // Free what the fallback does not need.
    Arrays.fill(dags, null);
    txn = null;
    readKey = null;
    readValue = null;
    readWriter = null;
    writtenKeys = null;
    writes = null;
    pending.clear();
    sessionWriters.clear();
    sessionMembers.clear();
  }

  private void grow(final int node) {
    if (node < txn.length) {
      return;
    }
    final int n = txn.length * 2;
    txn = Arrays.copyOf(txn, n);
    session = Arrays.copyOf(session, n);
    rank = Arrays.copyOf(rank, n);
    counted = Arrays.copyOf(counted, n);
    aborted = Arrays.copyOf(aborted, n);
    readKey = Arrays.copyOf(readKey, n);
    readValue = Arrays.copyOf(readValue, n);
    readWriter = Arrays.copyOf(readWriter, n);
    writtenKeys = Arrays.copyOf(writtenKeys, n);
    if (clocks != null) {
      clocks.grow(n);
    }
  }

  private static boolean contains(final IntList list, final int v) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == v) {
        return true;
      }
    }
    return false;
  }

  private static boolean writtenLater(final List<Op> ops, final int j) {
    return writesLater(ops, j, ops.get(j).key());
  }

  private static boolean writesLater(final List<Op> ops, final int j, final String key) {
    for (int i = j + 1; i < ops.size(); i++) {
      if (ops.get(i).isWrite() && ops.get(i).key().equals(key)) {
        return true;
      }
    }
    return false;
  }
}
