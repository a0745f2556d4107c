package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.listappend.ListAppendCheck;
import io.isowatch.core.oracle.ListAppendHistories;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The streaming list-append checker against {@code isowatch check} ({@link ListAppendCheck}) on
 * random list-append histories arriving shuffled, with duplicates: after the flush the verdicts are
 * check's and every anomaly check reports on the history in the engine's canonical order was
 * published; and at every point every published
 * anomaly is true of the whole history: its levels are violated by check, and each of its
 * dependency edges is an edge of the whole history (read off its longest lists), or of check's own
 * anomalies for edges into appends no read of the whole history shows.
 */
class ListAppendOnlineCheckerTest {
  private static final CheckOptions OPTIONS = CheckOptions.defaults()
      .withLevels(java.util.EnumSet.of(Level.SSER, Level.SER, Level.SI, Level.RR, Level.PL2));

  @Test
  void shouldPublishOnlyTrueAnomaliesAndEndWithCheckVerdictsWhenListAppendHistoriesArriveShuffled() {
    // Given
    final Random random = new Random(Long.getLong("seed", 14));
    int violated = 0;
    int published = 0;
    for (int n = 0; n < Integer.getInteger("histories", 300); n++) {
      final History h = ListAppendHistories.random(random);
      final List<Transaction> arrival = new ArrayList<>(h.transactions());
      for (final Transaction t : h.transactions()) {
        if (random.nextInt(5) == 0) {
          arrival.add(t);
        }
      }
      Collections.shuffle(arrival, random);
      // When, Then
      final Map<List<String>, Anomaly> standing = assertStreamTellsOnlyTruthAndEndsAsCheck(h, arrival, "history " + n);
      violated += ListAppendCheck.check(h, OPTIONS).verdicts().get(Level.SER) == Verdict.VIOLATED ? 1 : 0;
      published += standing.size();
    }
    // And: the comparison was about something
    assertTrue(violated > 60 && published > 100, "violated " + violated + ", published " + published);
  }

  @Test
  void shouldJudgeAnEdgeThatStepsOverAbortedElementsTrueWhenTheStreamPublishesIt() {
    // Given: history 155 of seed 7 at 2,000 histories, minimized. T12's z=[2,3,8,9,11] shows T10's
    // aborted 8 and 9 between T3's 3 and T11's 11: the committed order of z is 2, 3, 11, so T3 < T11
    // is a WW edge (ListAppendCheck skips aborted elements, as Adya's version order holds committed
    // versions only). Before T4 arrives the stream publishes the G1c through it and y=[10,6,1]; T4's
    // duplicate makes the whole check leave y's reads out, so the edge is in none of its cycles and
    // the property test's reading of the lists had to judge it: it stepped to the aborted 8, called
    // the edge false, and failed on a true anomaly.
    final History h = HistoryDsl.history("""
        T1 s0 a(y,1) a(z,2) @1..5 seq=1
        T3 s1 a(z,3) @16..25 seq=2
        T4 s1 r(y,[1,1]) @26..35 seq=3
        T7 s2 a(y,6) @56..65 seq=1
        T10 s3 a(z,8) a(z,9) aborted @1..95 seq=3
        T11 s2 a(y,10) a(z,11) unknown @96.. seq=3
        T12 s3 r(y,[10,6,1]) r(z,[2,3,8,9,11]) @106..115 seq=4
        """);
    final Map<String, Transaction> byId = new HashMap<>();
    h.transactions().forEach(t -> byId.put(t.id(), t));
    final List<Transaction> arrival = java.util.stream.Stream.of("T12", "T1", "T10", "T3", "T7", "T12", "T11",
        "T10", "T4", "T11").map(byId::get).toList();
    // When
    final Map<List<String>, Anomaly> standing = assertStreamTellsOnlyTruthAndEndsAsCheck(h, arrival, "seed 7, 155");
    // Then: the cycle through T3 < T11 was published and stands; every edge of it the lists give is
    // WW (the engine had WR, from the translation's read before each append), so it is named G0
    // (ListExplanations: an anomaly is named by the edges it shows)
    assertTrue(standing.values().stream().anyMatch(a -> a.type().equals("G0")
        && a.cycle().contains(new Edge("T3", "T11", EdgeKind.WW, "z", 3L))), standing.values().toString());
  }

