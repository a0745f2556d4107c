package io.isowatch.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
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
 * {@link MixedIncremental} against the whole check ({@link MixedLevelCheck}) on every prefix of
 * random small MT streams with random declared levels, arriving in three orders: the history's,
 * sessions interleaved at random (readers may come before their writers), and any order. Whenever
 * the incremental check decides (SATISFIED or VIOLATED), the whole check of the transactions that
 * arrived says the same; once VIOLATED it stays so; and the final decision does not depend on the
 * arrival order.
 */
class MixedIncrementalTest {
  private static final int STREAMS = Integer.getInteger("isowatch.mixedinc.count", 10_000);
  private static final InjectedKind[] KINDS = {InjectedKind.FRACTURED_READ, InjectedKind.NON_MONOTONIC_READ,
      InjectedKind.CAUSALITY_VIOLATION, InjectedKind.LONG_FORK, InjectedKind.SESSION_GUARANTEE_VIOLATION,
      InjectedKind.WRITE_SKEW, InjectedKind.LOST_UPDATE};

  @Test
  void shouldDecideAsTheWholeCheckOnEveryPrefixInAnyArrivalOrder() {
    final List<String> failures = new ArrayList<>();
    final int[] decided = new int[2]; // prefixes decided: satisfied, violated
    int prefixes = 0;
    int finalDecided = 0;
    for (int i = 0; i < STREAMS; i++) {
      // Given: a small MT history, sometimes with an injected anomaly, each transaction declaring a level
      final long seed = 41_000L + i;
      final Random rnd = new Random(seed);
      GeneratorConfig config = GeneratorConfig.defaults().withSeed(seed).withTransactions(4 + rnd.nextInt(7))
          .withSessions(1 + rnd.nextInt(3)).withKeys(2 + rnd.nextInt(3))
          .withLevel(rnd.nextBoolean() ? SimulatedLevel.SER : SimulatedLevel.SI);
      if (rnd.nextInt(3) > 0) {
        config = config.withInjections(List.of(new Injection(KINDS[rnd.nextInt(KINDS.length)], 1)));
      }
      final History h = MtHistoryGenerator.generateHistory(config);
      final Map<String, Level> declared = new HashMap<>();
      h.transactions().forEach(t -> declared.put(t.id(), Level.MIXABLE.get(rnd.nextInt(Level.MIXABLE.size()))));
      final List<WeakLevelCheck.Entry> inOrder = entries(h);
      MixedIncremental.State last = null;
      for (int mode = 0; mode < 3; mode++) {
        final List<WeakLevelCheck.Entry> arrival = arrival(inOrder, mode, rnd);
        final String what = "seed " + seed + " mode " + mode + " declared " + declared + "\narrival "
            + arrival.stream().map(e -> e.txn().id()).toList() + "\n" + h.transactions();

        // When: the transactions arrive one by one
        final MixedIncremental inc = new MixedIncremental(0L, t -> declared.get(t.id()));
        boolean violated = false;
        for (int p = 0; p < arrival.size(); p++) {
          inc.add(arrival.get(p).txn(), arrival.get(p).session(), arrival.get(p).rank());
          final MixedIncremental.State state = inc.state();
          prefixes++;
          // Then: a decision is the whole check's of the transactions that arrived; a violation stays
          if (violated && state != MixedIncremental.State.VIOLATED && state != MixedIncremental.State.OFF) {
            failures.add("VIOLATED, then " + state + " at " + p + ": " + what);
          }
          if (state == MixedIncremental.State.SATISFIED || state == MixedIncremental.State.VIOLATED) {
            final Verdict whole = new MixedLevelCheck(arrival.subList(0, p + 1), 0L, false, false,
                t -> declared.get(t.id())).decide(EnumSet.of(Level.MIXED)).verdict();
            final Verdict got = state == MixedIncremental.State.SATISFIED ? Verdict.SATISFIED : Verdict.VIOLATED;
            decided[got == Verdict.SATISFIED ? 0 : 1]++;
            if (whole != got) {
              failures.add("incremental " + got + ", whole " + whole + " after " + (p + 1) + ": " + what);
            }
            violated |= got == Verdict.VIOLATED;
          }
        }
        // And: the final decision is the same in every order that decides
        final MixedIncremental.State state = inc.state();
        if (state == MixedIncremental.State.SATISFIED || state == MixedIncremental.State.VIOLATED) {
          finalDecided++;
          if (last != null && last != state) {
            failures.add("final " + state + " in this order, " + last + " in another: " + what);
          }
          last = state;
        }
      }
    }
    assertEquals(List.of(), failures.size() > 3 ? failures.subList(0, 3) : failures, failures.size() + " failures");
    // Not vacuous: most prefixes and most whole streams are decided incrementally, both ways
    assertTrue(decided[0] + decided[1] > prefixes / 2, "decided " + decided[0] + "+" + decided[1] + " of " + prefixes);
    assertTrue(decided[1] > prefixes / 20, "violated prefixes " + decided[1] + " of " + prefixes);
    assertTrue(finalDecided > STREAMS, "streams decided at the end: " + finalDecided + " of " + 3 * STREAMS);
  }

