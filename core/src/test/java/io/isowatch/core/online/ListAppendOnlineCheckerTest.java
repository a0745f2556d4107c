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
      final CheckResult want = ListAppendCheck.check(h, OPTIONS);
      final List<Transaction> arrival = new ArrayList<>(h.transactions());
      for (final Transaction t : h.transactions()) {
        if (random.nextInt(5) == 0) {
          arrival.add(t);
        }
      }
      Collections.shuffle(arrival, random);
      final ListAppendOnlineChecker online = new ListAppendOnlineChecker(OPTIONS);
      final Map<List<String>, Anomaly> standing = new HashMap<>();
      final String why = "history " + n + "\n" + HistoryDsl.format(h);
      // When
      for (final Transaction t : arrival) {
        apply(online.accept(t), standing);
        // Then: never anything false, even before the lists are complete
        for (final Anomaly a : standing.values()) {
          assertTrue(trueOf(a, h, want), () -> why + "\npublished " + a.explanation() + "\nwhole: " + want.verdicts() + want.anomalies());
        }
      }
      apply(online.flush(), standing);
      final CheckResult got = online.result();
      // Then
      assertEquals(want.verdicts(), got.verdicts(), why + want.anomalies());
      final Set<List<String>> publishedIds = new HashSet<>();
      standing.values().forEach(a -> publishedIds.add(key(a)));
      for (final Anomaly a : ListAppendCheck.check(ListAppendOnlineChecker.canonical(h), OPTIONS).anomalies()) {
        assertTrue(publishedIds.contains(key(a)), () -> why + "\nnot published: " + a.explanation());
      }
      for (final Anomaly a : standing.values()) {
        assertTrue(trueOf(a, h, want), () -> why + "\npublished " + a.explanation());
      }
      violated += want.verdicts().get(Level.SER) == Verdict.VIOLATED ? 1 : 0;
      published += standing.size();
    }
    // And: the comparison was about something
    assertTrue(violated > 60 && published > 100, "violated " + violated + ", published " + published);
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

  /** The whole history's version orders: each key's longest committed read, checked independently. */
  private record Lists(Map<String, List<Long>> order, Map<String, Map<Long, String>> appender,
      Map<String, List<Transaction>> txns, Set<String> broken) {
    static Lists of(final History h) {
      final Map<String, List<Long>> order = new HashMap<>();
      final Map<String, Map<Long, String>> appender = new HashMap<>();
      final Map<String, List<Transaction>> txns = new HashMap<>();
      final Set<String> broken = new HashSet<>();
      for (final Transaction t : h.transactions()) {
        txns.computeIfAbsent(t.id(), k -> new ArrayList<>()).add(t);
        for (final Op op : t.ops()) {
          if (op.isAppend()) {
            appender.computeIfAbsent(op.key(), k -> new HashMap<>()).put(op.value(), t.id());
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
      return new Lists(order, appender, txns, broken);
    }

    boolean broken(final String key) {
      return broken.contains(key);
    }

    /** The versions (last elements, null the empty list) a transaction read or built on. */
    private Set<Long> versionsSeen(final String txn, final String key) {
      final Set<Long> seen = new HashSet<>();
      final List<Long> o = order.getOrDefault(key, List.of());
      for (final Transaction t : txns.getOrDefault(txn, List.of())) {
        for (final Op op : t.ops()) {
          if (!key.equals(op.key())) {
            continue;
          }
          if (op.isListRead()) {
            seen.add(op.elements().isEmpty() ? null : op.elements().get(op.elements().size() - 1));
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

    /** The element after version v (null: the empty list) in the key's order, or null. */
    private Long next(final String key, final Long v) {
      final List<Long> o = order.getOrDefault(key, List.of());
      final int i = v == null ? -1 : o.indexOf(v);
      if (v != null && i < 0) {
        return null;
      }
      return i + 1 < o.size() ? o.get(i + 1) : null;
    }

    boolean holds(final Edge e) {
      final Map<Long, String> by = appender.getOrDefault(e.key(), Map.of());
      return switch (e.kind()) {
        case WW -> appended(e.from(), e.key()).stream()
            .anyMatch(v -> e.to().equals(by.get(next(e.key(), v))));
        case WR -> appended(e.from(), e.key()).stream().anyMatch(v -> versionsSeen(e.to(), e.key()).contains(v));
        case RW -> versionsSeen(e.from(), e.key()).stream()
            .anyMatch(v -> { final Long n = next(e.key(), v); return n != null && e.to().equals(by.get(n)); });
        default -> true;
      };
    }
  }
}
