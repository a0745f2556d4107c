package io.isowatch.agent.target;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The isolation level of each transaction: one level for all ({@code serializable}), or a weighted
 * mix ({@code mix:serializable=1,read-committed=3}: each transaction draws its level, a quarter
 * SERIALIZABLE, three quarters READ COMMITTED). The level a transaction ran at is recorded as its
 * declared {@code level}, which {@code isowatch check --levels MIXED} judges it by.
 *
 * @param shares the levels with their positive weights, in the order given, each level once
 */
public record IsolationMix(List<Share> shares) {
  /** A level and its weight. */
  public record Share(IsolationLevel level, int weight) {}

  private static final String PREFIX = "mix:";

  public IsolationMix {
    shares = List.copyOf(shares);
    if (shares.isEmpty()) {
      throw new IllegalArgumentException("an isolation mix needs at least one level");
    }
  }

  /** Every transaction at {@code level}. */
  public static IsolationMix of(final IsolationLevel level) {
    return new IsolationMix(List.of(new Share(level, 1)));
  }

  /**
   * Reads {@code LEVEL} or {@code mix:LEVEL=WEIGHT,…}.
   *
   * @throws IllegalArgumentException with a message for the user
   */
  public static IsolationMix parse(final String text) {
    final String s = text.trim();
    if (!s.toLowerCase(java.util.Locale.ROOT).startsWith(PREFIX)) {
      return of(IsolationLevel.parse(s));
    }
    final List<Share> shares = new ArrayList<>();
    for (final String part : s.substring(PREFIX.length()).split(",")) {
      final int eq = part.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("invalid isolation mix part '" + part.trim()
            + "' (expected LEVEL=WEIGHT, e.g. mix:serializable=1,read-committed=3)");
      }
      final IsolationLevel level = IsolationLevel.parse(part.substring(0, eq));
      final int weight;
      try {
        weight = Integer.parseInt(part.substring(eq + 1).trim());
      } catch (final NumberFormatException e) {
        throw new IllegalArgumentException("invalid weight in isolation mix part '" + part.trim() + "'");
      }
      if (weight < 1) {
        throw new IllegalArgumentException("weights of an isolation mix must be >= 1, got '" + part.trim() + "'");
      }
      if (shares.stream().anyMatch(x -> x.level() == level)) {
        throw new IllegalArgumentException("isolation level " + level.label() + " appears twice in the mix");
      }
      shares.add(new Share(level, weight));
    }
    return new IsolationMix(shares);
  }

  /** True when every transaction runs at one level. */
  public boolean single() {
    return shares.size() == 1;
  }

  /** The first level given: the one connections are opened at. */
  public IsolationLevel first() {
    return shares.get(0).level();
  }

  /** A level drawn by weight. */
  public IsolationLevel pick(final Random rnd) {
    if (single()) {
      return first();
    }
    final int total = shares.stream().mapToInt(Share::weight).sum();
    int x = rnd.nextInt(total);
    for (final Share s : shares) {
      x -= s.weight();
      if (x < 0) {
        return s.level();
      }
    }
    throw new IllegalStateException("unreachable");
  }

  /** The CLI spelling: the level's label, or {@code mix:serializable=1,read-committed=3}. */
  public String label() {
    if (single()) {
      return first().label();
    }
    final List<String> parts = new ArrayList<>();
    shares.forEach(s -> parts.add(s.level().label() + "=" + s.weight()));
    return PREFIX + String.join(",", parts);
  }

  @Override
  public String toString() {
    return label();
  }
}
