package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.RandomHistories;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What a stream reports does not depend on the arrival order, nor on retries: random histories
 * ({@link RandomHistories}) fed to {@link OnlineChecker#accept} in random orders give exactly the
 * result of {@link OnlineChecker#check} on the history (verdicts, reasons, the anomaly list,
 * findings, stats but time), and nothing published is ever retracted.
 *
 * <ul>
 *   <li>Bounded: each session's order kept, every transaction arriving while the latest end seen
 *       is at most the grace period past its own end, random duplicates. Equal, unless a
 *       transaction could only come late (its session's order disagrees with end times by more
 *       than the grace) or a writer ended more than the grace after a reader of its value; then
 *       the result must carry LATE_TRANSACTION, and only then may it differ. Histories that write
 *       a value twice (outside the MTC contract) may differ too, and must say so with
 *       NON_UNIQUE_WRITE: a stream attributes a read while its value is unique.
 *   <li>Unbounded: any order (session order kept where sessions have no seq), duplicates, an
 *       unbounded grace period and a flush. Always equal.
 * </ul>
 */
class OrderIndependenceTest {
  private static final int COUNT = Integer.getInteger("isowatch.order.count", 10_000);
  private static final long BASE_SEED = Long.getLong("isowatch.order.seed", 4_242_000L);
  private static final long[] GRACES = {0, 10, 30, 100, 1_000, 1_000_000};
  private static final int FAILURES_SHOWN = 3;

  @Test
  void shouldReportWhatCheckReportsWhenArrivalsAreShuffledWithinTheGracePeriod() {
    // Given
    final List<String> failures = new ArrayList<>();
    int equal = 0;
    int late = 0;
    int timed = 0;
    int repeated = 0;
    for (int i = 0; i < COUNT; i++) {
      final Random rnd = new Random(BASE_SEED + i);
      final RandomHistories.Generated g = RandomHistories.generate(BASE_SEED + i);
      final CheckOptions options = g.options().withMaxAnomalies(10_000);
      final long grace = GRACES[rnd.nextInt(GRACES.length)];
      final Arrival arrival = boundedArrival(g.history(), grace, rnd);
      final CheckResult expected = OnlineChecker.check(g.history(), options);

      // When
      final Stream stream = stream(arrival.order(), options, OnlineOptions.streaming(grace));

      // Then
      if (g.history().transactions().stream().anyMatch(t -> t.end() != Transaction.NO_TIME)) {
        timed++;
      }
      final List<String> problems = new ArrayList<>(stream.retractions());
      if (writesAValueTwice(g.history())) {
        // Reads of a value are attributed while it is unique; check, which sees the whole history,
        // never attributes them. The stream must say why it may differ.
        repeated++;
        if (!has(stream.result(), FindingKind.NON_UNIQUE_WRITE)) {
          problems.add("a value is written twice but the stream reports no NON_UNIQUE_WRITE");
        }
      } else if (has(stream.result(), FindingKind.LATE_TRANSACTION)) {
        late++;
        if (!arrival.forcedLate() && !writerMayComeAfterGrace(g.history(), options.initialValue(), grace)) {
          problems.add("LATE_TRANSACTION although every transaction came within the grace period");
        }
      } else if (!Results.withoutTime(expected).equals(Results.withoutTime(stream.result()))) {
        problems.add("differs from check:\n check:  " + Results.withoutTime(expected) + "\n stream: " + Results.withoutTime(stream.result()));
      } else {
        equal++;
      }
      if (!problems.isEmpty()) {
        failures.add(problems + "\ngrace=" + grace + " " + g.describe() + "arrival:\n"
            + HistoryDsl.format(new History(arrival.order())));
      }
    }
    System.out.println("OrderIndependenceTest: " + equal + " equal, " + late + " with late transactions, " + repeated
        + " with a value written twice, " + timed + " timed of " + COUNT);
    assertNoFailures(failures);
    final int timedHistories = timed;
    assertTrue(timedHistories >= COUNT / 2, () -> "only " + timedHistories + " histories with times");
    assertTrue(equal >= COUNT * 8 / 10, "too few exact comparisons");
    assertTrue(late > 0, "no history needed a late transaction: the LATE_TRANSACTION path is untested");
  }

  @Test
  void shouldReportWhatCheckReportsWhenAnyArrivalOrderIsFlushed() {
    // Given
    final List<String> failures = new ArrayList<>();
    for (int i = 0; i < COUNT / 2; i++) {
      final Random rnd = new Random(BASE_SEED - i);
      final RandomHistories.Generated g = RandomHistories.generate(BASE_SEED - i);
      final CheckOptions options = g.options().withMaxAnomalies(10_000);
      final List<Transaction> order = withDuplicates(shuffle(g.history(), rnd), rnd);
      final CheckResult expected = OnlineChecker.check(g.history(), options);

      // When
      final Stream stream = stream(order, options, new OnlineOptions(OnlineOptions.UNBOUNDED, true));

      // Then
      final List<String> problems = new ArrayList<>(stream.retractions());
      if (!Results.withoutTime(expected).equals(Results.withoutTime(stream.result()))) {
        problems.add("differs from check:\n check:  " + Results.withoutTime(expected) + "\n stream: " + Results.withoutTime(stream.result()));
      }
      if (!problems.isEmpty()) {
        failures.add(problems + "\n" + g.describe() + "arrival:\n" + HistoryDsl.format(new History(order)));
      }
    }
    assertNoFailures(failures);
  }

  @Test
  void shouldPublishEveryListedAnomalyExactlyOnceWhenStreaming() {
    // Given: histories with anomalies, streamed with a small grace period
    int published = 0;
    final List<String> failures = new ArrayList<>();
    for (int i = 0; i < COUNT / 5; i++) {
      final Random rnd = new Random(BASE_SEED + 7 * i);
      final RandomHistories.Generated g = RandomHistories.generate(BASE_SEED + 7 * i);
      final CheckOptions options = g.options().withMaxAnomalies(10_000);
      final Arrival arrival = boundedArrival(g.history(), 10, rnd);

      // When
      final Stream stream = stream(arrival.order(), options, OnlineOptions.streaming(10));

      // Then: the published anomalies are exactly the listed ones, as multisets; a proof of the
      // search of version orders, or of a read no writer explains, is part of the result only
      // (docs/streaming.md, "Blind writes")
      published += stream.published().size();
      final List<String> listed = stream.result().anomalies().stream()
          .filter(a -> !io.isowatch.core.solve.BlindWriteDecision.isResultOnly(a))
          .map(Anomaly::toString).sorted().toList();
      final List<String> sent = stream.published().stream().map(Anomaly::toString).sorted().toList();
      if (!listed.equals(sent)) {
        failures.add("published " + sent + "\nlisted " + listed + "\n" + g.describe());
      }
    }
    assertNoFailures(failures);
    assertTrue(published >= COUNT / 20, "too few anomalies published");
  }

  // ---- streams ----

  /** What a stream published and its result after a flush. */
  private record Stream(List<Anomaly> publishedByAccept, List<Anomaly> published, CheckResult result) {
    /** Anomalies published by accept() that the final result does not list. */
    List<String> retractions() {
      final Map<String, Integer> listed = new HashMap<>();
      result.anomalies().forEach(a -> listed.merge(a.toString(), 1, Integer::sum));
      final List<String> problems = new ArrayList<>();
      for (final Anomaly a : publishedByAccept) {
        if (listed.merge(a.toString(), -1, Integer::sum) < 0) {
          problems.add("retracted: " + a.displayName() + " " + a.txnIds() + " was published and is not in the result");
        }
      }
      return problems;
    }
  }

  private static Stream stream(final List<Transaction> order, final CheckOptions options, final OnlineOptions online) {
    final OnlineChecker c = new OnlineChecker(options, online);
    final List<Anomaly> byAccept = new ArrayList<>();
    for (final Transaction t : order) {
      anomalies(c.accept(t), byAccept);
    }
    final List<Anomaly> all = new ArrayList<>(byAccept);
    final List<OnlineEvent> flushed = c.flush();
    anomalies(flushed, all);
    // A writer released by the flush may retract what accept() published (its read was not thin air).
    flushed.stream().filter(e -> e instanceof OnlineEvent.AnomalyRetracted)
        .forEach(e -> byAccept.remove(((OnlineEvent.AnomalyRetracted) e).anomaly()));
    return new Stream(byAccept, all, c.result());
  }

  private static void anomalies(final List<OnlineEvent> events, final List<Anomaly> out) {
    for (final OnlineEvent e : events) {
      if (e instanceof OnlineEvent.AnomalyPublished p) {
        out.add(p.anomaly());
      } else if (e instanceof OnlineEvent.AnomalyRetracted r && !out.remove(r.anomaly())) {
        // A retraction takes back what was published (a ThinAirRead whose writer came late), nothing else.
        throw new AssertionError("retracted an anomaly that was never published: " + r.anomaly());
      }
    }
  }

  // ---- arrival orders ----

  /** An arrival order; {@code forcedLate} when some transaction could not arrive in time. */
  record Arrival(List<Transaction> order, boolean forcedLate) {}

  /**
   * Sessions interleaved at random, each in its own order, with every transaction arriving while
   * the latest time seen is at most {@code grace} past its own (end, or start without an end),
   * when its session allows it.
   */
  static Arrival boundedArrival(final History history, final long grace, final Random rnd) {
    final List<List<Transaction>> queues = new ArrayList<>(sessions(history).values());
    final List<Transaction> out = new ArrayList<>();
    long maxEnd = Long.MIN_VALUE;
    boolean forced = false;
    while (!queues.isEmpty()) {
      final List<Integer> eligible = new ArrayList<>();
      for (int q = 0; q < queues.size(); q++) {
        final long time = TxnIndex.timeKey(queues.get(q).get(0));
        if (time == TxnIndex.NO_END || maxEnd == Long.MIN_VALUE || time >= maxEnd - grace) {
          eligible.add(q);
        }
      }
      final int q;
      if (eligible.isEmpty()) {
        forced = true;
        q = queues.indexOf(Collections.min(queues, Comparator.comparingLong(l -> TxnIndex.timeKey(l.get(0)))));
      } else {
        q = eligible.get(rnd.nextInt(eligible.size()));
      }
      final Transaction t = queues.get(q).remove(0);
      if (queues.get(q).isEmpty()) {
        queues.remove(q);
      }
      out.add(t);
      if (TxnIndex.timeKey(t) != TxnIndex.NO_END) {
        maxEnd = Math.max(maxEnd, TxnIndex.timeKey(t));
      }
    }
    return new Arrival(withDuplicates(out, rnd), forced);
  }

  /** Any order, except that sessions without seq keep their order (it is their session order). */
  private static List<Transaction> shuffle(final History history, final Random rnd) {
    final List<Transaction> all = new ArrayList<>(history.transactions());
    Collections.shuffle(all, rnd);
    final Map<String, List<Transaction>> sessions = sessions(history);
    final Map<String, Integer> next = new HashMap<>();
    final List<Transaction> out = new ArrayList<>(all.size());
    for (final Transaction t : all) {
      final List<Transaction> s = sessions.get(t.session());
      if (s.stream().allMatch(Transaction::hasSeq)) {
        out.add(t);
      } else {
        out.add(s.get(next.merge(t.session(), 1, Integer::sum) - 1));
      }
    }
    return out;
  }

  /** Each session's transactions in session order (by seq when all have one, else source order). */
  private static Map<String, List<Transaction>> sessions(final History history) {
    final Map<String, List<Transaction>> sessions = new LinkedHashMap<>();
    for (final Transaction t : history.transactions()) {
      sessions.computeIfAbsent(t.session(), s -> new ArrayList<>()).add(t);
    }
    for (final List<Transaction> s : sessions.values()) {
      if (s.stream().allMatch(Transaction::hasSeq)) {
        s.sort(Comparator.comparingLong(Transaction::seq));
      }
    }
    return sessions;
  }

  /** Retries: about one transaction in four arrives again, later. */
  private static List<Transaction> withDuplicates(final List<Transaction> order, final Random rnd) {
    final List<Transaction> out = new ArrayList<>(order);
    for (final Transaction t : order) {
      if (rnd.nextInt(4) == 0) {
        final int after = out.indexOf(t);
        out.add(after + 1 + rnd.nextInt(out.size() - after), t);
      }
    }
    return out;
  }

  /**
   * Whether some value read may have been written by a transaction that ended more than the grace
   * period after its reader (or never ended): then the read may be reported as a ThinAirRead
   * before its writer comes, a case the engine must report as LATE_TRANSACTION.
   */
  private static boolean writerMayComeAfterGrace(final History history, final Long initial, final long grace) {
    for (final Transaction r : history.transactions()) {
      final long readerTime = TxnIndex.timeKey(r);
      if (readerTime == TxnIndex.NO_END) {
        continue;
      }
      for (final Op read : r.ops()) {
        if (!read.isRead() || read.value() == null || Objects.equals(read.value(), initial)) {
          continue;
        }
        for (final Transaction w : history.transactions()) {
          if (w != r && (TxnIndex.timeKey(w) == TxnIndex.NO_END || TxnIndex.timeKey(w) > readerTime + grace)
              && w.ops().stream().anyMatch(op -> op.isWrite() && op.key().equals(read.key())
                  && op.value().equals(read.value()))) {
            return true;
          }
        }
      }
    }
    return false;
  }

  private static boolean has(final CheckResult r, final FindingKind kind) {
    return r.findings().stream().anyMatch(f -> f.kind() == kind);
  }

  /** Whether two write ops write the same value to the same key (the MTC contract forbids it). */
  private static boolean writesAValueTwice(final History history) {
    final java.util.Set<String> seen = new java.util.HashSet<>();
    for (final Transaction t : history.transactions()) {
      for (final Op op : t.ops()) {
        if (op.isWrite() && !seen.add(op.key() + "=" + op.value())) {
          return true;
        }
      }
    }
    return false;
  }


  private static void assertNoFailures(final List<String> failures) {
    assertEquals(List.of(), failures.subList(0, Math.min(FAILURES_SHOWN, failures.size())),
        () -> failures.size() + " failures");
  }
}
