package io.isowatch.core.oracle;

import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A deliberately naive decision procedure for list-append histories, written from the operational
 * definitions and independent of the engine and of any dependency graph: it runs the transactions
 * against an in-memory store of lists in every admissible schedule and asks whether one of them
 * returns exactly the lists the history read.
 *
 * <ul>
 *   <li>SER: some serial order, respecting session order, in which every read of every committed
 *       transaction returns the list as it is then (with the transaction's own earlier appends).
 *   <li>SSER: the same, respecting real-time order too ({@code T1.end + skew < T2.start}).
 *   <li>SI: some interleaving of start and commit events, respecting session order (a transaction
 *       starts after its session predecessor committed), in which every read returns the list of
 *       the snapshot at its transaction's start plus its own appends, and no two transactions
 *       whose start-to-commit intervals overlap both append to one key (first committer wins).
 *   <li>RR (Adya's PL-2.99 on histories without predicates: PL-3 without session order): some
 *       serial order, ignoring session order and real time, as for SER.
 *   <li>PL2 (Adya's PL-2: no aborted, intermediate or circular reads): some commit order,
 *       ignoring session order and real time, that applies each transaction's appends at its
 *       commit, in which every read returns a list the store held after some commit before its
 *       transaction's (or the empty list); a read that follows its transaction's own appends to the
 *       key reads the version the transaction installs (Adya: a transaction reads its own writes),
 *       whose list is the store's just before its commit followed by those appends.
 *   <li>RC, RA, CC and PC (the axioms of Biswas-Enea, paper 002, with appends as blind writes of
 *       their element): some commit order of the transactions that run, extending session order,
 *       such that every read of a key returns the list the store holds right after the commit of
 *       some transaction t1 earlier in the order that appended the list's last element (the empty
 *       list: the initial version), followed by the reader's own earlier appends to the key; and,
 *       for every other transaction t2 that appended the key, t2 commits before t1 when t2 is a
 *       transaction an earlier read of the reader read from (RC), any read of the reader read from
 *       or a session predecessor of the reader (RA), a predecessor of the reader in (SO ∪ WR)+
 *       (CC), or a transaction that commits before or is some t4 with t4 (SO ∪ WR) reader (PC).
 * </ul>
 *
 * <p>Aborted transactions never run; an indeterminate one may run or not. Exponential by design:
 * meant for histories of at most six transactions.
 */
public final class ListAppendOracle {
  private final List<Transaction> txns;
  /** For each transaction, every earlier one of its session (session order is transitive, also across one that does not run). */
  private final List<List<Integer>> sessionPreds = new ArrayList<>();
  private final long skew;
  /** False for RR: Adya's graph has no session order. */
  private boolean sessions = true;

  private ListAppendOracle(final List<Transaction> txns, final long skew) {
    this.txns = txns;
    this.skew = skew;
    final Map<String, List<Integer>> earlier = new HashMap<>();
    for (int i = 0; i < txns.size(); i++) {
      final List<Integer> before = earlier.computeIfAbsent(txns.get(i).session(), k -> new ArrayList<>());
      sessionPreds.add(List.copyOf(before));
      before.add(i);
    }
  }

  /** Whether the history satisfies the level (SSER, SER, SI, RR or PL2). */
  public static boolean holds(final History history, final Level level, final long skewMicros) {
    final List<Transaction> candidates = new ArrayList<>();
    for (final Transaction t : history.transactions()) {
      if (t.status() != TxnStatus.ABORTED) {
        candidates.add(t);
      }
    }
    if (candidates.size() > 6) {
      throw new IllegalArgumentException("too many transactions for the list-append oracle: " + candidates.size());
    }
    final ListAppendOracle o = new ListAppendOracle(candidates, skewMicros);
    final int n = candidates.size();
    // Each indeterminate transaction may or may not have taken effect.
    final List<Integer> unknown = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (candidates.get(i).status() == TxnStatus.UNKNOWN) {
        unknown.add(i);
      }
    }
    for (int mask = 0; mask < 1 << unknown.size(); mask++) {
      final boolean[] runs = new boolean[n];
      java.util.Arrays.fill(runs, true);
      for (int b = 0; b < unknown.size(); b++) {
        runs[unknown.get(b)] = (mask & (1 << b)) != 0;
      }
      o.sessions = level != Level.RR;
      final boolean ok = level == Level.SI ? o.snapshot(runs) : level == Level.PL2 ? o.committedReads(runs)
          : AXIOMATIC.contains(level) ? o.axiomatic(runs, level) : o.serial(runs, level == Level.SSER);
      if (ok) {
        return true;
      }
    }
    return false;
  }

  private static final java.util.Set<Level> AXIOMATIC = java.util.EnumSet.of(Level.RC, Level.RA, Level.CC, Level.PC);

  // ---- axiomatic levels (RC, RA, CC, PC) ----------------------------------------------------------

  private boolean axiomatic(final boolean[] runs, final Level level) {
    final List<Integer> running = new ArrayList<>();
    for (int i = 0; i < txns.size(); i++) {
      if (runs[i]) {
        running.add(i);
      }
    }
    return axiomOrders(running, new ArrayList<>(), new boolean[txns.size()], level);
  }

  private boolean axiomOrders(final List<Integer> running, final List<Integer> order, final boolean[] used,
      final Level level) {
    if (order.size() == running.size()) {
      return axiomsHold(order, level);
    }
    for (final int i : running) {
      if (!used[i] && sessionPreds.get(i).stream().allMatch(p -> used[p] || !running.contains(p))) {
        used[i] = true;
        order.add(i);
        final boolean ok = axiomOrders(running, order, used, level);
        order.remove(order.size() - 1);
        used[i] = false;
        if (ok) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * In the commit order {@code order}: every read's writer (position in the order, -1 initial) is
   * the transaction whose commit left the list it read (less the reader's own appends), it commits
   * before the reader, and the level's axiom holds for it.
   */
  private boolean axiomsHold(final List<Integer> order, final Level level) {
    final int n = order.size();
    final List<Map<String, List<Long>>> after = new ArrayList<>(); // after.get(p): the store after order[p]
    Map<String, List<Long>> store = new HashMap<>();
    for (final int i : order) {
      final Map<String, List<Long>> next = new HashMap<>(store);
      for (final Op op : txns.get(i).ops()) {
        if (op.isAppend()) {
          final List<Long> list = new ArrayList<>(next.getOrDefault(op.key(), List.of()));
          list.add(op.value());
          next.put(op.key(), list);
        }
      }
      after.add(next);
      store = next;
    }
    // Per position: each read's key and writer position; a read whose writer is not found fails.
    final List<List<Object[]>> reads = new ArrayList<>();
    for (int p = 0; p < n; p++) {
      final Transaction t = txns.get(order.get(p));
      final List<Object[]> mine = new ArrayList<>();
      final Map<String, List<Long>> own = new HashMap<>();
      for (final Op op : t.ops()) {
        if (op.isAppend()) {
          own.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op.value());
          continue;
        }
        final List<Long> read = op.isListRead() ? op.elements() : op.value() == null ? List.of() : null;
        final List<Long> mineAppended = own.getOrDefault(op.key(), List.of());
        if (read == null || read.size() < mineAppended.size()
            || !read.subList(read.size() - mineAppended.size(), read.size()).equals(mineAppended)) {
          return false;
        }
        final List<Long> external = read.subList(0, read.size() - mineAppended.size());
        int writer = -2;
        if (external.isEmpty()) {
          writer = -1;
        } else {
          for (int q = 0; q < p; q++) {
            if (appends(txns.get(order.get(q)), op.key(), external.get(external.size() - 1))
                && after.get(q).getOrDefault(op.key(), List.of()).equals(external)) {
              writer = q;
            }
          }
        }
        if (writer == -2) {
          return false;
        }
        mine.add(new Object[] {op.key(), writer});
      }
      reads.add(mine);
    }
    // Direct predecessors in SO ∪ WR, and their closure, by position.
    final boolean[][] direct = new boolean[n][n];
    for (int p = 0; p < n; p++) {
      for (final int s : sessionPreds.get(order.get(p))) {
        final int q = order.indexOf(s);
        if (q >= 0) {
          direct[q][p] = true;
        }
      }
      for (final Object[] r : reads.get(p)) {
        if ((Integer) r[1] >= 0) {
          direct[(Integer) r[1]][p] = true;
        }
      }
    }
    final boolean[][] causal = new boolean[n][n];
    for (int p = 0; p < n; p++) { // positions are a topological order of direct (it is in the commit order)
      for (int q = 0; q < p; q++) {
        if (direct[q][p]) {
          causal[q][p] = true;
          for (int u = 0; u < q; u++) {
            causal[u][p] |= causal[u][q];
          }
        }
      }
    }
    for (int p = 0; p < n; p++) {
      final List<Object[]> rs = reads.get(p);
      for (int i = 0; i < rs.size(); i++) {
        final String x = (String) rs.get(i)[0];
        final int t1 = (Integer) rs.get(i)[1];
        for (int t2 = 0; t2 < n; t2++) {
          if (t2 == t1 || t2 == p || !appendsKey(txns.get(order.get(t2)), x)) {
            continue;
          }
          final boolean premise;
          switch (level) {
            case RC -> premise = readFrom(rs, 0, i, t2);
            case RA -> premise = readFrom(rs, 0, rs.size(), t2) || sessionPreds.get(order.get(p)).contains(order.get(t2));
            case CC -> premise = causal[t2][p];
            default -> {
              boolean some = false;
              for (int t4 = 0; t4 < n; t4++) {
                some |= direct[t4][p] && t2 <= t4;
              }
              premise = some;
            }
          }
          if (premise && !(t2 < t1)) {
            return false;
          }
        }
      }
    }
    return true;
  }

  private static boolean readFrom(final List<Object[]> reads, final int from, final int to, final int writer) {
    for (int j = from; j < to; j++) {
      if ((Integer) reads.get(j)[1] == writer) {
        return true;
      }
    }
    return false;
  }

  private static boolean appends(final Transaction t, final String key, final Long element) {
    for (final Op op : t.ops()) {
      if (op.isAppend() && op.key().equals(key) && op.value().equals(element)) {
        return true;
      }
    }
    return false;
  }

  private static boolean appendsKey(final Transaction t, final String key) {
    for (final Op op : t.ops()) {
      if (op.isAppend() && op.key().equals(key)) {
        return true;
      }
    }
    return false;
  }

  // ---- serial schedules ------------------------------------------------------------------------

  private boolean serial(final boolean[] runs, final boolean realTime) {
    final boolean[] done = new boolean[txns.size()];
    for (int i = 0; i < txns.size(); i++) {
      done[i] = !runs[i];
    }
    return serialFrom(done, new HashMap<>(), realTime);
  }

  private boolean serialFrom(final boolean[] done, final Map<String, List<Long>> store, final boolean realTime) {
    boolean all = true;
    for (int i = 0; i < txns.size(); i++) {
      if (done[i]) {
        continue;
      }
      all = false;
      if (!ready(i, done, realTime)) {
        continue;
      }
      final Map<String, List<Long>> after = run(txns.get(i), store, store);
      if (after == null) {
        continue;
      }
      done[i] = true;
      final boolean ok = serialFrom(done, after, realTime);
      done[i] = false;
      if (ok) {
        return true;
      }
    }
    return all;
  }

  /** Session predecessor (if it runs) done; with real time, every transaction that ended before this one started done too. */
  private boolean ready(final int i, final boolean[] done, final boolean realTime) {
    for (final int p : sessions ? sessionPreds.get(i) : List.<Integer>of()) {
      if (!done[p]) {
        return false;
      }
    }
    if (realTime) {
      final Transaction t = txns.get(i);
      for (int j = 0; j < txns.size(); j++) {
        final Transaction u = txns.get(j);
        if (!done[j] && u.end() != Transaction.NO_TIME && t.start() != Transaction.NO_TIME
            && u.end() + skew < t.start()) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Runs {@code t}: reads against {@code snapshot} plus its own appends, appends to a copy of
   * {@code store}. Null when a read of a committed (or indeterminate) transaction differs.
   */
  private static Map<String, List<Long>> run(final Transaction t, final Map<String, List<Long>> snapshot,
      final Map<String, List<Long>> store) {
    final Map<String, List<Long>> own = new HashMap<>();
    for (final Op op : t.ops()) {
      if (op.isAppend()) {
        own.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op.value());
      } else if (op.isRead()) {
        final List<Long> seen = new ArrayList<>(snapshot.getOrDefault(op.key(), List.of()));
        seen.addAll(own.getOrDefault(op.key(), List.of()));
        final List<Long> read = op.isListRead() ? op.elements() : op.value() == null ? List.of() : null;
        if (read == null || !read.equals(seen)) {
          return null;
        }
      } else {
        throw new IllegalArgumentException("the list-append oracle does not know register writes: " + op);
      }
    }
    final Map<String, List<Long>> after = new HashMap<>(store);
    own.forEach((k, appended) -> {
      final List<Long> list = new ArrayList<>(after.getOrDefault(k, List.of()));
      list.addAll(appended);
      after.put(k, list);
    });
    return after;
  }

  // ---- committed reads (PL2) -------------------------------------------------------------------

  private boolean committedReads(final boolean[] runs) {
    final List<Integer> running = new ArrayList<>();
    for (int i = 0; i < txns.size(); i++) {
      if (runs[i]) {
        running.add(i);
      }
    }
    return commitOrders(running, new ArrayList<>(), new boolean[txns.size()]);
  }

  private boolean commitOrders(final List<Integer> running, final List<Integer> order, final boolean[] used) {
    if (order.size() == running.size()) {
      return readsCommittedStates(order);
    }
    for (final int i : running) {
      if (!used[i]) {
        used[i] = true;
        order.add(i);
        final boolean ok = commitOrders(running, order, used);
        order.remove(order.size() - 1);
        used[i] = false;
        if (ok) {
          return true;
        }
      }
    }
    return false;
  }

  /** Every read of the order's transactions returns a list held after an earlier commit, plus own appends. */
  private boolean readsCommittedStates(final List<Integer> order) {
    final List<Map<String, List<Long>>> states = new ArrayList<>();
    Map<String, List<Long>> store = new HashMap<>();
    states.add(store);
    for (final int i : order) {
      final Transaction t = txns.get(i);
      final Map<String, List<Long>> own = new HashMap<>();
      for (final Op op : t.ops()) {
        if (op.isAppend()) {
          own.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op.value());
        } else if (op.isRead()) {
          final List<Long> read = op.isListRead() ? op.elements() : op.value() == null ? List.of() : null;
          final List<Long> mine = own.getOrDefault(op.key(), List.of());
          final List<Map<String, List<Long>>> candidates = mine.isEmpty() ? states : List.of(store);
          if (read == null || !heldBefore(read, mine, op.key(), candidates)) {
            return false;
          }
        }
      }
      final Map<String, List<Long>> after = new HashMap<>(store);
      own.forEach((k, appended) -> {
        final List<Long> list = new ArrayList<>(after.getOrDefault(k, List.of()));
        list.addAll(appended);
        after.put(k, list);
      });
      store = after;
      states.add(store);
    }
    return true;
  }

  private static boolean heldBefore(final List<Long> read, final List<Long> own, final String key,
      final List<Map<String, List<Long>>> states) {
    if (read.size() < own.size() || !read.subList(read.size() - own.size(), read.size()).equals(own)) {
      return false;
    }
    final List<Long> committed = read.subList(0, read.size() - own.size());
    for (final Map<String, List<Long>> s : states) {
      if (s.getOrDefault(key, List.of()).equals(committed)) {
        return true;
      }
    }
    return false;
  }

  // ---- snapshot isolation ----------------------------------------------------------------------

  private boolean snapshot(final boolean[] runs) {
    final int n = txns.size();
    final int[] state = new int[n]; // 0 not started, 1 running, 2 committed (or does not run)
    for (int i = 0; i < n; i++) {
      state[i] = runs[i] ? 0 : 2;
    }
    return snapshotFrom(state, new HashMap<>(), new Map[n], new long[n], new long[1]);
  }

  /**
   * Depth-first over start and commit events. {@code snaps[i]} is i's snapshot; {@code started[i]}
   * the event number of its start; commits are numbered too, so that overlap is "the other
   * committed after I started".
   */
  @SuppressWarnings("unchecked")
  private boolean snapshotFrom(final int[] state, final Map<String, List<Long>> store,
      final Map<String, List<Long>>[] snaps, final long[] started, final long[] clock) {
    boolean all = true;
    for (int i = 0; i < txns.size(); i++) {
      if (state[i] == 2) {
        continue;
      }
      all = false;
      if (state[i] == 0) {
        if (sessionPreds.get(i).stream().anyMatch(p -> state[p] != 2)) {
          continue;
        }
        // Reads see the snapshot and the own appends only: check them now, at the start.
        if (run(txns.get(i), store, store) == null) {
          continue;
        }
        state[i] = 1;
        snaps[i] = store;
        started[i] = ++clock[0];
        final boolean ok = snapshotFrom(state, store, snaps, started, clock);
        clock[0]--;
        state[i] = 0;
        if (ok) {
          return true;
        }
      } else {
        if (conflicts(i, state, snaps, started)) {
          continue;
        }
        final Map<String, List<Long>> after = run(txns.get(i), snaps[i], store);
        state[i] = 2;
        committedAt.put(i, ++clock[0]);
        final boolean ok = snapshotFrom(state, after, snaps, started, clock);
        committedAt.remove(i);
        clock[0]--;
        state[i] = 1;
        if (ok) {
          return true;
        }
      }
    }
    return all;
  }

  private final Map<Integer, Long> committedAt = new HashMap<>();

  /** First committer wins: a transaction that committed after i started and appended a key i appends. */
  private boolean conflicts(final int i, final int[] state, final Map<String, List<Long>>[] snaps, final long[] started) {
    for (final Map.Entry<Integer, Long> c : committedAt.entrySet()) {
      if (c.getValue() > started[i] && sharesAppendedKey(txns.get(i), txns.get(c.getKey()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean sharesAppendedKey(final Transaction a, final Transaction b) {
    for (final Op x : a.ops()) {
      if (x.isAppend()) {
        for (final Op y : b.ops()) {
          if (y.isAppend() && y.key().equals(x.key())) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
