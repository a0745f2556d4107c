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

  /** Whether the history satisfies the level (SSER, SER or SI). */
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
      final boolean ok = level == Level.SI ? o.snapshot(runs) : o.serial(runs, level == Level.SSER);
      if (ok) {
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
    for (final int p : sessionPreds.get(i)) {
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
