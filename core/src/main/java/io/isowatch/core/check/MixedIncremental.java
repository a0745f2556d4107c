package io.isowatch.core.check;

import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@link Level#MIXED} decided one transaction at a time, for the histories {@link MixedChains}
 * decides in linear time: committed transactions with unique values, every write a
 * read-modify-write, no lost update (no two writers read one version). Then each key's writers form
 * one chain fixed by WR, and MIXED holds exactly when the local checks of {@link MixedChains} pass
 * and SO ∪ WR with the SER and PC arcs is acyclic (docs/levels.md, "Mixed levels", step 0). Each of
 * those is decided when its last transaction arrives:
 *
 * <ul>
 *   <li>a transaction is taken once its writers (the transactions whose values it read) are taken
 *       (until then it waits, as do the later transactions of its session), so every transaction it
 *       read from, every session predecessor and its whole causal past are known when it is taken:
 *       its RC, RA and CC checks, which look only at those, are final then;
 *   <li>the arcs of a read of x from t1 go to the writer n after t1 in x's chain: added when the
 *       reader is taken if n is known (a stale read: an arc back in arrival order), else when n is;
 *   <li>cycles are found as the arcs arrive by a dynamic topological order (Pearce and Kelly, "A
 *       dynamic topological sort algorithm for directed acyclic graphs", JEA 2007): an arc that
 *       agrees with the order costs nothing, one that does not searches only the nodes between its
 *       ends.
 * </ul>
 *
 * A violation found stays: every later transaction only adds transactions, reads and session order
 * to the history it was found in (the earlier one is a sub-history, {@link WeakGraph#sub}), as long
 * as no value that was read is written a second time (that makes the read's writer unknown, and
 * the whole check may then lift the violation or say UNKNOWN). A value written twice that nobody
 * read changes nothing decided so far: the check goes on, and goes off only if it is read later.
 * Anything outside these histories turns this check {@link State#OFF} with a reason (a blind write,
 * a lost update, a read value written again, a transaction that is not committed, an undeclared
 * level, a transaction earlier in its session than one already taken); its caller then decides by
 * {@link MixedLevelCheck} over the whole history, as before.
 */
public final class MixedIncremental {
  /** What this check says. */
  public enum State {
    /** Every taken transaction's promise holds; none is waiting. */
    SATISFIED,
    /** No commit order exists for the taken transactions (so none for any history extending them). */
    VIOLATED,
    /** Some transaction waits for a writer: the whole check answers (a read without a writer yet). */
    WAITING,
    /** Outside the histories decided here ({@link #offReason}). */
    OFF
  }

  private static final int INIT = 0;
  /** In {@link #values}: a value written more than once, whose reads have no known writer. */
  private static final int AMBIGUOUS = -2;
  private static final int SER_LIKE = 1;
  private static final int PC_LIKE = 2;
  /** Above this many vector-clock entries (nodes × sessions), off (as {@link MixedChains#MAX_CLOCK_ENTRIES}). */
  static final long MAX_CLOCK_ENTRIES = MixedChains.MAX_CLOCK_ENTRIES;

  private final Long initialValue;
  private final Function<Transaction, Level> levelOf;
  private String off;
  /** Whether the check went off only for an order it cannot take (rebuilt in session order, it may be on). */
  private boolean offByOrder;
  private int violatedAt = -1;
  private int given;

  private final Map<String, Integer> keyIds = new HashMap<>();
  /** Per key id: value to the node whose last write of the key it is, or -1 (aborted, overwritten in its transaction). */
  private final List<Map<Long, Integer>> values = new ArrayList<>();
  /** (writer node, key id) to the writer that read that version, and to its place in the key's chain (INIT: 0). */
  private final Map<Long, Integer> child = new HashMap<>();
  private final Map<Long, Integer> position = new HashMap<>();
  /** (writer node, key id) to the nodes that read that version. */
  private final Map<Long, IntList> readers = new HashMap<>();

  private final Map<Integer, Session> sessions = new HashMap<>();
  private final List<Waiting> waiting = new ArrayList<>();

  // Nodes 1..n: level, session, place in the session, session predecessor, external reads.
  private int n;
  private Level[] level = new Level[64];
  private int[] sessionOf = new int[64];
  private int[] place = new int[64];
  private int[] soPred = new int[64];
  private int[][] readWriter = new int[64][];
  private int[][] readKey = new int[64][];
  private int[][] clock = new int[64][];
  private long clockEntries;

  // The arcs and the dynamic topological order.
  private IntList[] out = new IntList[64];
  private IntList[] in = new IntList[64];
  private int[] ord = new int[64];
  private int[] mark = new int[64];
  private int stamp;
  private int nextOrd;

  private static final class Session {
    final int index;
    int last;
    long lastRank = Long.MIN_VALUE;
    int size;
    int waiting;
    /** Key id to the highest place in its chain a taken member of the session wrote. */
    final Map<Integer, Integer> highest = new HashMap<>();

    Session(final int index) {
      this.index = index;
    }
  }

  private record Waiting(Transaction txn, int session) {}

  /**
   * @param initialValue the value every key holds before any write (a read of it reads the initial transaction)
   * @param levelOf each transaction's declared level, or null when it has none usable
   */
  public MixedIncremental(final Long initialValue, final Function<Transaction, Level> levelOf) {
    this.initialValue = initialValue;
    this.levelOf = levelOf;
  }

  /** The state after the transactions given so far. */
  public State state() {
    if (off != null) {
      return State.OFF;
    }
    if (violatedAt >= 0) {
      return State.VIOLATED;
    }
    return waiting.isEmpty() ? State.SATISFIED : State.WAITING;
  }

  /** Why the check is {@link State#OFF}, or null. */
  public String offReason() {
    return off;
  }

  /** Whether it went off only because a transaction came earlier in its session than one taken. */
  public boolean offByOrder() {
    return off != null && offByOrder;
  }

  /** How many transactions had been given when the violation was found, or -1. */
  public int violatedAt() {
    return violatedAt;
  }

  /** Takes the next transaction (any status), of session {@code session} at {@code rank} in it. */
  public void add(final Transaction t, final int session, final long rank) {
    given++;
    if (off != null) {
      return;
    }
    final Session s = sessions.computeIfAbsent(session, x -> new Session(sessions.size()));
    if (t.status() == TxnStatus.ABORTED) {
      // Not counted; its values are known, so that a read of one is a read no level allows (the whole check's).
      final String why = register(t, -1);
      if (why != null) {
        off(why, false);
      }
      return;
    }
    if (t.status() != TxnStatus.COMMITTED) {
      off("transaction " + t.id() + " has no known outcome (counted only when read from)", false);
      return;
    }
    if (rank <= s.lastRank) {
      off("transaction " + t.id() + " came after a later transaction of its session", true);
      return;
    }
    s.lastRank = rank;
    if (s.waiting > 0 || !ready(t)) {
      s.waiting++;
      waiting.add(new Waiting(t, session));
      return;
    }
    take(t, s);
    retryWaiting();
  }

  private void retryWaiting() {
    boolean progress = true;
    while (progress && off == null && !waiting.isEmpty()) {
      progress = false;
      // In arrival order, and a session's members in its order: the first waiting one of each session.
      final Map<Integer, Boolean> blocked = new HashMap<>();
      for (int i = 0; i < waiting.size() && off == null; i++) {
        final Waiting w = waiting.get(i);
        if (blocked.containsKey(w.session())) {
          continue;
        }
        if (ready(w.txn())) {
          waiting.remove(i--);
          final Session s = sessions.get(w.session());
          s.waiting--;
          take(w.txn(), s);
          progress = true;
        } else {
          blocked.put(w.session(), true);
        }
      }
    }
  }

  /** Whether every value {@code t} reads from another transaction has its writer taken. */
  private boolean ready(final Transaction t) {
    final List<Op> ops = t.ops();
    for (int j = 0; j < ops.size(); j++) {
      final Op op = ops.get(j);
      if (op.isRead() && !writtenIn(ops, 0, j, op.key()) && !isInitial(op.value())) {
        final Integer k = keyIds.get(op.key());
        if (k == null || !values.get(k).containsKey(op.value())) {
          return false;
        }
      }
    }
    return true;
  }

  private boolean isInitial(final Long value) {
    return value == null ? initialValue == null : value.equals(initialValue);
  }

  private void take(final Transaction t, final Session s) {
    final Level l = levelOf.apply(t);
    if (l == null || !Level.MIXABLE.contains(l)) {
      off("transaction " + t.id() + " declares no level IsoWatch can mix", false);
      return;
    }
    // Reads first: the writer each external read saw.
    final List<Op> ops = t.ops();
    final IntList rw = new IntList(4);
    final IntList rk = new IntList(4);
    for (int j = 0; j < ops.size(); j++) {
      final Op op = ops.get(j);
      if (op.isAppend() || op.isListRead()) {
        off("transaction " + t.id() + " has list operations", false);
        return;
      }
      if (op.isWrite() || writtenIn(ops, 0, j, op.key())) {
        continue;
      }
      final int k = keyId(op.key());
      final int w = isInitial(op.value()) ? INIT : values.get(k).get(op.value());
      if (w < 0) {
        off("transaction " + t.id() + " read " + op.key() + "=" + op.value() + (w == AMBIGUOUS
            ? ", a value written more than once (NON_UNIQUE_WRITE)" : ", a value no transaction committed last"), false);
        return;
      }
      rw.add(w);
      rk.add(k);
    }
    // Writes: each a read-modify-write of one version nobody else followed.
    final List<Integer> writtenKeys = new ArrayList<>(2);
    final IntList parents = new IntList(2);
    for (int j = 0; j < ops.size(); j++) {
      final Op op = ops.get(j);
      if (!op.isWrite() || writtenIn(ops, 0, j, op.key())) {
        continue;
      }
      final int k = keyId(op.key());
      int parent = -1;
      for (int i = 0; i < rk.size(); i++) {
        if (rk.get(i) == k) {
          if (parent >= 0 && parent != rw.get(i)) {
            off("transaction " + t.id() + " read two versions of " + op.key() + " before writing it", false);
            return;
          }
          parent = rw.get(i);
        }
      }
      if (parent < 0 || !readFirst(ops, op.key())) {
        off("transaction " + t.id() + " writes " + op.key() + " without reading it first (a blind write)", false);
        return;
      }
      if (child.containsKey(version(parent, k))) {
        off("two transactions read the same version of " + op.key() + " and wrote it (a lost update)", false);
        return;
      }
      writtenKeys.add(k);
      parents.add(parent);
    }
    final int node = n + 1;
    final String why = register(t, node);
    if (why != null) {
      off(why, false);
      return;
    }
    n = node;
    grow(node);
    level[node] = l;
    sessionOf[node] = s.index;
    place[node] = ++s.size;
    soPred[node] = s.last;
    s.last = node;
    readWriter[node] = rw.toArray();
    readKey[node] = rk.toArray();
    out[node] = new IntList(2);
    in[node] = new IntList(2);
    ord[node] = nextOrd++;
    clock(node);
    if (soPred[node] > 0) {
      arc(soPred[node], node);
    }
    for (int i = 0; i < rw.size(); i++) {
      if (rw.get(i) != INIT) {
        arc(rw.get(i), node);
      }
    }
    for (int i = 0; i < rw.size(); i++) {
      localChecks(node, s, i);
      final Integer next = child.get(version(rw.get(i), rk.get(i)));
      if (next != null) {
        readArcs(node, next); // a stale read: the next writer came first
      }
      readers.computeIfAbsent(version(rw.get(i), rk.get(i)), v -> new IntList(2)).add(node);
    }
    for (int i = 0; i < writtenKeys.size(); i++) {
      final int k = writtenKeys.get(i);
      final long v = version(parents.get(i), k);
      child.put(v, node);
      final int at = position.getOrDefault(v, 0) + 1;
      position.put(version(node, k), at);
      final IntList rs = readers.get(v);
      for (int j = 0; rs != null && j < rs.size(); j++) {
        if (rs.get(j) != node) {
          readArcs(rs.get(j), node);
        }
      }
    }
    for (final int k : writtenKeys) {
      s.highest.merge(k, position.get(version(node, k)), Math::max);
    }
  }

  /**
   * The arcs of a read by {@code reader} whose version {@code next} overwrote: SER, the reader before
   * it; PC and SI, each direct SO ∪ WR predecessor of the reader before it; CC, it must not precede
   * the reader causally.
   */
  private void readArcs(final int reader, final int next) {
    final int kind = kind(level[reader]);
    if (kind == SER_LIKE) {
      arc(reader, next);
    } else if (kind == PC_LIKE) {
      if (soPred[reader] > 0) {
        arc(soPred[reader], next);
      }
      for (final int w : readWriter[reader]) {
        if (w != INIT) {
          arc(w, next);
        }
      }
    } else if (level[reader] == Level.CC && before(next, reader)) {
      violated();
    }
  }

  private static int kind(final Level l) {
    return l == Level.SER ? SER_LIKE : l == Level.PC || l == Level.SI ? PC_LIKE : 0;
  }

  /** RC: a writer of the key after the one read among the earlier reads'; RA: among every read's and the session's. */
  private void localChecks(final int node, final Session s, final int i) {
    final Level l = level[node];
    if (l != Level.RC && l != Level.RA) {
      return;
    }
    final int t1 = readWriter[node][i];
    final int k = readKey[node][i];
    final int from = t1 == INIT ? 0 : position.get(version(t1, k));
    final int upTo = l == Level.RC ? i : readWriter[node].length;
    for (int j = 0; j < upTo; j++) {
      final int w = readWriter[node][j];
      final Integer p = w == INIT || w == node ? null : position.get(version(w, k));
      if (p != null && p > from) {
        violated();
        return;
      }
    }
    if (l == Level.RA && s.highest.getOrDefault(k, 0) > from) {
      violated();
    }
  }

  /** Whether {@code a} precedes {@code b} in (SO ∪ WR)+ (by {@code b}'s vector clock). */
  private boolean before(final int a, final int b) {
    final int[] c = clock[b];
    final int si = sessionOf[a];
    return si < c.length && c[si] >= place[a];
  }

  private void clock(final int node) {
    final int[] c = new int[sessions.size()];
    if (soPred[node] > 0) {
      max(c, clock[soPred[node]]);
    }
    for (final int w : readWriter[node]) {
      if (w != INIT) {
        max(c, clock[w]);
      }
    }
    c[sessionOf[node]] = place[node];
    clock[node] = c;
    clockEntries += c.length;
    if (clockEntries > MAX_CLOCK_ENTRIES) {
      off("vector clocks of more than " + MAX_CLOCK_ENTRIES + " entries", false);
    }
  }

  private static void max(final int[] into, final int[] c) {
    for (int i = 0; i < c.length; i++) {
      into[i] = Math.max(into[i], c[i]);
    }
  }

  /** Adds arc {@code u -> v} and keeps the order topological; a cycle is a violation. */
  private void arc(final int u, final int v) {
    if (u == v) {
      violated();
      return;
    }
    out[u].add(v);
    in[v].add(u);
    if (ord[u] < ord[v] || violatedAt >= 0) {
      return;
    }
    final int lb = ord[v];
    final int ub = ord[u];
    stamp++;
    final IntList forward = new IntList();
    if (search(v, ub, true, forward, u)) {
      violated();
      return;
    }
    final IntList backward = new IntList();
    search(u, lb, false, backward, -1);
    reorder(backward, forward);
  }

  /** Depth-first from {@code from} along arcs (forward: ord ≤ bound; backward: ord ≥ bound); true on reaching {@code target}. */
  private boolean search(final int from, final int bound, final boolean forwards, final IntList seen, final int target) {
    final IntList stack = new IntList();
    stack.add(from);
    mark[from] = forwards ? stamp : -stamp;
    while (stack.size() > 0) {
      final int x = stack.removeLast();
      seen.add(x);
      final IntList next = forwards ? out[x] : in[x];
      for (int i = 0; i < next.size(); i++) {
        final int y = next.get(i);
        if (y == target) {
          return true;
        }
        final int m = forwards ? stamp : -stamp;
        if (mark[y] != m && (forwards ? ord[y] <= bound : ord[y] >= bound)) {
          mark[y] = m;
          stack.add(y);
        }
      }
    }
    return false;
  }

  /** The backward set before the forward set, in the places both held, each in its own order. */
  private void reorder(final IntList backward, final IntList forward) {
    final int[] b = sortedByOrd(backward);
    final int[] f = sortedByOrd(forward);
    final int[] places = new int[b.length + f.length];
    for (int i = 0; i < b.length; i++) {
      places[i] = ord[b[i]];
    }
    for (int i = 0; i < f.length; i++) {
      places[b.length + i] = ord[f[i]];
    }
    Arrays.sort(places);
    for (int i = 0; i < b.length; i++) {
      ord[b[i]] = places[i];
    }
    for (int i = 0; i < f.length; i++) {
      ord[f[i]] = places[b.length + i];
    }
  }

  private int[] sortedByOrd(final IntList nodes) {
    final long[] keyed = new long[nodes.size()];
    for (int i = 0; i < keyed.length; i++) {
      keyed[i] = ((long) ord[nodes.get(i)] << 32) | nodes.get(i);
    }
    Arrays.sort(keyed);
    final int[] outNodes = new int[keyed.length];
    for (int i = 0; i < keyed.length; i++) {
      outNodes[i] = (int) keyed[i];
    }
    return outNodes;
  }

  private void violated() {
    if (violatedAt < 0) {
      violatedAt = given;
    }
  }

  private void off(final String why, final boolean byOrder) {
    off = why;
    offByOrder = byOrder;
  }

  /** Records {@code t}'s last writes of each key as {@code node}'s (-1: not readable); the reason when a value repeats. */
  private String register(final Transaction t, final int node) {
    final List<Op> ops = t.ops();
    for (int j = 0; j < ops.size(); j++) {
      final Op op = ops.get(j);
      if (!op.isWrite()) {
        continue;
      }
      final int k = keyId(op.key());
      final Integer prior = values.get(k).get(op.value());
      if (isInitial(op.value()) || prior != null && prior >= 0 && readers.containsKey(version(prior, k))) {
        return "a value of " + op.key() + " that was read is written again (NON_UNIQUE_WRITE): the writer the read "
            + "saw is no longer known";
      }
      if (prior != null) {
        // Nobody read it yet: nothing decided so far depends on it; a read of it will turn this check off.
        values.get(k).put(op.value(), AMBIGUOUS);
        continue;
      }
      values.get(k).put(op.value(), node >= 0 && !writtenIn(ops, j + 1, ops.size(), op.key()) ? node : -1);
    }
    return null;
  }

  private int keyId(final String key) {
    final Integer k = keyIds.get(key);
    if (k != null) {
      return k;
    }
    keyIds.put(key, values.size());
    values.add(new HashMap<>());
    return values.size() - 1;
  }

  private static long version(final int writer, final int key) {
    return ((long) writer << 32) | key;
  }

  private static boolean readFirst(final List<Op> ops, final String key) {
    for (final Op op : ops) {
      if (op.key().equals(key)) {
        return op.isRead();
      }
    }
    return false;
  }

  private static boolean writtenIn(final List<Op> ops, final int from, final int to, final String key) {
    for (int j = from; j < to; j++) {
      final Op op = ops.get(j);
      if (op.isWrite() && op.key().equals(key)) {
        return true;
      }
    }
    return false;
  }

  private void grow(final int node) {
    if (node < level.length) {
      return;
    }
    final int size = level.length * 2;
    level = Arrays.copyOf(level, size);
    sessionOf = Arrays.copyOf(sessionOf, size);
    place = Arrays.copyOf(place, size);
    soPred = Arrays.copyOf(soPred, size);
    readWriter = Arrays.copyOf(readWriter, size);
    readKey = Arrays.copyOf(readKey, size);
    clock = Arrays.copyOf(clock, size);
    out = Arrays.copyOf(out, size);
    in = Arrays.copyOf(in, size);
    ord = Arrays.copyOf(ord, size);
    mark = Arrays.copyOf(mark, size);
  }
}
