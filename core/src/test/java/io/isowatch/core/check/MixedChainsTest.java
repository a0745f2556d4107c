package io.isowatch.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.WeakLevel;
import io.isowatch.core.oracle.WeakLevelOracle;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link MixedChains}, the linear decision of MIXED when WR fixes every version order: on small
 * mini-transaction histories (simulated SER or SI, with and without injected anomalies) whose
 * transactions declare random levels, its verdict is the search's ({@link MixedLevelCheck} without
 * it) and the brute-force oracle's of paper 003; its counterexamples name a declared reader; and it
 * decides histories far above the search's bound.
 */
class MixedChainsTest {
  private static final int HISTORIES = 4_000;
  private static final List<Level> DECLARABLE = Level.MIXABLE;
  private static final InjectedKind[] KINDS = {InjectedKind.FRACTURED_READ, InjectedKind.NON_MONOTONIC_READ,
      InjectedKind.CAUSALITY_VIOLATION, InjectedKind.LONG_FORK, InjectedKind.SESSION_GUARANTEE_VIOLATION,
      InjectedKind.WRITE_SKEW, InjectedKind.LOST_UPDATE};

  @Test
  void shouldDecideAsTheSearchAndTheOracleDoWhenVersionOrdersAreKnown() {
    final List<String> failures = new ArrayList<>();
    int chained = 0;
    int violated = 0;
    for (int i = 0; i < HISTORIES; i++) {
      // Given: a small MT history, sometimes with an injected anomaly, each transaction declaring a level
      final Random rnd = new Random(7_000 + i);
      GeneratorConfig config = GeneratorConfig.defaults().withSeed(7_000 + i).withTransactions(4 + rnd.nextInt(6))
          .withSessions(1 + rnd.nextInt(3)).withKeys(2 + rnd.nextInt(3))
          .withLevel(rnd.nextBoolean() ? SimulatedLevel.SER : SimulatedLevel.SI);
      if (rnd.nextInt(3) == 0) {
        config = config.withInjections(List.of(new Injection(KINDS[rnd.nextInt(KINDS.length)], 1)));
      }
      final History h = MtHistoryGenerator.generateHistory(config);
      final Map<String, Level> declared = new HashMap<>();
      h.transactions().forEach(t -> declared.put(t.id(), DECLARABLE.get(rnd.nextInt(DECLARABLE.size()))));
      final List<WeakLevelCheck.Entry> entries = entries(h);

      // When
      final Level[] level = levels(entries, declared);
      final WeakGraph graph = new WeakGraph(entries, 0L, false, true);
      if (graph.readViolation() != null || graph.unknownReason() != null) {
        continue;
      }
      final MixedChains.Outcome fast = new MixedChains(graph, level).decide();
      if (fast == null) {
        continue;
      }
      chained++;
      final MixedLevelCheck.Result search = new MixedLevelCheck(entries, 0L, false, true, t -> declared.get(t.id()))
          .bySearchOnly().decide(EnumSet.of(Level.MIXED));
      final MixedLevelCheck.Result both = new MixedLevelCheck(entries, 0L, false, true, t -> declared.get(t.id()))
          .decide(EnumSet.of(Level.MIXED));
      final boolean oracle = WeakLevelOracle.decideMixed(h, 0L, t -> WeakLevel.valueOf(declared.get(t.id()).name()));

      // Then
      final Verdict got = fast.cycle() == null ? Verdict.SATISFIED : Verdict.VIOLATED;
      final String what = "seed " + (7_000 + i) + " declared " + declared + "\n" + h.transactions();
      if (got != (oracle ? Verdict.SATISFIED : Verdict.VIOLATED)) {
        failures.add("chains " + got + ", oracle " + oracle + ": " + what);
      } else if (search.verdict() != Verdict.UNKNOWN && search.verdict() != got) {
        failures.add("chains " + got + ", search " + search.verdict() + ": " + what);
      } else if (both.verdict() != got || (got == Verdict.VIOLATED) != (both.witness() != null)) {
        failures.add("the check said " + both.verdict() + " with witness " + both.witness() + ": " + what);
      } else if (got == Verdict.VIOLATED && !both.witness().explanation().contains("declared")) {
        failures.add("a counterexample that names no declared level: " + both.witness().explanation());
      }
      violated += got == Verdict.VIOLATED ? 1 : 0;
    }
    assertEquals(List.of(), failures.size() > 5 ? failures.subList(0, 5) : failures, failures.size() + " failures");
    assertTrue(chained > HISTORIES / 2, "decided by the chains: " + chained);
    assertTrue(violated > chained / 10 && violated < chained * 9 / 10, "violated " + violated + " of " + chained);
  }

