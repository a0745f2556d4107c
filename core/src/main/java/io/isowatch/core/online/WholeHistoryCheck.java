package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.FindingMessages;
import io.isowatch.core.debug.DebugTimings;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.listappend.ListAppendCheck;
import io.isowatch.core.solve.BlindWriteDecision;
import java.util.ArrayList;
import java.util.List;

/**
 * A whole history through the streaming engine ({@code isowatch check}, {@code bench}, the
 * agent's end-of-run summary; {@link OnlineChecker#check} is the same entry point). It keeps the
 * first of transactions sharing an id (the others become DUPLICATE_TXN_ID findings) and takes
 * session order from seq when every transaction of the session has one, from the source order
 * otherwise. Then it sorts by π ({@link PiOrder}: transactions without times last, the sessions
 * interleaved by rank), gives every transaction to the engine's parts (the {@link
 * Sequencer} and the {@link SegmentedEngine}) with an unbounded grace period and no events, and
 * flushes: the result equals what a stream of the same history reports after its flush.
 *
 * <p>A transaction whose time lies more than {@link OnlineOptions#DEFAULT_FUTURE_MICROS} ahead of
 * every other session's ({@link FarAheadEvents}) has a clock that cannot be trusted: as in the
 * topology (docs/streaming.md, "No false positive from time") it is a FUTURE_EVENT_TIME finding,
 * its start counts as unknown and its end as the latest trusted time of the history, so it moves
 * nothing and no real-time order leads to it; its reads and writes are checked as any
 * transaction's.
 *
 * <p>Knowing the whole history, it makes reads of values written more than once unattributed
 * from the start, as a flush does for what is buffered (see docs/streaming-design.md). Values are
 * unique in valid histories, so it first runs declaring none and runs again declaring them only
 * if the engine saw a value written twice: the result is the same as always declaring them, and
 * the usual case pays nothing.
 *
 * <p>Then, when blind writes left SSER, SER or SI open, {@link BlindWriteDecision} searches the
 * version orders within {@link CheckOptions#solverBudget()} (issue 14, item 3), and decides PL2,
 * RC, RA and CC left open by a value written twice by cases of writers.
 */
public final class WholeHistoryCheck {
  private WholeHistoryCheck() {}

  /** The result of checking the whole history (seconds: the time this call took). */
  public static CheckResult check(final History history, final CheckOptions options) {
    return check(history, options, OnlineOptions.DEFAULT_FUTURE_MICROS);
  }

  /**
   * As {@link #check(History, CheckOptions)}, flagging times more than {@code futureMicros} ahead of
   * every other session's ({@link OnlineOptions#UNBOUNDED}: none).
   */
  public static CheckResult check(final History history, final CheckOptions options, final long futureMicros) {
    if (ListAppendCheck.isListAppend(history)) {
      // Its translation has no appends and no list reads, so it comes back through the path below.
      return ListAppendCheck.check(history, options);
    }
    final long started = System.nanoTime();
    DebugTimings.mark("whole-history check: start");
    final List<Transaction> unique = new ArrayList<>(history.size());
    final List<Transaction> duplicates = new ArrayList<>();
    final StringIntMap ids = new StringIntMap(history.size());
    for (final Transaction t : history.transactions()) {
      if (ids.putIfAbsent(t.id(), 0)) {
        unique.add(t);
      } else {
        duplicates.add(t);
      }
    }
    final List<String> farAhead = untrustedClocks(unique, futureMicros);
    final long[] rank = ranks(unique);
    final int[] order = piOrder(unique, rank);
    DebugTimings.mark("whole-history check: ids, ranks and order done");
    SegmentedEngine run = run(unique, duplicates, farAhead, rank, order, options, null);
    if (run.state().repeats.seen()) {
      run = run(unique, duplicates, farAhead, rank, order, options, RepeatedValues.of(unique));
    }
    DebugTimings.mark("whole-history check: engine done");
    final CheckResult engine = run.engine().result((System.nanoTime() - started) / 1e9);
    DebugTimings.mark("whole-history check: result built");
    // Levels left open by blind writes are searched (issue 14); MT histories never reach the search.
    final CheckResult decided = BlindWriteDecision.decideWhole(history, options, engine);
    return decided == engine ? engine : withSeconds(decided, (System.nanoTime() - started) / 1e9);
  }

  /**
   * True when {@link #check(History, CheckOptions)} would find some transaction's clock far ahead
   * of every other session's (a FUTURE_EVENT_TIME finding); the list-append check asks before it
   * runs the engine on part of a history ({@code ListAppendCheck}), the in-order feed before it
   * keeps its bet ({@link InOrderFeed}).
   */
  public static boolean hasUntrustedClocks(final List<Transaction> transactions) {
    return FarAheadEvents.find(transactions, OnlineOptions.DEFAULT_FUTURE_MICROS).count() > 0;
  }

