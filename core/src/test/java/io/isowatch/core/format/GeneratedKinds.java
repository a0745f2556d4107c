package io.isowatch.core.format;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import java.util.ArrayList;
import java.util.List;

/**
 * The generated histories every fast-path reader test reads (JSONL, EDN, Aion, text): one per
 * simulated level, one on skewed keys without times, and one per injectable anomaly, so that each
 * scanner meets every kind of transaction the generator writes.
 */
final class GeneratedKinds {
  private GeneratedKinds() {}

  /** {@code txns} transactions per level and for the skewed one, {@code injectedTxns} per injected anomaly. */
  static List<History> everyKind(final int txns, final int injectedTxns) {
    final List<History> histories = new ArrayList<>();
    for (final SimulatedLevel level : SimulatedLevel.values()) {
      histories.add(MtHistoryGenerator.generateHistory(
          GeneratorConfig.defaults().withTransactions(txns).withLevel(level).withSeed(11)));
    }
    histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(txns).withKeys(20)
        .withDistribution(new KeyDistribution.Zipf(0.99)).withTimestamps(false).withSeed(12)));
    for (final InjectedKind kind : InjectedKind.values()) {
      histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(injectedTxns)
          .withSeed(13).withInjections(List.of(new Injection(kind, 2)))));
    }
    return histories;
  }
}
