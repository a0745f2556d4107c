package io.isowatch.core.gen;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Parameters of one generated mini-transaction history (MTC Section V-A1: sessions, transactions,
 * objects and object-access distribution, plus the shape mix, the simulated level and injections).
 *
 * @param seed the random seed; equal configs give equal histories
 * @param transactions transactions to emit in total, injected ones included
 * @param sessions background client sessions ({@code s0..s<n-1>}); injected patterns use fresh
 *     sessions of their own
 * @param keys background keys ({@code k0..k<n-1>}); every key starts at the initial value 0
 * @param distribution how transactions pick keys
 * @param readOnlyRatio the probability that a background transaction has a read-only shape
 * @param shapes the shapes to draw from, uniformly within the read-only and the writing ones; kept
 *     once each, in the order of the {@code full} preset (others after it, by name), so that the
 *     order they are given in does not change the history; CAS is an agent-only shape
 * @param level the simulated database behaviour
 * @param timestamps whether transactions carry start and end times (needed for SSER)
 * @param injections anomaly patterns to inject
 * @param injectAt where to inject, as a fraction of the history ({@code 0} = start, {@code 1} =
 *     as late as the injected transactions still fit)
 */
public record GeneratorConfig(
    long seed,
    long transactions,
    int sessions,
    int keys,
    KeyDistribution distribution,
    double readOnlyRatio,
    List<MtShape> shapes,
    SimulatedLevel level,
    boolean timestamps,
    List<Injection> injections,
    double injectAt) {

  public static final long DEFAULT_SEED = 1L;
  public static final long DEFAULT_TRANSACTIONS = 10_000L;
  public static final int DEFAULT_SESSIONS = 20;
  public static final int DEFAULT_KEYS = 1_000;
  public static final double DEFAULT_READ_ONLY_RATIO = 0.2;
  public static final double DEFAULT_INJECT_AT = 0.9;

  public GeneratorConfig {
    if (transactions < 0) {
      throw new IllegalArgumentException("transactions must be >= 0, got " + transactions);
    }
    if (sessions < 1) {
      throw new IllegalArgumentException("sessions must be >= 1, got " + sessions);
    }
    if (keys < 1) {
      throw new IllegalArgumentException("keys must be >= 1, got " + keys);
    }
    if (distribution == null || level == null) {
      throw new IllegalArgumentException("distribution and level are required");
    }
    if (!(readOnlyRatio >= 0 && readOnlyRatio <= 1)) {
      throw new IllegalArgumentException("read-only ratio must be in [0, 1], got " + readOnlyRatio);
    }
    if (!(injectAt >= 0 && injectAt <= 1)) {
      throw new IllegalArgumentException("inject position must be in [0, 1], got " + injectAt);
    }
    shapes = canonical(requireNonEmpty(shapes));
    injections = List.copyOf(injections);
    checkShapes(shapes, readOnlyRatio, keys);
    final long injected = injectedTransactions(injections);
    if (injected > transactions) {
      throw new IllegalArgumentException("the injections need " + injected
          + " transactions but the history has only " + transactions);
    }
  }

  /** The defaults: 10,000 transactions, 20 sessions, 1,000 uniform keys, 20% read-only, all shapes, SER. */
  public static GeneratorConfig defaults() {
    return new GeneratorConfig(DEFAULT_SEED, DEFAULT_TRANSACTIONS, DEFAULT_SESSIONS, DEFAULT_KEYS,
        new KeyDistribution.Uniform(), DEFAULT_READ_ONLY_RATIO, MtShape.paper(), SimulatedLevel.SER,
        true, List.of(), DEFAULT_INJECT_AT);
  }

  /** Transactions the injections add up to. */
  public long injectedTransactions() {
    return injectedTransactions(injections);
  }

  public GeneratorConfig withSeed(final long v) {
    return edit(c -> c.seed = v);
  }

  public GeneratorConfig withTransactions(final long v) {
    return edit(c -> c.transactions = v);
  }

  public GeneratorConfig withSessions(final int v) {
    return edit(c -> c.sessions = v);
  }

  public GeneratorConfig withKeys(final int v) {
    return edit(c -> c.keys = v);
  }

  public GeneratorConfig withDistribution(final KeyDistribution v) {
    return edit(c -> c.distribution = v);
  }

  public GeneratorConfig withReadOnlyRatio(final double v) {
    return edit(c -> c.readOnlyRatio = v);
  }

  public GeneratorConfig withShapes(final List<MtShape> v) {
    return edit(c -> c.shapes = v);
  }

  public GeneratorConfig withLevel(final SimulatedLevel v) {
    return edit(c -> c.level = v);
  }

  public GeneratorConfig withTimestamps(final boolean v) {
    return edit(c -> c.timestamps = v);
  }

  public GeneratorConfig withInjections(final List<Injection> v) {
    return edit(c -> c.injections = v);
  }

  public GeneratorConfig withInjectAt(final double v) {
    return edit(c -> c.injectAt = v);
  }

  private GeneratorConfig edit(final Consumer<Fields> change) {
    final Fields c = new Fields(this);
    change.accept(c);
    return c.build();
  }

  /** The fields as a mutable copy, so that each {@code with} method names only the one it changes. */
  private static final class Fields {
    private long seed;
    private long transactions;
    private int sessions;
    private int keys;
    private KeyDistribution distribution;
    private double readOnlyRatio;
    private List<MtShape> shapes;
    private SimulatedLevel level;
    private boolean timestamps;
    private List<Injection> injections;
    private double injectAt;

    Fields(final GeneratorConfig c) {
      seed = c.seed;
      transactions = c.transactions;
      sessions = c.sessions;
      keys = c.keys;
      distribution = c.distribution;
      readOnlyRatio = c.readOnlyRatio;
      shapes = c.shapes;
      level = c.level;
      timestamps = c.timestamps;
      injections = c.injections;
      injectAt = c.injectAt;
    }

    GeneratorConfig build() {
      return new GeneratorConfig(seed, transactions, sessions, keys, distribution, readOnlyRatio, shapes, level,
          timestamps, injections, injectAt);
    }
  }

  private static List<MtShape> requireNonEmpty(final List<MtShape> shapes) {
    if (shapes == null || shapes.isEmpty()) {
      throw new IllegalArgumentException("at least one MT shape is required");
    }
    return shapes;
  }

  private static List<MtShape> canonical(final List<MtShape> shapes) {
    final List<MtShape> order = MtShape.PRESETS.get("full");
    final Map<String, MtShape> distinct = new LinkedHashMap<>();
    shapes.forEach(s -> distinct.putIfAbsent(s.name(), s));
    return distinct.values().stream()
        .sorted(Comparator.comparingInt((MtShape s) -> order.indexOf(s) < 0 ? order.size() : order.indexOf(s))
            .thenComparing(MtShape::name))
        .toList();
  }

  private static void checkShapes(final List<MtShape> shapes, final double readOnlyRatio, final int keys) {
    if (shapes.stream().anyMatch(MtShape::cas)) {
      throw new IllegalArgumentException("the generator simulates reads and writes only; CAS is a shape of the agent");
    }
    final boolean anyReadOnly = shapes.stream().anyMatch(MtShape::isReadOnly);
    final boolean anyWriting = shapes.stream().anyMatch(s -> !s.isReadOnly());
    if (readOnlyRatio > 0 && !anyReadOnly) {
      throw new IllegalArgumentException("read-only ratio " + readOnlyRatio
          + " needs a read-only shape (R1 or R1R2) among " + shapes);
    }
    if (readOnlyRatio < 1 && !anyWriting) {
      throw new IllegalArgumentException("read-only ratio " + readOnlyRatio
          + " needs a writing shape among " + shapes + " (or use read-only ratio 1)");
    }
    if (keys < 2 && shapes.stream().anyMatch(s -> s.keyCount() == 2)) {
      throw new IllegalArgumentException("two-key shapes need at least 2 keys, got " + keys);
    }
  }

  private static long injectedTransactions(final List<Injection> injections) {
    long n = 0;
    for (final Injection i : injections) {
      n += (long) i.count() * i.kind().transactions();
    }
    return n;
  }
}