  @Test
  void shouldDecideMixedWhenTheHistoryIsFarAboveTheSearchBound() {
    // Given: 100,000 MT transactions simulated under SI, with three write skews injected
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(5)
        .withTransactions(100_000).withSessions(20).withKeys(1_000).withLevel(SimulatedLevel.SI)
        .withInjections(List.of(new Injection(InjectedKind.WRITE_SKEW, 3))));
    final List<WeakLevelCheck.Entry> entries = entries(h);
    assertTrue(entries.size() > MixedLevelCheck.MAX_TRANSACTIONS);

    // When: every transaction declares SI; every one SER; half SI and half RC
    final MixedLevelCheck.Result si = new MixedLevelCheck(entries, 0L, false, true, t -> Level.SI)
        .decide(EnumSet.of(Level.MIXED));
    final MixedLevelCheck.Result ser = new MixedLevelCheck(entries, 0L, false, true, t -> Level.SER)
        .decide(EnumSet.of(Level.MIXED));
    final MixedLevelCheck.Result mix = new MixedLevelCheck(entries, 0L, false, true,
        t -> (t.id().hashCode() & 1) == 0 ? Level.SI : Level.RC).decide(EnumSet.of(Level.MIXED));

    // Then: decided, as the uniform levels are (a write skew is allowed by SI, not by SER)
    assertEquals(Verdict.SATISFIED, si.verdict(), si.unknownReason());
    assertEquals(Verdict.VIOLATED, ser.verdict(), ser.unknownReason());
    assertEquals(Verdict.SATISFIED, mix.verdict(), mix.unknownReason());
    assertNotNull(ser.witness());
    assertTrue(ser.witness().explanation().contains("declared SER"), ser.witness().explanation());
  }

  @Test
  void shouldProveAViolationAfterALostUpdateAndFindACommitOrderWhenThereIsOne() {
    // Given: 50,000 MT transactions with two lost updates (forks in two keys' version orders)
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(6)
        .withTransactions(50_000).withSessions(20).withKeys(1_000).withLevel(SimulatedLevel.SER)
        .withInjections(List.of(new Injection(InjectedKind.LOST_UPDATE, 2))));
    final List<WeakLevelCheck.Entry> entries = entries(h);

    // When: every transaction declares SER; then RC, which allows a lost update
    final MixedLevelCheck.Result ser = new MixedLevelCheck(entries, 0L, false, true, t -> Level.SER)
        .decide(EnumSet.of(Level.MIXED));
    final MixedLevelCheck.Result rc = new MixedLevelCheck(entries, 0L, false, true, t -> Level.RC)
        .decide(EnumSet.of(Level.MIXED));

    // Then: the lost update between two SER readers is a cycle of forced arcs; without one, the
    // order of the branches is open, and the fork search finds one that works (above the general
    // search's bound, where this was UNKNOWN before the fork search)
    assertEquals(Verdict.VIOLATED, ser.verdict(), ser.unknownReason());
    assertEquals("LostUpdate", ser.witness().name(), ser.witness().explanation());
    assertEquals(Verdict.SATISFIED, rc.verdict(), rc.unknownReason());
  }

  private static List<WeakLevelCheck.Entry> entries(final History h) {
    final Map<String, Integer> rank = new HashMap<>();
    final Map<String, Integer> session = new HashMap<>();
    final List<WeakLevelCheck.Entry> out = new ArrayList<>();
    for (final Transaction t : h.transactions()) {
      out.add(new WeakLevelCheck.Entry(t, session.computeIfAbsent(t.session(), x -> session.size()),
          rank.merge(t.session(), 1, Integer::sum)));
    }
    return out;
  }

  private static Level[] levels(final List<WeakLevelCheck.Entry> entries, final Map<String, Level> declared) {
    final WeakGraph g = new WeakGraph(entries, 0L, false, true);
    final Level[] level = new Level[g.n + 1];
    for (int t = 1; t <= g.n; t++) {
      level[t] = declared.get(g.txn(t).id());
    }
    return level;
  }
}
