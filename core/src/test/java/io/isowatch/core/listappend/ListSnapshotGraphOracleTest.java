package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.oracle.ListAppendOracle;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 5: SI decided on the lists' own graph ({@link ListSerialGraph#decide}, the cycles
 * of (SO ∪ WR ∪ WW) ; RW?) against the schedule oracle {@link ListAppendOracle} (start and commit
 * events, snapshots at start, first committer wins), on small random histories of a database that
 * takes stale snapshots and sometimes lets two concurrent appenders both commit, so that SER is
 * often violated and SI both holds and fails. Exact where no key has several appends no read shows
 * (their order is then fixed); with such a key the graph tries one order, so it may only fail to
 * decide. Other seeds and sizes by hand: {@code -Dseed=3 -Dhistories=20000}.
 */
class ListSnapshotGraphOracleTest {
  @Test
  void shouldDecideSnapshotIsolationOnTheListsGraphAsTheOracleDoes() {
    // Given: 10^4 random histories of 2-6 transactions
    final long seed = Long.getLong("seed", 14);
    final Random random = new Random(seed);
    final int count = Integer.getInteger("histories", 10_000);
    int applies = 0;
    int serCyclic = 0;
    int siHoldsWithSerCyclic = 0;
    int siViolated = 0;
    int checkDecidedOnGraph = 0;
    for (int n = 0; n < count; n++) {
      final History h = randomHistory(random);
      final ListOrders orders = ListOrders.of(h);
      final CheckOptions si = CheckOptions.defaults().withLevels(EnumSet.of(Level.SI));
      final boolean holds = ListAppendOracle.holds(h, Level.SI, 0);
      final String context = "seed " + seed + " history " + n + ", oracle SI " + holds + "\n" + HistoryDsl.format(h);
      // When: the graph alone, where it applies (no list anomaly; what ListAppendCheck asks first)
      final ListSerialGraph.Outcome g = ListAnomalies.of(h, orders, si).isEmpty()
          ? ListSerialGraph.decide(h, orders, false, 0, true) : null;
      // Then: its SI verdict is the oracle's (one way only when an order of unobserved appends was tried)
      if (g != null) {
        applies++;
        serCyclic += g.acyclic() ? 0 : 1;
        siHoldsWithSerCyclic += !g.acyclic() && g.siAcyclic() ? 1 : 0;
        siViolated += g.siAcyclic() ? 0 : 1;
        if (g.siAcyclic()) {
          assertTrue(holds, "the lists' graph has no cycle SI forbids, the oracle finds SI violated: " + context);
        } else if (!severalUnobserved(h, orders)) {
          assertTrue(!holds, "the lists' graph has a cycle SI forbids, the oracle finds SI holds: " + context);
        }
      }
      // And: the whole check asking SI alone gives the oracle's verdict, whichever path it takes
      final CheckResult r = ListAppendCheck.check(h, si);
      final Verdict v = r.verdicts().get(Level.SI);
      if (v != Verdict.UNKNOWN) {
        assertEquals(holds, v == Verdict.SATISFIED, "check gave SI " + v + ": " + context + r.anomalies());
      }
      checkDecidedOnGraph += g != null && !g.acyclic() && ListAppendCheck.decidedOnListGraph(h, si) ? 1 : 0;
    }
    System.out.println("ListSnapshotGraphOracleTest seed " + seed + ": the graph applies to " + applies + " of " + count
        + ", SER cyclic " + serCyclic + ", SI holds with SER cyclic " + siHoldsWithSerCyclic + ", SI violated "
        + siViolated + "; check decided SI on the graph with SER cyclic " + checkDecidedOnGraph);
    // And: the comparison meant something: SI held on the graph where SER did not, and failed, many times
    assertTrue(siHoldsWithSerCyclic > count / 100 && siViolated > count / 20 && checkDecidedOnGraph > count / 100,
        applies + " apply, " + siHoldsWithSerCyclic + " SI-only, " + siViolated + " SI violated, " + checkDecidedOnGraph
            + " decided by the check");
  }

