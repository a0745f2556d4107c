package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Online MIXED decided incrementally ({@link MixedVerdicts} asking {@code MixedIncremental}): a
 * stream's verdict and counterexample are {@code check}'s whatever the arrival order, and a
 * violation is published by the transaction that closes it, not when the history next doubles.
 */
class MixedIncrementalOnlineTest {
  /**
   * Transactions after the closing one within which the violation must be published: the engine
   * processes a transaction once one with a later time arrives (here the next but one: skew-a and
   * skew-b share the time of the transaction after them).
   */
  private static final int MAX_LAG = 2;
  private static final int STREAMS = Integer.getInteger("isowatch.mixedinc.online.count", 10_000);
  private static final List<String> DECLARABLE = List.of("RC", "RA", "CC", "PC", "SI", "SER");
  private static final InjectedKind[] KINDS = {InjectedKind.FRACTURED_READ, InjectedKind.NON_MONOTONIC_READ,
      InjectedKind.CAUSALITY_VIOLATION, InjectedKind.LONG_FORK, InjectedKind.SESSION_GUARANTEE_VIOLATION,
      InjectedKind.WRITE_SKEW, InjectedKind.LOST_UPDATE};

  @Test
  void shouldPublishCheckVerdictAndCounterexampleWhateverTheArrivalOrder() {
    final List<String> failures = new ArrayList<>();
    final int[] tally = new int[3];
    for (int i = 0; i < STREAMS; i++) {
      // Given: a small MT history with random declared levels (one in six none: the default SI)
      final long seed = 77_000L + i;
      final Random rnd = new Random(seed);
      GeneratorConfig config = GeneratorConfig.defaults().withSeed(seed).withTransactions(4 + rnd.nextInt(9))
          .withSessions(1 + rnd.nextInt(3)).withKeys(2 + rnd.nextInt(3))
          .withLevel(rnd.nextBoolean() ? SimulatedLevel.SER : SimulatedLevel.SI);
      if (rnd.nextInt(3) > 0) {
        config = config.withInjections(List.of(new Injection(KINDS[rnd.nextInt(KINDS.length)], 1)));
      }
      final History history = declared(MtHistoryGenerator.generateHistory(config), rnd);
      final CheckOptions options = CheckOptions.defaults().withLevels(EnumSet.of(Level.MIXED, Level.SER))
          .withDefaultLevel(Level.SI).withMaxAnomalies(10_000);
      final CheckResult want = OnlineChecker.check(history, options);

      // When: streamed in a random order (sessions kept in order every other time), released at once
      final List<Transaction> arrival = arrival(history, rnd, i % 2 == 0);
      final OnlineChecker online = new OnlineChecker(options, OnlineOptions.streaming(0));
      Verdict published = Verdict.SATISFIED;
      for (final Transaction t : arrival) {
        published = lastMixed(online.accept(t), published);
      }
      published = lastMixed(online.flush(), published);
      final CheckResult got = online.result();

      // Then: check's MIXED verdict, published and in the result, and check's counterexample
      final Verdict v = want.verdicts().get(Level.MIXED);
      tally[v.ordinal() % 3]++;
      final String what = "seed " + seed + "\narrival " + arrival.stream().map(Transaction::id).toList() + "\n"
          + history.transactions();
      if (got.verdicts().get(Level.MIXED) != v || published != v) {
        failures.add("check " + v + ", stream " + got.verdicts().get(Level.MIXED) + " (published " + published + "): "
            + what);
      } else if (!shapes(mixedOnly(want)).equals(shapes(mixedOnly(got)))) {
        failures.add("counterexamples differ:\n check  " + mixedOnly(want) + "\n stream " + mixedOnly(got) + "\n" + what);
      }
    }
    assertEquals(List.of(), failures.size() > 3 ? failures.subList(0, 3) : failures, failures.size() + " failures");
    assertTrue(tally[0] > STREAMS / 10 && tally[1] > STREAMS / 10, "verdicts by ordinal " + List.of(tally[0], tally[1],
        tally[2]));
  }