  @Test
  void shouldJudgeAnAntiDependencyOnAnAppendBuiltOnTheVersionReadTrueAfterALostAppend() {
    // Given: history 1795 of seed 12 at 2,000 histories, minimized. T5 appended 4 and T7 appended 5,
    // both on y=[] (T7 read it first): a lost append, y=[4,5]. T3 read y=[] too, so the engine's
    // register translation has T3 -RW(y)-> T7 (T7 overwrote the version T3 read), and with
    // T7 -RW(z)-> T3 the stream publishes a WriteSkew once T5 and T11 arrive. T3 < T7 holds in
    // every order the lists allow (T3 < T5 < T7), but the property test's reading of the lists took
    // only 4, the element right after [], as overwriting [], and failed on it; the explanation
    // called 5 "the element after" [] (now: "which comes after it ... (y=[4,5])").
    final History h = HistoryDsl.history("""
        T1 s0 a(z,1) @1..5 seq=1
        T2 s3 a(z,2) @6..15 seq=1
        T3 s2 a(z,3) r(y,[]) @16..25 seq=1
        T5 s0 a(y,4) @36..45 seq=2
        T7 s3 r(y,[]) r(z,[1,2]) a(y,5) @16..65 seq=2
        T10 s0 r(z,[1,2,3,6,1]) @86..95 seq=4
        T11 s2 r(y,[4,5]) r(z,[1,2,3]) @76..105 seq=3
        """);
    final Map<String, Transaction> byId = new HashMap<>();
    h.transactions().forEach(t -> byId.put(t.id(), t));
    final List<Transaction> arrival = java.util.stream.Stream.of("T7", "T2", "T3", "T1", "T10", "T7", "T11", "T5")
        .map(byId::get).toList();
    // When
    final Map<List<String>, Anomaly> standing = assertStreamTellsOnlyTruthAndEndsAsCheck(h, arrival, "seed 12, 1795");
    // Then
    final Anomaly skew = standing.values().stream().filter(a -> "WriteSkew".equals(a.name())).findFirst()
        .orElseThrow(() -> new AssertionError(standing.values()));
    assertTrue(skew.explanation().contains("T3 read y=[], and T7 appended 5, which comes after it in the order of y "
        + "every read is a prefix of (y=[4,5])"), skew.explanation());
  }

  @Test
  void shouldWaitForTheAppenderWhenAReadArrivesBeforeIt() {
    // Given: T2 read [1], T1 appended 1: T2 arrives first
    final Transaction t1 = txn("T1", "s1", 0, 10, 20, Op.append("x", 1));
    final Transaction t2 = txn("T2", "s2", 0, 30, 40, Op.readList("x", List.of(1L)));
    final ListAppendOnlineChecker online = new ListAppendOnlineChecker(OPTIONS);
    // When
    final List<OnlineEvent> first = online.accept(t2);
    // Then: no ThinAirRead published, the read waits
    assertTrue(first.stream().noneMatch(e -> e instanceof OnlineEvent.AnomalyPublished), first.toString());
    assertEquals(1, online.pending());
    // When
    online.accept(t1);
    // Then
    assertEquals(0, online.pending());
    assertTrue(online.result().anomalies().isEmpty());
    assertEquals(Verdict.SATISFIED, online.result().verdicts().get(Level.SER));
  }

