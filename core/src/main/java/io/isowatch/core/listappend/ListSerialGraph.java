package io.isowatch.core.listappend;

import io.isowatch.core.check.RealTime;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * SER and SSER on a list-append history decided on the graph the lists give, over int arrays,
 * without the register translation (issue 14, item 5): the fast path of {@link ListAppendCheck},
 * which runs the engine on the translation only when this graph has a cycle (to explain it) or
 * when the history is outside what is decided here.
 *
 * <ul>
 *   <li>WW: the appender of an element → the appender of the next one in the key's order; the
 *       appender of the order's last element → every committed append no read shows;
 *   <li>WR: the appender of a list's last element → the reader of that list;
 *   <li>RW: the reader of a list → the appender of the element after its last one, or, for a
 *       read of the whole order, → every committed append no read shows;
 *   <li>SO: each committed transaction → the session's next committed one (by seq when every
 *       transaction of the session has one, else in input order);
 *   <li>RT (SSER only): T1 → T2 when T1 ends (plus the skew tolerance) before T2 starts, encoded
 *       through a chain of one node per end time, so that it costs O(n log n).
 * </ul>
 *
 * These are the pairs the translation gives the engine (its read before each append adds the WW
 * pair as WR, and the RW to the append itself; an unobserved append's certain edges are the ones
 * above), so the graph is acyclic exactly when the engine finds SER (with RT: SSER) satisfied on
 * the translation; {@code ListAppendFastPathTest} compares the two on random histories. Applies
 * only to histories where nothing else decides a level: every transaction committed or aborted,
 * no register op, every element a committed transaction appended at most once, every element of
 * every order appended by a committed transaction, and every read of a key the transaction also
 * appends to consistent with its own appends; {@link #acyclic} returns null otherwise.
 */
final class ListSerialGraph {
  /** Every arc but RW (SO, WR, WW, and RT through the end-time nodes). */
  private final IntList from = new IntList(1 << 12);
  private final IntList to = new IntList(1 << 12);
  /** The RW arcs, apart: SI tells them from the others. */
  private final IntList rwFrom = new IntList(1 << 12);
  private final IntList rwTo = new IntList(1 << 12);
  /** Per key with several appends no read shows, those appends (SI orders them, {@link #siAcyclic}). */
  private final List<IntList> openAppends = new java.util.ArrayList<>();
  /**
   * Per key, its committed appends no read shows, counted in history order as {@link
   * RegisterTranslation} counts them (every transaction here is committed or aborted, so counted
   * means committed); and the committed transactions with an op on a key with several of them.
   */
  private final Map<String, Integer> unobserved = new HashMap<>();
  private final java.util.BitSet touchingOpen = new java.util.BitSet();
  private int edges;
  /** The committed transactions (the others are aborted here) and the sessions, for the statistics. */
  private long committed;
  private int sessions;
  private long longRmw;
  private long largeReadOnly;

  private ListSerialGraph() {}

  /**
   * What {@link #acyclic} found: whether the graph has no cycle; whether it has no cycle SI forbids
   * (only looked for when asked and the graph has a cycle, else equal to {@code acyclic}); its
   * edges (SO, WR, WW, RW), and the committed transactions the translation makes long
   * read-modify-write ones and large read-only ones ({@link io.isowatch.core.check.CheckStats}),
   * counted as the engine counts them.
   */
  record Outcome(boolean acyclic, boolean siAcyclic, long edges, long longRmwTransactions,
      long largeReadOnlyTransactions, RegisterTranslation.OpenAppends open, long committed, int sessions) {}

  /** One key's appenders: at each position of its order, the appender's index; and the unobserved ones. */
  private static final class KeyAppends {
    final ListOrders.KeyOrder order;
    final int[] at;
    final IntList open = new IntList(2);

    KeyAppends(final ListOrders.KeyOrder order) {
      this.order = order;
      this.at = new int[order.order().size()];
      java.util.Arrays.fill(at, -1);
    }
  }

  /**
   * Whether the lists' graph, with real-time order when {@code realTime}, is acyclic; null when
   * the history is outside what this class decides (see the class comment).
   */
  static Outcome acyclic(final History history, final ListOrders orders, final boolean realTime,
      final long skewMicros) {
    return decide(history, orders, realTime, skewMicros, false);
  }

  /**
   * As {@link #acyclic}; with {@code si} (and not {@code realTime}) and a cycle in the graph, also
   * whether the graph has a cycle SI forbids ({@link #siAcyclic}).
   */
  static Outcome decide(final History history, final ListOrders orders, final boolean realTime,
      final long skewMicros, final boolean si) {
    final ListSerialGraph g = new ListSerialGraph();
    if (!g.build(history, orders, realTime, skewMicros)) {
      return null;
    }
    final boolean acyclic = g.acyclic(history.size(), realTime);
    final boolean siAcyclic = acyclic || si && !realTime && g.siAcyclic(history.transactions());
    return new Outcome(acyclic, siAcyclic, g.edges, g.longRmw, g.largeReadOnly,
        new RegisterTranslation.OpenAppends(g.unobserved, g.touchingOpen), g.committed, g.sessions);
  }

  /** A WW, WR or SO arc. */
  private void arc(final int f, final int t) {
    if (f != t) {
      from.add(f);
      to.add(t);
      edges++;
    }
  }

  /** An RW arc. */
  private void antiArc(final int f, final int t) {
    if (f != t) {
      rwFrom.add(f);
      rwTo.add(t);
      edges++;
    }
  }

  private boolean build(final History history, final ListOrders orders, final boolean realTime, final long skew) {
    final List<Transaction> txns = history.transactions();
    final int n = txns.size();
    // What the graph keeps per key, by the key's number (ListOrders.Slot): no string lookup per op
    final KeyAppends[] keys = new KeyAppends[orders.slotCount()];
    final List<KeyAppends> appended = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      final Transaction t = txns.get(i);
      if (t.status() == TxnStatus.UNKNOWN) {
        return false;
      }
      if (t.status() != TxnStatus.COMMITTED) {
        continue;
      }
      final List<Op> ops = t.ops();
      for (int o = 0; o < ops.size(); o++) {
        final Op op = ops.get(o);
        if (op.isAppend()) {
          final ListOrders.Slot slot = orders.slot(i, o);
          KeyAppends k = keys[slot.id];
          if (k == null) {
            k = new KeyAppends(orders.of(slot));
            keys[slot.id] = k;
            appended.add(k);
          }
          final int at = orders.position(i, o);
          if (at < 0) {
            k.open.add(i);
            unobserved.merge(op.key(), 1, Integer::sum);
          } else if (k.at[at] >= 0) {
            return false; // appended twice
          } else {
            k.at[at] = i;
          }
        } else if (!(op.isListRead() || op.isRead() && op.value() == null)) {
          return false; // a register op
        }
      }
    }
    for (final ListOrders.KeyOrder order : orders.keys()) {
      if (!order.incompatible().isEmpty() || !order.duplicates().isEmpty()) {
        return false;
      }
      final ListOrders.Slot slot = orders.slotOf(order.key());
      final KeyAppends k = slot == null ? null : keys[slot.id];
      if (k == null ? !order.order().isEmpty() : k.order != order) {
        return false;
      }
    }
    for (final KeyAppends k : appended) {
      final int[] at = k.at;
      for (int p = 0; p < at.length; p++) {
        if (at[p] < 0) {
          return false; // an element no committed transaction appended
        }
        if (p > 0) {
          arc(at[p - 1], at[p]);
        }
      }
      if (at.length > 0) {
        for (int j = 0; j < k.open.size(); j++) {
          arc(at[at.length - 1], k.open.get(j));
        }
      }
      if (k.open.size() > 1) {
        openAppends.add(k.open);
      }
    }
    for (int i = 0; i < n; i++) {
      final Transaction t = txns.get(i);
      if (t.status() != TxnStatus.COMMITTED) {
        continue;
      }
      final List<Op> ops = t.ops();
      int reads = 0;
      int writes = 0;
      for (int o = 0; o < ops.size(); o++) {
        final Op op = ops.get(o);
        final ListOrders.Slot slot = orders.slot(i, o);
        final KeyAppends k = keys[slot.id];
        if (k != null && k.open.size() > 1) {
          touchingOpen.set(i);
        }
        // The translation's ops (RegisterTranslation): a stand-in key when several appends no read shows
        final boolean standIn = k != null && k.open.size() > 1 && k.at.length > 0;
        if (op.isAppend()) {
          writes++;
          final int at = orders.position(i, o);
          if (!touchedBefore(orders, i, o) && (at >= 0 || k.open.size() == 1)) {
            reads++; // the read of the version it builds on
          }
          if (standIn && at == k.at.length - 1) {
            reads++; // the base's appender reads the stand-in key's initial version
          }
          continue;
        }
        final int len = op.isListRead() ? op.elements().size() : 0;
        final int size = k == null ? orders.of(slot).order().size() : k.at.length;
        reads += standIn && len == size ? 2 : 1;
        if (!ownAppendsConsistent(orders, i, ops, o, len, k)) {
          return false;
        }
        if (k == null) {
          continue; // a key nobody committed an append to: only reads of the empty list
        }
        if (len > 0) {
          arc(k.at[len - 1], i);
        }
        if (len < size) {
          antiArc(i, k.at[len]);
        } else {
          for (int j = 0; j < k.open.size(); j++) {
            antiArc(i, k.open.get(j));
          }
        }
      }
      if (writes > 0 && reads + writes > 4) {
        longRmw++;
      } else if (writes == 0 && reads > 2) {
        largeReadOnly++;
      }
    }
    sessionOrder(txns, orders);
    if (realTime && !realTime(txns, skew)) {
      return false;
    }
    return true;
  }

  /**
   * True when the read at {@code o}, of {@code len} elements, shows the transaction's own earlier
   * appends to the key and none of its later ones (otherwise the engine judges the read against
   * the transaction's own writes, which this graph does not model).
   */
  private static boolean ownAppendsConsistent(final ListOrders orders, final int txn, final List<Op> ops, final int o,
      final int len, final KeyAppends k) {
    final ListOrders.Slot key = orders.slot(txn, o);
    for (int j = 0; j < ops.size(); j++) {
      final Op other = ops.get(j);
      if (j == o || !other.isAppend() || orders.slot(txn, j) != key) {
        continue;
      }
      final int at = k == null ? -1 : orders.position(txn, j);
      if (j < o ? at < 0 || at >= len : at >= 0 && at < len) {
        return false;
      }
    }
    return true;
  }

  /** True when an op before {@code o} is on the same key. */
  private static boolean touchedBefore(final ListOrders orders, final int txn, final int o) {
    final ListOrders.Slot key = orders.slot(txn, o);
    for (int j = 0; j < o; j++) {
      if (orders.slot(txn, j) == key) {
        return true;
      }
    }
    return false;
  }

  private void sessionOrder(final List<Transaction> txns, final ListOrders orders) {
    // the sessions numbered once (ListOrders), in order of first appearance: their members bucketed by number
    final int n = txns.size();
    final int[] sessionOf = orders.sessionOf();
    final int count = orders.sessionCount();
    final int[] start = new int[count + 1];
    final boolean[] someWithoutSeq = new boolean[count];
    // seqs and statuses copied in input order, so that the walks by session below read arrays
    final long[] seqs = new long[n];
    final java.util.BitSet committed = new java.util.BitSet(n);
    for (int i = 0; i < n; i++) {
      final Transaction t = txns.get(i);
      start[sessionOf[i] + 1]++;
      if (!t.hasSeq()) {
        someWithoutSeq[sessionOf[i]] = true;
      }
      seqs[i] = t.seq();
      if (t.status() == TxnStatus.COMMITTED) {
        committed.set(i);
      }
    }
    for (int s = 0; s < count; s++) {
      start[s + 1] += start[s];
    }
    final int[] members = new int[n];
    final int[] fill = java.util.Arrays.copyOf(start, count);
    for (int i = 0; i < n; i++) {
      members[fill[sessionOf[i]]++] = i;
    }
    this.committed = committed.cardinality();
    this.sessions = count;
    for (int s = 0; s < count; s++) {
      final int[] sorted = java.util.Arrays.copyOfRange(members, start[s], start[s + 1]);
      if (!someWithoutSeq[s] && !inSeqOrder(seqs, sorted)) {
        final Integer[] boxed = new Integer[sorted.length];
        for (int j = 0; j < sorted.length; j++) {
          boxed[j] = sorted[j];
        }
        java.util.Arrays.sort(boxed, (a, b) -> Long.compare(seqs[a], seqs[b]));
        for (int j = 0; j < sorted.length; j++) {
          sorted[j] = boxed[j];
        }
      }
      int prev = -1;
      for (final int i : sorted) {
        if (committed.get(i)) {
          if (prev >= 0) {
            arc(prev, i);
          }
          prev = i;
        }
      }
    }
  }

  /**
   * True when the session's transactions, in input order, have non-decreasing seqs: the order a
   * stable sort by seq would give, so the sort (boxed) is skipped, as it is for nearly every history.
   */
  private static boolean inSeqOrder(final long[] seqs, final int[] members) {
    for (int j = 1; j < members.length; j++) {
      if (seqs[members[j - 1]] > seqs[members[j]]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Real-time order through nodes {@code n..2n-1}: node {@code n + j} stands for the j-th
   * committed end in time order; the transaction of that end → it → node {@code n + j + 1}, and
   * it → every transaction starting more than the skew after that end. False when some committed
   * transaction's times are not usable (the engine then has a finding of it).
   */
  private boolean realTime(final List<Transaction> txns, final long skew) {
    final int n = txns.size();
    final long[] ends = new long[n];
    final int[] byEnd = new int[n];
    int m = 0;
    final int[] packed = new int[n];
    for (int i = 0; i < n; i++) {
      final Transaction t = txns.get(i);
      if (t.status() != TxnStatus.COMMITTED) {
        continue;
      }
      if (!RealTime.known(t) || !RealTime.endUsable(t)) {
        return false;
      }
      packed[m++] = i;
    }
    final int[] order = byEnd(txns, packed, m);
    for (int j = 0; j < m; j++) {
      byEnd[j] = order[j];
      ends[j] = txns.get(order[j]).end();
      from.add(byEnd[j]);
      to.add(n + j);
      if (j + 1 < m) {
        from.add(n + j);
        to.add(n + j + 1);
      }
    }
    for (int j = 0; j < m; j++) {
      final int i = byEnd[j];
      final long start = txns.get(i).start();
      // the last end e with e + skew < start
      int lo = 0;
      int hi = m - 1;
      int found = -1;
      while (lo <= hi) {
        final int mid = (lo + hi) >>> 1;
        if (ends[mid] + skew < start) {
          found = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      if (found >= 0) {
        from.add(n + found);
        to.add(i);
      }
    }
    return true;
  }

  /**
   * The first {@code m} of {@code members} sorted by end time, ties in their given order (as a
   * stable sort gives them). When the ends span less than what the bits left by the indices hold
   * (2^42 microseconds, 50 days, for a million transactions), each is sorted as one long, end
   * offset above index: no box and no comparator per comparison.
   */
  static int[] byEnd(final List<Transaction> txns, final int[] members, final int m) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int j = 0; j < m; j++) {
      final long end = txns.get(members[j]).end();
      min = Math.min(min, end);
      max = Math.max(max, end);
    }
    final int indexBits = 32 - Integer.numberOfLeadingZeros(Math.max(1, m));
    final int[] out = new int[m];
    if (m > 0 && max - min >= 0 && max - min < 1L << (62 - indexBits)) {
      final long[] keys = new long[m];
      for (int j = 0; j < m; j++) {
        keys[j] = (txns.get(members[j]).end() - min) << indexBits | j;
      }
      java.util.Arrays.sort(keys);
      final long mask = (1L << indexBits) - 1;
      for (int j = 0; j < m; j++) {
        out[j] = members[(int) (keys[j] & mask)];
      }
      return out;
    }
    final Integer[] boxed = new Integer[m];
    for (int j = 0; j < m; j++) {
      boxed[j] = members[j];
    }
    java.util.Arrays.sort(boxed, (a, b) -> Long.compare(txns.get(a).end(), txns.get(b).end()));
    for (int j = 0; j < m; j++) {
      out[j] = boxed[j];
    }
    return out;
  }

  /** Kahn's algorithm over the arcs, RW ones included: true when every node is removed (no cycle). */
  private boolean acyclic(final int n, final boolean realTime) {
    final int nodes = realTime ? 2 * n : n;
    final int d = from.size();
    final int arcs = d + rwFrom.size();
    final int[] tails = new int[arcs];
    final int[] heads = new int[arcs];
    for (int a = 0; a < d; a++) {
      tails[a] = from.get(a);
      heads[a] = to.get(a);
    }
    for (int a = d; a < arcs; a++) {
      tails[a] = rwFrom.get(a - d);
      heads[a] = rwTo.get(a - d);
    }
    return kahn(nodes, tails, heads);
  }

  /**
   * Whether no cycle of the graph is one SI forbids: SI forbids every cycle of (SO ∪ WR ∪ WW) ;
   * RW?, i.e. every cycle in which no two RW arcs are adjacent (MTC Def. 5, docs/anomalies.md).
   * Decided on a doubled graph: node {@code v} is "at v", node {@code n + v} "at v, arrived by an
   * arc other than RW"; each such arc u → v gives u → v and u → n + v, each RW arc v → w gives
   * n + v → w, and n + v → v. A closed walk of the doubled graph is one of the graph in which
   * every RW arc follows another arc, and back, so the doubled graph is acyclic exactly when SI
   * forbids no cycle. The appends no read shows of a key with several are ordered by their end
   * times (their input order when some has none), one candidate of the orders SI leaves open (a
   * first-committer-wins database orders them so): acyclic means some version order satisfies SI,
   * so SI holds; a cycle says nothing about the other orders (false: the caller decides as before).
   */
  private boolean siAcyclic(final List<Transaction> txns) {
    final int n = txns.size();
    final IntList chainFrom = new IntList();
    final IntList chainTo = new IntList();
    for (final IntList open : openAppends) {
      final Integer[] sorted = new Integer[open.size()];
      boolean timed = true;
      for (int j = 0; j < sorted.length; j++) {
        sorted[j] = open.get(j);
        timed &= txns.get(sorted[j]).end() != Transaction.NO_TIME;
      }
      if (timed) {
        java.util.Arrays.sort(sorted, (a, b) -> a.equals(b) ? 0 : txns.get(a).end() != txns.get(b).end()
            ? Long.compare(txns.get(a).end(), txns.get(b).end()) : Integer.compare(a, b));
      } else {
        java.util.Arrays.sort(sorted);
      }
      for (int j = 1; j < sorted.length; j++) {
        if (!sorted[j - 1].equals(sorted[j])) { // one transaction's several appends: no arc to itself
          chainFrom.add(sorted[j - 1]);
          chainTo.add(sorted[j]);
        }
      }
    }
    final int d = from.size() + chainFrom.size();
    final int arcs = 2 * d + rwFrom.size() + n;
    final int[] tails = new int[arcs];
    final int[] heads = new int[arcs];
    int a = 0;
    for (int j = 0; j < d; j++) {
      final int f = j < from.size() ? from.get(j) : chainFrom.get(j - from.size());
      final int t = j < from.size() ? to.get(j) : chainTo.get(j - from.size());
      tails[a] = f;
      heads[a++] = t;
      tails[a] = f;
      heads[a++] = n + t;
    }
    for (int j = 0; j < rwFrom.size(); j++) {
      tails[a] = n + rwFrom.get(j);
      heads[a++] = rwTo.get(j);
    }
    for (int v = 0; v < n; v++) {
      tails[a] = n + v;
      heads[a++] = v;
    }
    return kahn(2 * n, tails, heads);
  }

  /** Kahn's algorithm: true when every node is removed (no cycle). */
  private static boolean kahn(final int nodes, final int[] tails, final int[] heads) {
    final int arcs = tails.length;
    final int[] start = new int[nodes + 1];
    final int[] indegree = new int[nodes];
    for (int a = 0; a < arcs; a++) {
      start[tails[a] + 1]++;
      indegree[heads[a]]++;
    }
    for (int v = 0; v < nodes; v++) {
      start[v + 1] += start[v];
    }
    final int[] targets = new int[arcs];
    final int[] fill = java.util.Arrays.copyOf(start, nodes);
    for (int a = 0; a < arcs; a++) {
      targets[fill[tails[a]]++] = heads[a];
    }
    final int[] queue = new int[nodes];
    int head = 0;
    int tail = 0;
    for (int v = 0; v < nodes; v++) {
      if (indegree[v] == 0) {
        queue[tail++] = v;
      }
    }
    while (head < tail) {
      final int v = queue[head++];
      for (int a = start[v]; a < start[v + 1]; a++) {
        if (--indegree[targets[a]] == 0) {
          queue[tail++] = targets[a];
        }
      }
    }
    return tail == nodes;
  }
}