  /**
   * As {@link #hasUntrustedClocks(List)}, with the sessions numbered by the caller ({@code
   * session[i]}: transaction i's, numbered 0, 1, ... in order of first appearance; {@code sessions}
   * of them).
   */
  public static boolean hasUntrustedClocks(final List<Transaction> transactions, final int[] session,
      final int sessions) {
    return FarAheadEvents.find(transactions, OnlineOptions.DEFAULT_FUTURE_MICROS, session, sessions).count() > 0;
  }

  /** The result with the seconds of the whole check, the search included. */
  static CheckResult withSeconds(final CheckResult r, final double seconds) {
    return new CheckResult(r.verdicts(), r.reasons(), r.anomalies(), r.findings(), r.stats().withSeconds(seconds));
  }

  /**
   * Replaces, in {@code unique}, each transaction far ahead of the other sessions by the same
   * transaction without a start and ending at the latest trusted time; returns their findings'
   * messages, in list order, for each run to report.
   */
  private static List<String> untrustedClocks(final List<Transaction> unique, final long futureMicros) {
    if (futureMicros == OnlineOptions.UNBOUNDED) {
      return List.of();
    }
    final FarAheadEvents.Found found = FarAheadEvents.find(unique, futureMicros);
    if (found.count() == 0) {
      return List.of();
    }
    final List<String> messages = new ArrayList<>(2 * found.count());
    for (int i = 0; i < unique.size(); i++) {
      if (!found.flagged()[i]) {
        continue;
      }
      final Transaction t = unique.get(i);
      messages.add(t.id());
      messages.add("transaction " + t.id() + " reports times (start " + t.start() + " µs, end " + t.end()
          + " µs) more than " + futureMicros + " µs ahead of every other session's latest time ("
          + found.reference()[i] + " µs); its clock is not trusted: it is checked as ending at the latest trusted time"
          + " of the history (" + found.trustedLatest() + " µs) and its start is treated as unknown, so no real-time"
          + " order leads to it");
      unique.set(i, new Transaction(t.id(), t.session(), t.seq(), t.status(), Transaction.NO_TIME,
          found.trustedLatest() == Long.MIN_VALUE ? Transaction.NO_TIME : found.trustedLatest(), t.ops(), t.tenant(),
          t.level(), t.line()));
    }
    return messages;
  }

  private static SegmentedEngine run(final List<Transaction> unique, final List<Transaction> duplicates,
      final List<String> farAhead, final long[] rank, final int[] order, final CheckOptions options,
      final RepeatedValues repeated) {
    final SegmentedEngine segments =
        new SegmentedEngine(new Sequencer(), new OnlineState(options, OnlineOptions.batch(), unique.size()));
    for (final Transaction t : duplicates) {
      segments.state().counters.countInput();
      segments.engine().out.finding(FindingKind.DUPLICATE_TXN_ID, null, t, FindingMessages.duplicateTxnId(t.id()));
    }
    final java.util.Map<String, Transaction> byId = new java.util.HashMap<>();
    if (!farAhead.isEmpty()) {
      unique.forEach(t -> byId.put(t.id(), t));
    }
    for (int i = 0; i < farAhead.size(); i += 2) {
      segments.engine().out.finding(FindingKind.FUTURE_EVENT_TIME, null, byId.get(farAhead.get(i)),
          farAhead.get(i + 1));
      segments.state().futureEventTime(farAhead.get(i));
    }
    segments.state().repeats.declareWholeHistory(repeated);
    for (final int i : order) {
      segments.admit(unique.get(i), rank[i]);
    }
    DebugTimings.mark("whole-history check: admitted");
    segments.flush();
    return segments;
  }