  @Test
  void shouldRetractAThinAirReadPublishedByAFlushWhenItsAppenderArrives() {
    // Given
    final Transaction t1 = txn("T1", "s1", 0, 10, 20, Op.append("x", 1));
    final Transaction t2 = txn("T2", "s2", 0, 30, 40, Op.readList("x", List.of(1L)));
    final ListAppendOnlineChecker online = new ListAppendOnlineChecker(OPTIONS);
    online.accept(t2);
    // When: the input ends for now
    final List<OnlineEvent> flushed = online.flush();
    // Then
    assertTrue(flushed.stream().anyMatch(e -> e instanceof OnlineEvent.AnomalyPublished p
        && p.anomaly().displayName().equals("ThinAirRead")), flushed.toString());
    assertEquals(Verdict.VIOLATED, online.result().verdicts().get(Level.SER));
    // When: its appender arrives after all
    final List<OnlineEvent> later = online.accept(t1);
    // Then
    assertTrue(later.stream().anyMatch(e -> e instanceof OnlineEvent.AnomalyRetracted), later.toString());
    assertEquals(Verdict.SATISFIED, online.result().verdicts().get(Level.SER));
    assertTrue(online.result().anomalies().isEmpty());
  }

  @Test
  void shouldWithholdACycleThroughAnAppendNoReadShowsUntilAReadShowsIt() {
    // Given: T1 read x=[] and appended y=2; T2 read y=[] and appended x=1: write skew, but no read
    // shows x=1 or y=2, and a later read may put other appends before them.
    final Transaction t1 = txn("T1", "s1", 0, 10, 20, Op.readList("x", List.of()), Op.append("y", 2));
    final Transaction t2 = txn("T2", "s2", 0, 10, 20, Op.readList("y", List.of()), Op.append("x", 1));
    final ListAppendOnlineChecker online = new ListAppendOnlineChecker(OPTIONS);
    // When
    final List<OnlineEvent> events = new ArrayList<>(online.accept(t1));
    events.addAll(online.accept(t2));
    // Then: SER is violated in every extension, but the cycle is not published yet
    assertEquals(Verdict.VIOLATED, online.result().verdicts().get(Level.SER));
    assertTrue(events.stream().noneMatch(e -> e instanceof OnlineEvent.AnomalyPublished), events.toString());
    // When: reads show both appends
    final List<OnlineEvent> shown = online.accept(txn("T3", "s3", 0, 30, 40, Op.readList("x", List.of(1L)),
        Op.readList("y", List.of(2L))));
    // Then
    assertTrue(shown.stream().anyMatch(e -> e instanceof OnlineEvent.AnomalyPublished p
        && p.anomaly().displayName().equals("WriteSkew")), shown.toString());
  }

  @Test
  void shouldKeepOneCopyOfEachVersionOfATransactionIdAsCheckDoes() {
    // Given: T1 arrives twice, and another transaction under the same id twice
    final Transaction t1 = txn("T1", "s1", 0, 10, 20, Op.append("x", 1));
    final Transaction other = txn("T1", "s2", 0, 10, 20, Op.append("x", 2));
    final ListAppendOnlineChecker online = new ListAppendOnlineChecker(OPTIONS);
    // When
    for (final Transaction t : List.of(t1, other, t1, other)) {
      online.accept(t);
    }
    online.flush();
    // Then: what check says of a file holding each once
    final CheckResult want = ListAppendCheck.check(new History(List.of(t1, other)), OPTIONS);
    assertEquals(2, online.retained());
    assertEquals(want.verdicts(), online.result().verdicts());
    assertEquals(want.findings().stream().map(f -> f.kind() + "x" + f.count()).toList(),
        online.result().findings().stream().map(f -> f.kind() + "x" + f.count()).toList());
  }