  @Test
  void shouldPublishAViolationByTheTransactionThatClosesIt() {
    // Given: 4,000 MT transactions simulated under SER, every one declaring SER, then a write skew
    // between two SER transactions at 3,000 and 3,001 (on two keys of their own), then 1,000 more
    final List<Transaction> base = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(11)
        .withTransactions(4_000).withSessions(20).withKeys(500).withLevel(SimulatedLevel.SER)).transactions();
    final List<Transaction> stream = new ArrayList<>();
    for (final Transaction t : base) {
      // Times in list order (the generator's order of commits), so that each is processed on arrival
      final long start = 1_000_000L + 100L * stream.size();
      stream.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), start, start + 50, t.ops(), t.tenant(), "SER",
          t.line()));
    }
    final Transaction near = stream.get(3_000);
    final Transaction a = new Transaction("skew-a", "skew-1", 1, TxnStatus.COMMITTED, near.start(), near.end(),
        List.of(Op.read("sx", 0L), Op.read("sy", 0L), Op.write("sx", 1L)), null, "SER", 0);
    final Transaction b = new Transaction("skew-b", "skew-2", 1, TxnStatus.COMMITTED, near.start(), near.end(),
        List.of(Op.read("sx", 0L), Op.read("sy", 0L), Op.write("sy", 2L)), null, "SER", 0);
    stream.add(3_000, a);
    stream.add(3_001, b);
    final CheckOptions options = CheckOptions.defaults().withLevels(EnumSet.of(Level.MIXED, Level.SER));

    // When: streamed in order, released at once (each once a later time has arrived: the engine's
    // processing order, the same for every level)
    final OnlineChecker online = new OnlineChecker(options, OnlineOptions.streaming(0));
    final Map<Level, Integer> violatedAt = new HashMap<>();
    for (int i = 0; i < stream.size(); i++) {
      for (final OnlineEvent e : online.accept(stream.get(i))) {
        if (e instanceof OnlineEvent.VerdictChanged c && !violatedAt.containsKey(c.level())) {
          assertEquals(Verdict.VIOLATED, c.to(), "at " + i + ": " + c);
          violatedAt.put(c.level(), i);
        }
      }
    }
    online.flush();

    // Then: MIXED is published VIOLATED with SER (whose classic engine is incremental), once skew-b
    // (index 3,001) is processed, not at the end (main re-decided MIXED when the history had
    // doubled: after 4,096 transactions, here only at the flush); the counterexample is check's
    assertEquals(violatedAt.get(Level.SER), violatedAt.get(Level.MIXED), "published after transaction " + violatedAt
        + " (skew-b is 3001)");
    assertTrue(violatedAt.get(Level.MIXED) >= 3_001 && violatedAt.get(Level.MIXED) <= 3_001 + MAX_LAG,
        "published after transaction " + violatedAt + " (skew-b is 3001)");
    final CheckResult got = online.result();
    assertEquals(Verdict.VIOLATED, got.verdicts().get(Level.MIXED));
    final CheckResult want = OnlineChecker.check(new History(stream), options);
    assertEquals(shapes(mixedOnly(want)), shapes(mixedOnly(got)));
    assertNotNull(mixedOnly(got).isEmpty() ? null : mixedOnly(got).get(0));
    assertTrue(mixedOnly(got).get(0).explanation().contains("skew-a"), mixedOnly(got).get(0).explanation());
  }

  /**
   * Each anomaly as its type, levels, read and cycle edges as a set: the whole check numbers the
   * transactions in their release order, so a stream that releases them in another order may start
   * the same cycle at another transaction.
   */
  private static List<String> shapes(final List<Anomaly> anomalies) {
    return anomalies.stream().map(a -> a.type() + " " + a.name() + " " + a.violates() + " " + a.read() + " "
        + new java.util.TreeSet<>(a.cycle().stream().map(Object::toString).toList())).sorted().toList();
  }

  private static Verdict lastMixed(final List<OnlineEvent> events, final Verdict before) {
    Verdict v = before;
    for (final OnlineEvent e : events) {
      if (e instanceof OnlineEvent.VerdictChanged c && c.level() == Level.MIXED) {
        v = c.to();
      }
    }
    return v;
  }

  private static List<Anomaly> mixedOnly(final CheckResult r) {
    return r.anomalies().stream().filter(a -> a.violates().contains(Level.MIXED)).toList();
  }

  private static History declared(final History h, final Random rnd) {
    final List<Transaction> out = new ArrayList<>();
    for (final Transaction t : h.transactions()) {
      out.add(withLevel(t, rnd.nextInt(6) == 0 ? null : DECLARABLE.get(rnd.nextInt(DECLARABLE.size()))));
    }
    return new History(out);
  }

  private static Transaction withLevel(final Transaction t, final String level) {
    return new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops(), t.tenant(), level,
        t.line());
  }

  /** Any order; with {@code sessionsInOrder}, each session's transactions keep their order. */
  private static List<Transaction> arrival(final History h, final Random rnd, final boolean sessionsInOrder) {
    final List<Transaction> all = new ArrayList<>(h.transactions());
    Collections.shuffle(all, rnd);
    if (!sessionsInOrder) {
      return all;
    }
    final Map<String, List<Transaction>> sessions = new LinkedHashMap<>();
    h.transactions().forEach(t -> sessions.computeIfAbsent(t.session(), x -> new ArrayList<>()).add(t));
    final Map<String, Integer> next = new HashMap<>();
    final List<Transaction> out = new ArrayList<>();
    for (final Transaction t : all) {
      out.add(sessions.get(t.session()).get(next.merge(t.session(), 1, Integer::sum) - 1));
    }
    return out;
  }
}