  /** Positions in {@code unique} in π order ({@link PiOrder}), given each one's rank in its session. */
  static int[] piOrder(final List<Transaction> unique, final long[] rank) {
    final int n = unique.size();
    final long[] end = new long[n];
    final int[] order = new int[n];
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < n; i++) {
      end[i] = TxnIndex.timeKey(unique.get(i));
      order[i] = i;
      if (end[i] != TxnIndex.NO_END) {
        min = Math.min(min, end[i]);
        max = Math.max(max, end[i]);
      }
    }
    final IndexSort.IntComparator pi = (a, b) -> {
      int c = Long.compare(end[a], end[b]);
      if (c != 0) {
        return c;
      }
      final Transaction ta = unique.get(a);
      final Transaction tb = unique.get(b);
      if (end[a] == TxnIndex.NO_END) {
        // No times: round-robin over the sessions, as PiOrder orders them.
        c = Long.compare(rank[a], rank[b]);
        if (c == 0) {
          c = ta.session().compareTo(tb.session());
        }
        return c != 0 ? c : ta.id().compareTo(tb.id());
      }
      c = ta.session().compareTo(tb.session());
      if (c != 0) {
        return c;
      }
      c = Long.compare(rank[a], rank[b]);
      return c != 0 ? c : ta.id().compareTo(tb.id());
    };
    final int indexBits = 32 - Integer.numberOfLeadingZeros(Math.max(1, n));
    final long span = min > max ? 0 : max - min + 1;
    if (span >= 0 && 64 - Long.numberOfLeadingZeros(span + 1) + indexBits <= 63) {
      // A primitive sort of (end - min, index) packed in a long, then ties broken by π proper:
      // ten times faster than a comparator sort on a million transactions.
      final long[] packed = new long[n];
      for (int i = 0; i < n; i++) {
        final long key = end[i] == TxnIndex.NO_END ? span : end[i] - min;
        packed[i] = (key << indexBits) | i;
      }
      java.util.Arrays.sort(packed);
      final long mask = (1L << indexBits) - 1;
      for (int i = 0; i < n; i++) {
        order[i] = (int) (packed[i] & mask);
      }
      int runStart = 0;
      for (int i = 1; i <= n; i++) {
        if (i == n || end[order[i]] != end[order[runStart]]) {
          if (end[order[runStart]] != TxnIndex.NO_END || !sortTimeless(order, runStart, i, rank, unique)) {
            IndexSort.sort(order, runStart, i, pi);
          } else {
            sortTies(order, runStart, i, rank, unique, pi);
          }
          runStart = i;
        }
      }
    } else {
      IndexSort.sort(order, n, pi);
    }
    return order;
  }

  /**
   * Sorts {@code order[from, to)}, transactions without times, by rank and session name as π does,
   * with a primitive sort of (rank, the session name's place among the names, position) packed in a
   * long: a comparator sort of a timeless history's 250K transactions compared session names some
   * four million times. False, leaving {@code order} as it was, when the three do not fit in 63 bits.
   * Ties of rank and session (repeated seq numbers) are left in position order for {@link #sortTies}.
   */
  private static boolean sortTimeless(final int[] order, final int from, final int to, final long[] rank,
      final List<Transaction> unique) {
    final int n = to - from;
    final java.util.TreeMap<String, Integer> names = new java.util.TreeMap<>();
    long minRank = Long.MAX_VALUE;
    long maxRank = Long.MIN_VALUE;
    for (int i = from; i < to; i++) {
      names.put(unique.get(order[i]).session(), 0);
      minRank = Math.min(minRank, rank[order[i]]);
      maxRank = Math.max(maxRank, rank[order[i]]);
    }
    final long rankSpan = maxRank - minRank + 1;
    final int indexBits = 32 - Integer.numberOfLeadingZeros(Math.max(1, n));
    final int sessionBits = 32 - Integer.numberOfLeadingZeros(Math.max(1, names.size()));
    if (rankSpan <= 0 || 64 - Long.numberOfLeadingZeros(rankSpan) + sessionBits + indexBits > 63) {
      return false;
    }
    int place = 0;
    for (final java.util.Map.Entry<String, Integer> e : names.entrySet()) {
      e.setValue(place++);
    }
    final long[] packed = new long[n];
    for (int i = 0; i < n; i++) {
      final int t = order[from + i];
      final long session = names.get(unique.get(t).session());
      packed[i] = ((((rank[t] - minRank) << sessionBits) | session) << indexBits) | i;
    }
    java.util.Arrays.sort(packed);
    final int[] was = java.util.Arrays.copyOfRange(order, from, to);
    final long mask = (1L << indexBits) - 1;
    for (int i = 0; i < n; i++) {
      order[from + i] = was[(int) (packed[i] & mask)];
    }
    return true;
  }

  /** Sorts by {@code pi} each run of {@code order[from, to)} that shares a rank and a session. */
  private static void sortTies(final int[] order, final int from, final int to, final long[] rank,
      final List<Transaction> unique, final IndexSort.IntComparator pi) {
    int runStart = from;
    for (int i = from + 1; i <= to; i++) {
      if (i == to || rank[order[i]] != rank[order[runStart]]
          || !unique.get(order[i]).session().equals(unique.get(order[runStart]).session())) {
        if (i - runStart > 1) {
          IndexSort.sort(order, runStart, i, pi);
        }
        runStart = i;
      }
    }
  }

  /**
   * Each transaction's rank in its session: its seq when all of the session's have one, as the
   * stream ranks it ({@link Sequencer}), else its position in source order. Seq numbers with gaps
   * keep their gaps: π interleaves transactions without times by rank, so ranking them by position
   * would process them, and name cycles, otherwise than a stream of the same history.
   */
  static long[] ranks(final List<Transaction> txns) {
    final StringIntMap sessionIds = new StringIntMap(64);
    final List<IntList> members = new ArrayList<>();
    final List<Boolean> allSeq = new ArrayList<>();
    for (int i = 0; i < txns.size(); i++) {
      final Transaction t = txns.get(i);
      int s = sessionIds.get(t.session());
      if (s < 0) {
        s = members.size();
        sessionIds.putNew(t.session(), s);
        members.add(new IntList(16));
        allSeq.add(Boolean.TRUE);
      }
      members.get(s).add(i);
      if (!t.hasSeq()) {
        allSeq.set(s, Boolean.FALSE);
      }
    }
    final long[] rank = new long[txns.size()];
    for (int s = 0; s < members.size(); s++) {
      final IntList m = members.get(s);
      final int[] idx = m.toArray();
      for (int r = 0; r < idx.length; r++) {
        rank[idx[r]] = allSeq.get(s) ? txns.get(idx[r]).seq() : r;
      }
    }
    return rank;
  }
}