  /**
   * Streams the history in the arrival order and asserts the class comment's promises; returns the
   * anomalies standing after the flush.
   */
  private static Map<List<String>, Anomaly> assertStreamTellsOnlyTruthAndEndsAsCheck(final History h,
      final List<Transaction> arrival, final String name) {
    final CheckResult want = ListAppendCheck.check(h, OPTIONS);
    final ListAppendOnlineChecker online = new ListAppendOnlineChecker(OPTIONS);
    final Map<List<String>, Anomaly> standing = new HashMap<>();
    final String why = name + "\n" + HistoryDsl.format(h);
    for (final Transaction t : arrival) {
      apply(online.accept(t), standing);
      // Never anything false, even before the lists are complete
      for (final Anomaly a : standing.values()) {
        assertTrue(trueOf(a, h, want), () -> why + "\npublished " + a.explanation() + "\nwhole: " + want.verdicts() + want.anomalies());
      }
    }
    apply(online.flush(), standing);
    final CheckResult got = online.result();
    assertEquals(want.verdicts(), got.verdicts(), why + want.anomalies());
    final Set<List<String>> publishedIds = new HashSet<>();
    standing.values().forEach(a -> publishedIds.add(key(a)));
    for (final Anomaly a : ListAppendCheck.check(ListAppendOnlineChecker.canonical(h), OPTIONS).anomalies()) {
      assertTrue(publishedIds.contains(key(a)), () -> why + "\nnot published: " + a.explanation());
    }
    for (final Anomaly a : standing.values()) {
      assertTrue(trueOf(a, h, want), () -> why + "\npublished " + a.explanation());
    }
    return standing;
  }

  private static Transaction txn(final String id, final String session, final long seq, final long start,
      final long end, final Op... ops) {
    return new Transaction(id, session, seq, TxnStatus.COMMITTED, start, end, List.of(ops), null, null, 0);
  }

  private static void apply(final List<OnlineEvent> events, final Map<List<String>, Anomaly> standing) {
    for (final OnlineEvent e : events) {
      if (e instanceof OnlineEvent.AnomalyPublished p) {
        standing.put(key(p.anomaly()), p.anomaly());
      } else if (e instanceof OnlineEvent.AnomalyRetracted r) {
        standing.remove(key(r.anomaly()));
      }
    }
  }

  private static List<String> key(final Anomaly a) {
    return List.of(a.displayName(), a.txnIds().toString(), a.cycle().toString(), String.valueOf(a.read()));
  }

