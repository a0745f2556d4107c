package io.isowatch.core.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.RandomHistories;
import io.isowatch.core.oracle.WeakHistories;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The array-based decision of the weak levels ({@link WeakIndex}, {@link WeakDecision}) against the
 * arc graph it replaced for deciding ({@link WeakCounterexamples} over {@link WeakGraph}, which
 * still explains): the same verdicts, the same unknown reason and the same counterexamples, on
 * random small histories (every arrival order, complete or not, with or without a horizon) and on
 * generated mini-transaction histories of a few thousand transactions with injected anomalies and
 * many sessions, with CC's vector clocks bounded to a few ints, so that they are built one session
 * at a time (then the counterexample is the one the arc graph finds with clocks so bounded).
 */
class WeakDecisionMatchesArcGraphTest {
  private static final int COUNT = Integer.getInteger("isowatch.weak.count", 10_000);
  private static final Set<Level> WEAK = EnumSet.copyOf(Level.WEAK);

  @Test
  void shouldDecideAsTheArcGraphOnRandomSmallHistories() {
    final Random rnd = new Random(12_070_000L);
    int violated = 0;
    for (int i = 0; i < COUNT; i++) {
      // Given
      final long seed = 12_070_000L + i;
      final History h;
      final Long initial;
      if (i % 3 == 2) {
        final WeakHistories.Generated w = WeakHistories.generate(seed);
        h = w.history();
        initial = w.options().initialValue();
      } else {
        final RandomHistories.Generated g = i % 3 == 0 ? RandomHistories.generate(seed)
            : RandomHistories.generateWithBlindWrites(seed);
        h = g.history();
        initial = g.options().initialValue();
      }
      final List<WeakLevelCheck.Entry> entries = entries(h);
      Collections.shuffle(entries, rnd);
      final boolean horizon = rnd.nextInt(4) == 0;
      final boolean complete = rnd.nextBoolean();
      // When, Then
      final long[] cells = {1, 2L * (entries.size() + 1), WeakLevelCheck.CLOCK_CELLS};
      violated += same(entries, initial, horizon, complete, cells[rnd.nextInt(3)], "seed " + seed);
    }
    assertTrue(violated > COUNT / 10, "violations exercised: " + violated);
  }

  @Test
  void shouldDecideAsTheArcGraphOnGeneratedHistoriesWithInjectedAnomaliesAndManySessions() {
    final String[] injections = {"", "FracturedRead:2", "NonMonotonicRead:2", "CausalityViolation:2", "LongFork:1",
        "SessionGuaranteeViolation:1", "LostUpdate:2", "WriteSkew:2", "ThinAirRead:1"};
    int violated = 0;
    for (int i = 0; i < 36; i++) {
      // Given: 3,000 transactions over up to 60 sessions and 50 keys
      final GeneratorConfig config = GeneratorConfig.defaults().withSeed(90 + i).withTransactions(3_000)
          .withSessions(1 + (i * 7) % 60).withKeys(50)
          .withLevel(i % 2 == 0 ? SimulatedLevel.SER : SimulatedLevel.SI)
          .withInjections(Injection.parseList(injections[i % injections.length]));
      final History h = MtHistoryGenerator.generateHistory(config);
      // When, Then: clocks of one, then of three sessions at a time, then unbounded
      for (final long cells : new long[] {1, 3L * (h.size() + 1), WeakLevelCheck.CLOCK_CELLS}) {
        violated += same(entries(h), 0L, false, true, cells, config.toString());
      }
    }
    assertTrue(violated > 0);
  }

  @Test
  void shouldExplainACausalityViolationWithTheClocksOfOneSessionAtATime() {
    // Given: causality violations among 40 sessions, clocks bounded to one int (one session at a time)
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(7).withTransactions(2_000)
        .withSessions(40).withKeys(50).withInjections(Injection.parseList("CausalityViolation:2")));
    // When
    final WeakLevelCheck.Result bounded = new WeakLevelCheck(entries(h), 0L, false, true, 1)
        .decide(WEAK, EnumSet.allOf(Level.class));
    final WeakLevelCheck.Result unbounded = new WeakLevelCheck(entries(h), 0L, false, true)
        .decide(WEAK, EnumSet.allOf(Level.class));
    // Then: the same verdicts, and a counterexample of CC (the chunks may find another cycle)
    assertEquals(unbounded.verdicts(), bounded.verdicts());
    assertEquals(Verdict.VIOLATED, bounded.verdicts().get(Level.CC));
    assertTrue(bounded.witnesses().get(Level.CC).violates().contains(Level.CC), bounded.witnesses().toString());
  }

  @Test
  void shouldBoundTheClocksOfManySessionsInsteadOfOverflowing() {
    // Given: 10^6 transactions in 10^4 sessions would need 10^10 clock ints at once
    final long cells = WeakLevelCheck.CLOCK_CELLS;
    // When
    final int width = WeakDecision.clockWidth(10_000, 1_000_000, cells);
    // Then: a chunk of sessions whose clocks fit in the bound
    assertTrue(width >= 1 && (long) width * 1_000_001 <= cells, "width " + width);
    assertEquals(1, WeakDecision.clockWidth(10_000, 1_000_000, 1));
    assertEquals(20, WeakDecision.clockWidth(20, 1_000_000, cells));
  }

  /** Checks both ways, asserts the same result, and returns 1 when some level was violated. */
  private static int same(final List<WeakLevelCheck.Entry> entries, final Long initial, final boolean horizon,
      final boolean complete, final long cells, final String what) {
    final WeakLevelCheck.Result fast = new WeakLevelCheck(entries, initial, horizon, complete, cells)
        .decide(WEAK, EnumSet.allOf(Level.class));
    final WeakLevelCheck.Result graph = new WeakCounterexamples(new WeakGraph(entries, initial, horizon, complete),
        cells).decide(WEAK, EnumSet.allOf(Level.class));
    final WeakLevelCheck.Result unbounded = cells == WeakLevelCheck.CLOCK_CELLS ? graph
        : new WeakCounterexamples(new WeakGraph(entries, initial, horizon, complete))
            .decide(WEAK, EnumSet.allOf(Level.class));
    assertEquals(unbounded.verdicts(), fast.verdicts(), what);
    assertEquals(graph.verdicts(), fast.verdicts(), what);
    assertEquals(graph.unknownReason(), fast.unknownReason(), what);
    assertEquals(graph.witnesses(), fast.witnesses(), what);
    return fast.verdicts().containsValue(Verdict.VIOLATED) ? 1 : 0;
  }

  private static List<WeakLevelCheck.Entry> entries(final History h) {
    final Map<String, Integer> sessions = new HashMap<>();
    final Map<String, Integer> ranks = new HashMap<>();
    final List<WeakLevelCheck.Entry> out = new ArrayList<>();
    for (final Transaction t : h.transactions()) {
      final int session = sessions.computeIfAbsent(t.session(), s -> sessions.size());
      final int rank = ranks.merge(t.session(), 1, Integer::sum);
      out.add(new WeakLevelCheck.Entry(t, session, rank));
    }
    return out;
  }
}