  @Test
  void shouldKeepAViolationWhenAValueNobodyReadIsWrittenAgainAndStopWhenAReadOne() {
    // Given: a write skew between two SER transactions; then T5 writes z=9 again, which T3 wrote and
    // overwrote (nobody read it); then T9 writes x=1 again, which T8 read
    final History h = io.isowatch.core.testkit.HistoryDsl.history("""
        T1 s1 r(x,0) r(y,0) w(x,1)
        T2 s2 r(x,0) r(y,0) w(y,2)
        T3 s3 r(z,0) w(z,9) w(z,10)
        T5 s4 r(z,10) w(z,9)
        T8 s5 r(x,1) w(x,11)
        T9 s6 r(x,11) w(x,1)
        """);
    final List<WeakLevelCheck.Entry> entries = entries(h);
    final MixedIncremental inc = new MixedIncremental(0L, t -> Level.SER);
    final List<MixedIncremental.State> states = new ArrayList<>();
    final List<Verdict> whole = new ArrayList<>();

    // When
    for (int p = 0; p < entries.size(); p++) {
      inc.add(entries.get(p).txn(), entries.get(p).session(), entries.get(p).rank());
      states.add(inc.state());
      whole.add(new MixedLevelCheck(entries.subList(0, p + 1), 0L, false, false, t -> Level.SER)
          .decide(EnumSet.of(Level.MIXED)).verdict());
    }

    // Then: VIOLATED from T2 on, also after z=9 is written twice (unread: the whole check agrees);
    // off once x=1, which T8 read, is written again (then the whole check decides)
    assertEquals(List.of(MixedIncremental.State.SATISFIED, MixedIncremental.State.VIOLATED,
        MixedIncremental.State.VIOLATED, MixedIncremental.State.VIOLATED, MixedIncremental.State.VIOLATED,
        MixedIncremental.State.OFF), states);
    assertEquals(List.of(Verdict.SATISFIED, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED, Verdict.VIOLATED),
        whole.subList(0, 5));
    assertEquals(2, inc.violatedAt());
    assertTrue(inc.offReason().contains("NON_UNIQUE_WRITE"), inc.offReason());
  }

  /** Mode 0: the history's order; 1: sessions interleaved at random; 2: any order. */
  static List<WeakLevelCheck.Entry> arrival(final List<WeakLevelCheck.Entry> inOrder, final int mode,
      final Random rnd) {
    final List<WeakLevelCheck.Entry> all = new ArrayList<>(inOrder);
    if (mode == 0) {
      return all;
    }
    Collections.shuffle(all, rnd);
    if (mode == 2) {
      return all;
    }
    final Map<Integer, List<WeakLevelCheck.Entry>> sessions = new LinkedHashMap<>();
    inOrder.forEach(e -> sessions.computeIfAbsent(e.session(), x -> new ArrayList<>()).add(e));
    final Map<Integer, Integer> next = new HashMap<>();
    final List<WeakLevelCheck.Entry> out = new ArrayList<>();
    for (final WeakLevelCheck.Entry e : all) {
      out.add(sessions.get(e.session()).get(next.merge(e.session(), 1, Integer::sum) - 1));
    }
    return out;
  }

  static List<WeakLevelCheck.Entry> entries(final History h) {
    final Map<String, Integer> rank = new HashMap<>();
    final Map<String, Integer> session = new HashMap<>();
    final List<WeakLevelCheck.Entry> out = new ArrayList<>();
    for (final Transaction t : h.transactions()) {
      out.add(new WeakLevelCheck.Entry(t, session.computeIfAbsent(t.session(), x -> session.size()),
          rank.merge(t.session(), 1, Integer::sum)));
    }
    return out;
  }
}
