package io.isowatch.cli;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.gen.MtShape;
import io.isowatch.core.gen.SimulatedLevel;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Workload options shared by {@code generate} and {@code bench} (MTC Section V-A1 parameters). */
public final class GeneratorOptions {
  @Option(names = "--sessions", paramLabel = "S", defaultValue = "" + GeneratorConfig.DEFAULT_SESSIONS,
      description = "Client sessions (default: ${DEFAULT-VALUE}).")
  int sessions;

  @Option(names = "--keys", paramLabel = "K", defaultValue = "" + GeneratorConfig.DEFAULT_KEYS,
      description = "Keys (objects) (default: ${DEFAULT-VALUE}).")
  int keys;

  @Option(names = "--dist", paramLabel = "DIST", defaultValue = "uniform", converter = DistributionConverter.class,
      description = "Key access: uniform, zipf[:THETA] (0.99), hotspot[:F1:F2] (the smaller fraction of keys gets the"
          + " larger fraction of accesses, either order; 0.2:0.8) or exponential[:LAMBDA] (over the key range; 10)"
          + " (default: ${DEFAULT-VALUE}).")
  KeyDistribution distribution;

  @Option(names = "--read-only-ratio", paramLabel = "R", defaultValue = "" + GeneratorConfig.DEFAULT_READ_ONLY_RATIO,
      description = "Share of read-only transactions (default: ${DEFAULT-VALUE}).")
  double readOnlyRatio;

  @Option(names = "--shapes", paramLabel = "SHAPES",
      defaultValue = "R1,R1R2,R1W1,R1R2W2,R1R2W1W2,R1W1R2W2",
      description = "MT shapes to draw from, comma-separated: R1, R1R2, R1W1, R1W1W1, R1R2W1, R1R2W2, R1R2W1W2,"
          + " R1W1R2W2, or the presets paper (the default's six) and full (default: ${DEFAULT-VALUE}).")
  String shapes;

  @Option(names = "--inject", paramLabel = "SPEC", split = ",", converter = InjectionConverter.class,
      description = "Anomalies to inject, e.g. LostUpdate:3,WriteSkew:2. Known: LostUpdate, WriteSkew,"
          + " FracturedRead, NonMonotonicRead, CausalityViolation, LongFork, SessionGuaranteeViolation,"
          + " AbortedRead, ThinAirRead, IntermediateRead.")
  List<Injection> injections = new ArrayList<>();

  @Option(names = "--inject-at", paramLabel = "F", defaultValue = "" + GeneratorConfig.DEFAULT_INJECT_AT,
      description = "Where to inject, as a fraction of the history (default: ${DEFAULT-VALUE}).")
  double injectAt;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "" + GeneratorConfig.DEFAULT_SEED,
      description = "Random seed; the same options give the same history (default: ${DEFAULT-VALUE}).")
  long seed;

  /**
   * The generator config these options describe.
   *
   * @throws IllegalArgumentException when the options contradict each other
   */
  GeneratorConfig toConfig(final long transactions, final SimulatedLevel level, final boolean timestamps) {
    return new GeneratorConfig(seed, transactions, sessions, keys, distribution, readOnlyRatio,
        MtShape.parseList(shapes), level,
        timestamps, injections, injectAt);
  }

  /** Reads a key distribution spelling. */
  static final class DistributionConverter extends Converters.Parsing<KeyDistribution> {
    DistributionConverter() {
      super(KeyDistribution::parse);
    }
  }

  /** Reads one injection, {@code Name[:count]}. */
  static final class InjectionConverter extends Converters.Parsing<Injection> {
    InjectionConverter() {
      super(Injection::parse);
    }
  }

  /** Reads {@code ser} or {@code si}. */
  static final class SimulatedLevelConverter extends Converters.Parsing<SimulatedLevel> {
    SimulatedLevelConverter() {
      super(SimulatedLevel::parse);
    }
  }
}
