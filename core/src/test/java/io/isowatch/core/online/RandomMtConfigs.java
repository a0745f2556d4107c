package io.isowatch.core.online;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.gen.SimulatedLevel;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Random MT executions for the segmentation and checkpoint property tests. */
final class RandomMtConfigs {
  private RandomMtConfigs() {}

  /** {@code min} plus a draw below {@code spread}. */
  record Range(int min, int spread) {
    int draw(final Random rnd) {
      return min + rnd.nextInt(spread);
    }
  }

  /**
   * History {@code i} of a run: an MT execution at SER or SI on uniform keys, with one to four
   * injections of one or two anomalies each (none for every third {@code i}) at a random place.
   * Everything is drawn from {@code rnd}, in an order that fixes the history for a seed.
   */
  static GeneratorConfig config(final Random rnd, final int i, final long seed, final Range transactions,
      final Range sessions, final Range keys) {
    final List<Injection> inject = new ArrayList<>();
    final InjectedKind[] kinds = InjectedKind.values();
    for (int j = 0; j < 1 + rnd.nextInt(4); j++) {
      inject.add(new Injection(kinds[rnd.nextInt(kinds.length)], 1 + rnd.nextInt(2)));
    }
    return GeneratorConfig.defaults().withSeed(seed)
        .withTransactions(transactions.draw(rnd)).withSessions(sessions.draw(rnd))
        .withKeys(keys.draw(rnd)).withDistribution(new KeyDistribution.Uniform())
        .withLevel(rnd.nextBoolean() ? SimulatedLevel.SER : SimulatedLevel.SI)
        .withInjections(i % 3 == 0 ? List.of() : inject).withInjectAt(rnd.nextDouble());
  }
}
