package io.isowatch.core.gen;

import io.isowatch.core.history.History;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates mini-transaction histories (MTC Definition 9) for tests and benchmarks: a background
 * workload executed by a simulated SER or SI database, plus optional injected anomalies.
 *
 * <p>Guarantees of every generated history: every write is preceded in its transaction by a read of
 * the same key; written values are unique per key and never the initial value 0; each session's
 * {@code seq} runs 0, 1, 2, … and, with timestamps, its transactions follow one another in time.
 * The same config (seed included) always yields the same history.
 *
 * <p>Generation streams: the generator keeps state per key and per session only, never per
 * transaction, so {@link #generate} runs in memory independent of the history's length.
 */
public final class MtHistoryGenerator {
  private MtHistoryGenerator() {}

  /**
   * Emits {@code config.transactions()} transactions to the sink, in history order.
   *
   * @return what was emitted, including the injected anomaly instances
   * @throws IOException when the sink fails
   */
  public static GenerationSummary generate(final GeneratorConfig config, final TransactionSink sink)
      throws IOException {
    final SimClock clock = new SimClock();
    final Emitter out = new Emitter(sink, config.timestamps());
    final Workload workload = new Workload(config, new SplittableRandom(config.seed()));
    final Simulation sim = config.level() == SimulatedLevel.SER
        ? new SerialSimulation(workload, clock, out)
        : new SnapshotSimulation(workload, clock, out);
    final AnomalyInjector injector = new AnomalyInjector(clock, out);

    final long total = config.transactions();
    final long injected = config.injectedTransactions();
    final long injectIndex = Math.min((long) Math.floor(config.injectAt() * total), total - injected);
    List<InjectedAnomaly> instances = List.of();
    boolean pending = injected > 0;
    while (out.emitted() < total) {
      if (pending && out.emitted() >= injectIndex) {
        instances = injector.injectAll(config.injections());
        pending = false;
      } else {
        sim.step();
      }
    }
    return new GenerationSummary(out.emitted(), out.committed(), out.aborted(), instances);
  }

  /** Generates the whole history in memory. */
  public static History generateHistory(final GeneratorConfig config) {
    return generateWithSummary(config).history();
  }

  /** Generates the whole history in memory, with the summary (injected instances included). */
  public static GeneratedHistory generateWithSummary(final GeneratorConfig config) {
    final History.Builder b = History.builder();
    try {
      final GenerationSummary summary = generate(config, b::add);
      return new GeneratedHistory(b.build(), summary);
    } catch (final IOException e) {
      // Adding to an in-memory builder cannot fail.
      throw new UncheckedIOException(e);
    }
  }
}
