package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.RandomHistories;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@link DependencyGraph} builds only the strongest requested level's graph while it stays
 * acyclic, and the weaker ones from a replay of their inputs at its first refusal: the results
 * are those of building every graph from the start ({@code -Disowatch.graph.defer-weaker=false}).
 */
class DeferredLevelGraphsTest {
  private static final List<Set<Level>> LEVEL_SETS = List.of(Level.CLASSIC, EnumSet.of(Level.SER, Level.SI),
      EnumSet.of(Level.SSER, Level.SI), EnumSet.of(Level.SSER, Level.SER), EnumSet.of(Level.PC, Level.SER),
      EnumSet.of(Level.SER));

  @Test
  void shouldBuildOnlyTheStrongestGraphWhenTheHistoryIsValid() {
    // Given: a valid generated history and SSER, SER, SI requested
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(3_000).withSeed(3));

    // When
    final OnlineChecker checker = checkWhole(h, CheckOptions.defaults().withLevels(Level.CLASSIC));

    // Then: SSER's graph only, and every level SATISFIED
    assertEquals(1, checker.builtLevelGraphs());
    for (final Level level : Level.CLASSIC) {
      assertEquals(Verdict.SATISFIED, checker.result().verdicts().get(level), level.name());
    }
  }

  @Test
  void shouldBuildEveryGraphWhenTheStrongestRefusesAGroup() {
    // Given: a lost update, a cycle in every level's graph
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(2_000).withSeed(5)
        .withInjections(List.of(new Injection(InjectedKind.LOST_UPDATE, 1))));

    // When
    final OnlineChecker checker = checkWhole(h, CheckOptions.defaults().withLevels(Level.CLASSIC));

    // Then
    assertEquals(3, checker.builtLevelGraphs());
    assertEquals(Verdict.VIOLATED, checker.result().verdicts().get(Level.SI));
  }

  @Test
  void shouldReportWhatEagerGraphsReportWhenHistoriesHaveAnomalies() {
    // Given: random small histories (cycles of every kind) and generated ones with every injectable anomaly
    final List<History> histories = new ArrayList<>();
    for (long seed = 0; seed < 1_500; seed++) {
      histories.add(RandomHistories.generate(seed).history());
    }
    for (final InjectedKind kind : InjectedKind.values()) {
      histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(600).withSeed(17)
          .withInjections(List.of(new Injection(kind, 3)))));
    }
    for (final SimulatedLevel level : SimulatedLevel.values()) {
      histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(1_000).withKeys(30)
          .withDistribution(new KeyDistribution.Zipf(0.99)).withLevel(level).withSeed(19)));
    }

    int cyclic = 0;
    for (final History h : histories) {
      for (final Set<Level> levels : LEVEL_SETS) {
        final CheckOptions options = CheckOptions.defaults().withLevels(levels);
        // When
        final CheckResult deferred = Results.withoutTime(OnlineChecker.check(h, options));
        final CheckResult eager = Results.withoutTime(eagerly(() -> OnlineChecker.check(h, options)));

        // Then: the same verdicts, anomalies (every cycle, step by step), findings and stats
        assertEquals(eager, deferred, levels + " on " + h.transactions().size() + " transactions");
        if (deferred.verdicts().get(Level.SER) == Verdict.VIOLATED) {
          cyclic++;
        }
      }
    }
    assertTrue(cyclic > 500, "too few histories with a SER violation to exercise the replay: " + cyclic);
  }

  private static OnlineChecker checkWhole(final History h, final CheckOptions options) {
    final OnlineChecker checker = new OnlineChecker(options, OnlineOptions.batch());
    for (final Transaction t : h.transactions()) {
      checker.accept(t);
    }
    checker.flush();
    return checker;
  }

  private static <T> T eagerly(final Supplier<T> run) {
    System.setProperty(DependencyGraph.DEFER_PROPERTY, "false");
    try {
      return run.get();
    } finally {
      System.clearProperty(DependencyGraph.DEFER_PROPERTY);
    }
  }
}