  /** True when the anomaly holds in the whole history (see the class comment). */
  private static boolean trueOf(final Anomaly a, final History h, final CheckResult whole) {
    for (final Level l : a.violates()) {
      if (whole.verdicts().containsKey(l) && whole.verdicts().get(l) != Verdict.VIOLATED) {
        return false;
      }
    }
    // The check of the canonical order may read a key's order off another of two incompatible reads.
    final Set<Edge> checkEdges = new HashSet<>();
    whole.anomalies().forEach(w -> checkEdges.addAll(w.cycle()));
    ListAppendCheck.check(ListAppendOnlineChecker.canonical(h), OPTIONS).anomalies()
        .forEach(w -> checkEdges.addAll(w.cycle()));
    final Lists lists = Lists.of(h);
    for (final Edge e : a.cycle()) {
      if (e.kind() == EdgeKind.SO || e.kind() == EdgeKind.RT || checkEdges.contains(e) || lists.broken(e.key())) {
        continue;
      }
      if (!lists.holds(e)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The whole history's version orders: each key's longest committed read, checked independently.
   * Elements no transaction appended and elements of aborted appenders are no versions of the
   * committed order (ListAppendCheck reports the reads showing them): an edge steps over them, as
   * Adya's version order holds committed versions only.
   */
  private record Lists(Map<String, List<Long>> order, Map<String, Map<Long, String>> appender,
      Map<String, List<Transaction>> txns, Set<String> broken, Map<String, Set<Long>> live) {
    static Lists of(final History h) {
      final Map<String, List<Long>> order = new HashMap<>();
      final Map<String, Map<Long, String>> appender = new HashMap<>();
      final Map<String, List<Transaction>> txns = new HashMap<>();
      final Set<String> broken = new HashSet<>();
      final Map<String, Set<Long>> live = new HashMap<>();
      for (final Transaction t : h.transactions()) {
        txns.computeIfAbsent(t.id(), k -> new ArrayList<>()).add(t);
        for (final Op op : t.ops()) {
          if (op.isAppend()) {
            appender.computeIfAbsent(op.key(), k -> new HashMap<>()).put(op.value(), t.id());
            if (t.status() != TxnStatus.ABORTED) {
              live.computeIfAbsent(op.key(), k -> new HashSet<>()).add(op.value());
            }
          } else if (op.isListRead() && t.status() == TxnStatus.COMMITTED) {
            final List<Long> l = op.elements();
            if (l.size() > order.getOrDefault(op.key(), List.of()).size()) {
              order.put(op.key(), l);
            }
          }
        }
      }
      for (final Transaction t : h.transactions()) {
        for (final Op op : t.ops()) {
          if (op.isListRead() && t.status() != TxnStatus.ABORTED) {
            final List<Long> longest = order.get(op.key());
            if (longest != null && (op.elements().size() > longest.size()
                || !longest.subList(0, op.elements().size()).equals(op.elements())
                || new HashSet<>(op.elements()).size() != op.elements().size())) {
              broken.add(op.key());
            }
          }
        }
      }
      return new Lists(order, appender, txns, broken, live);
    }

    boolean broken(final String key) {
      return broken.contains(key);
    }

    /** The list's live elements (see the record's comment). */
    private List<Long> versions(final String key, final List<Long> list) {
      final Set<Long> l = live.getOrDefault(key, Set.of());
      return list.stream().filter(l::contains).toList();
    }

    /** The versions (last live elements, null the empty list) a transaction read or built on. */
    private Set<Long> versionsSeen(final String txn, final String key) {
      final Set<Long> seen = new HashSet<>();
      final List<Long> o = versions(key, order.getOrDefault(key, List.of()));
      for (final Transaction t : txns.getOrDefault(txn, List.of())) {
        for (final Op op : t.ops()) {
          if (!key.equals(op.key())) {
            continue;
          }
          if (op.isListRead()) {
            final List<Long> read = versions(key, op.elements());
            seen.add(read.isEmpty() ? null : read.get(read.size() - 1));
          } else if (op.isAppend()) {
            final int i = o.indexOf(op.value());
            if (i >= 0) {
              seen.add(i == 0 ? null : o.get(i - 1));
            }
          }
        }
      }
      return seen;
    }

    private Set<Long> appended(final String txn, final String key) {
      final Set<Long> out = new HashSet<>();
      appender.getOrDefault(key, Map.of()).forEach((v, by) -> {
        if (by.equals(txn)) {
          out.add(v);
        }
      });
      return out;
    }

    /** The live element after version v (null: the empty list) in the key's order, or null. */
    private Long next(final String key, final Long v) {
      final List<Long> o = versions(key, order.getOrDefault(key, List.of()));
      final int i = v == null ? -1 : o.indexOf(v);
      if (v != null && i < 0) {
        return null;
      }
      return i + 1 < o.size() ? o.get(i + 1) : null;
    }

    /**
     * True when the transaction appended an element after version v (null: the empty list) in the
     * key's order: right after it (Adya's anti-dependency), or later, when it read v too and built
     * on it while other appends came in between (a lost append): the reader of v precedes it either way.
     */
    private boolean appendedAfter(final String txn, final String key, final Long v) {
      final List<Long> o = versions(key, order.getOrDefault(key, List.of()));
      final int at = v == null ? -1 : o.indexOf(v);
      if (v != null && at < 0) {
        return false;
      }
      final Long n = next(key, v);
      if (n != null && txn.equals(appender.getOrDefault(key, Map.of()).get(n))) {
        return true;
      }
      return versionsSeen(txn, key).contains(v)
          && appended(txn, key).stream().anyMatch(a -> o.indexOf(a) > at);
    }

    boolean holds(final Edge e) {
      final Map<Long, String> by = appender.getOrDefault(e.key(), Map.of());
      return switch (e.kind()) {
        case WW -> appended(e.from(), e.key()).stream()
            .anyMatch(v -> e.to().equals(by.get(next(e.key(), v))));
        case WR -> appended(e.from(), e.key()).stream().anyMatch(v -> versionsSeen(e.to(), e.key()).contains(v));
        case RW -> versionsSeen(e.from(), e.key()).stream().anyMatch(v -> appendedAfter(e.to(), e.key(), v));
        default -> true;
      };
    }
  }
}