  @Test
  void shouldHoldSnapshotIsolationOnAWriteSkewAndViolateItOnALostAppend() {
    // Given: write skew (each reads both keys empty, appends to one): SER violated, SI holds
    final History skew = HistoryDsl.history("""
        T1 s1 r(x,[]) r(y,[]) a(x,1) @1..5
        T2 s2 r(x,[]) r(y,[]) a(y,2) @2..6
        T3 s3 r(x,[1]) r(y,[2]) @7..8
        """);
    // And: a lost append (both read x empty, both append; a later read shows both)
    final History lost = HistoryDsl.history("""
        T1 s1 r(x,[]) a(x,1) @1..5
        T2 s2 r(x,[]) a(x,2) @2..6
        T3 s3 r(x,[1,2]) @7..8
        """);
    // And: write skew with a transaction whose two appends no read shows (an order of them is tried)
    final History skewOpen = HistoryDsl.history("""
        T1 s1 r(x,[]) r(y,[]) a(x,1) @1..5
        T2 s2 r(x,[]) r(y,[]) a(y,2) @2..6
        T3 s3 r(x,[1]) r(y,[2]) r(z,[]) @7..8
        T4 s4 a(z,7) a(z,8) @9..10
        """);
    // When
    final ListSerialGraph.Outcome g1 = ListSerialGraph.decide(skew, ListOrders.of(skew), false, 0, true);
    final ListSerialGraph.Outcome g2 = ListSerialGraph.decide(lost, ListOrders.of(lost), false, 0, true);
    // Then
    assertTrue(!g1.acyclic() && g1.siAcyclic(), "write skew: SER cycle, no SI-forbidden one");
    assertTrue(!g2.acyclic() && !g2.siAcyclic(), "lost append: WW then RW, SI-forbidden");
    assertTrue(ListAnomalyFree.holds(skew) && ListAppendCheck.decidedOnListGraph(skew,
        CheckOptions.defaults().withLevels(EnumSet.of(Level.SI))));
    assertEquals(Verdict.SATISFIED, ListAppendCheck.check(skew, CheckOptions.defaults().withLevels(EnumSet.of(Level.SI)))
        .verdicts().get(Level.SI));
    assertTrue(ListAppendCheck.decidedOnListGraph(skewOpen, CheckOptions.defaults().withLevels(EnumSet.of(Level.SI))),
        "one transaction's two unobserved appends: no arc to itself");
    assertEquals(Verdict.SATISFIED, ListAppendCheck.check(skewOpen, CheckOptions.defaults().withLevels(
        EnumSet.of(Level.SI))).verdicts().get(Level.SI));
    assertEquals(Verdict.VIOLATED, ListAppendCheck.check(lost, CheckOptions.defaults().withLevels(EnumSet.of(Level.SI)))
        .verdicts().get(Level.SI));
  }

  /** True when the history has no list anomaly. */
  private static final class ListAnomalyFree {
    static boolean holds(final History h) {
      return ListAnomalies.of(h, ListOrders.of(h), CheckOptions.defaults()).isEmpty();
    }
  }

  /** True when some key has several committed appends no read shows. */
  private static boolean severalUnobserved(final History h, final ListOrders orders) {
    final Map<String, Integer> open = new HashMap<>();
    for (final Transaction t : h.transactions()) {
      if (t.status() != TxnStatus.COMMITTED) {
        continue;
      }
      for (final Op op : t.ops()) {
        if (op.isAppend() && orders.of(op.key()).position(op.value()) < 0) {
          open.merge(op.key(), 1, Integer::sum);
        }
      }
    }
    return open.values().stream().anyMatch(c -> c > 1);
  }

  /**
   * A random execution of 2-6 transactions on keys x and y: each reads (half of them both keys
   * first) a snapshot taken after some earlier commit (the latest or a stale one, as often) plus its
   * own appends, then appends to
   * the latest state at its commit; a transaction whose snapshot misses a commit to a key it
   * appends to aborts four times in five (first committer wins) and commits otherwise (a lost append).
   * Some transactions abort anyway; a third of the sessions give seqs from 0; times say when the
   * snapshot was taken and when the transaction committed.
   */
  private static History randomHistory(final Random random) {
    final int count = 2 + random.nextInt(5);
    final List<Map<String, List<Long>>> states = new ArrayList<>();
    states.add(new HashMap<>());
    final List<Transaction> txns = new ArrayList<>();
    final Map<String, Long> seqs = new HashMap<>();
    final boolean seqd = random.nextInt(3) == 0;
    long next = 1;
    for (int i = 0; i < count; i++) {
      final int snap = random.nextBoolean() ? random.nextInt(states.size()) : states.size() - 1;
      final Map<String, List<Long>> snapshot = states.get(snap);
      final Map<String, List<Long>> own = new HashMap<>();
      final List<Op> ops = new ArrayList<>();
      final boolean readsBoth = random.nextBoolean(); // write skew's shape: read both keys, then append
      final int size = (readsBoth ? 2 : 0) + 1 + random.nextInt(2);
      for (int o = 0; o < size; o++) {
        final String key = readsBoth && o < 2 ? (o == 0 ? "x" : "y") : random.nextBoolean() ? "x" : "y";
        if ((!readsBoth || o >= 2) && random.nextInt(5) < 3) {
          final long v = next++;
          own.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
          ops.add(Op.append(key, v));
        } else {
          final List<Long> seen = new ArrayList<>(snapshot.getOrDefault(key, List.of()));
          seen.addAll(own.getOrDefault(key, List.of()));
          ops.add(Op.readList(key, seen));
        }
      }
      final Map<String, List<Long>> latest = states.get(states.size() - 1);
      boolean conflict = false;
      for (final String k : own.keySet()) {
        conflict |= !latest.getOrDefault(k, List.of()).equals(snapshot.getOrDefault(k, List.of()));
      }
      final boolean aborted = random.nextInt(10) == 0 || conflict && random.nextInt(5) != 0;
      final Map<String, List<Long>> after = new HashMap<>(latest);
      if (!aborted) {
        own.forEach((k, vs) -> {
          final List<Long> list = new ArrayList<>(after.getOrDefault(k, List.of()));
          list.addAll(vs);
          after.put(k, list);
        });
      }
      states.add(after);
      final long start = snap == 0 ? 1 : 10L * (snap - 1) + 6;
      final long end = Math.max(10L * i + 5, start);
      final String session = "s" + random.nextInt(3);
      final long seq = seqd ? seqs.merge(session, 1L, Long::sum) - 1 : Transaction.NO_SEQ;
      txns.add(new Transaction("T" + (i + 1), session, seq, aborted ? TxnStatus.ABORTED : TxnStatus.COMMITTED, start,
          end, ops, null, null, i + 1));
    }
    return new History(txns);
  }
}
