package io.isowatch.streams;

import io.isowatch.core.check.Level;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The isolation levels each tenant is promised (config {@code tenant.promised.levels}), exported as
 * {@code isowatch_promised_level{tenant,level}} so that an alert can page when an anomaly violates a
 * level the tenant was promised, and only then: a canary deliberately run at READ COMMITTED promises
 * nothing and its lost updates do not page.
 *
 * <p>Entries are {@code TENANT:LEVEL}, one per promised level; {@code *:LEVEL} applies to every
 * tenant without entries of its own; {@code TENANT:NONE} lists a tenant that is promised nothing
 * (so the {@code *} entries do not apply to it). With no entries no tenant is promised anything.
 *
 * @param perTenant tenants with entries of their own and their levels (possibly none)
 * @param others the levels of every other tenant (the {@code *} entries)
 */
public record PromisedLevels(Map<String, Set<Level>> perTenant, Set<Level> others) {
  /** The tenant that stands for every tenant without entries of its own. */
  public static final String ANY_TENANT = "*";

  /** The level that promises nothing. */
  public static final String NONE = "NONE";

  public PromisedLevels {
    final Map<String, Set<Level>> copy = new HashMap<>();
    perTenant.forEach((t, l) -> copy.put(t, Collections.unmodifiableSet(l.isEmpty()
        ? EnumSet.noneOf(Level.class) : EnumSet.copyOf(l))));
    perTenant = Collections.unmodifiableMap(copy);
    others = Collections.unmodifiableSet(others.isEmpty() ? EnumSet.noneOf(Level.class) : EnumSet.copyOf(others));
  }

  /** Nothing promised to anyone. */
  public static PromisedLevels none() {
    return new PromisedLevels(Map.of(), Set.of());
  }

  /**
   * Parses the entries of {@code tenant.promised.levels}.
   *
   * @throws IllegalArgumentException for an entry that is not {@code TENANT:LEVEL}
   */
  public static PromisedLevels parse(final List<String> entries) {
    final Map<String, Set<Level>> perTenant = new HashMap<>();
    final Set<Level> others = EnumSet.noneOf(Level.class);
    for (final String raw : entries) {
      final String entry = raw.trim();
      if (entry.isEmpty()) {
        continue;
      }
      final int colon = entry.lastIndexOf(':');
      if (colon <= 0 || colon == entry.length() - 1) {
        throw new IllegalArgumentException("'" + entry + "' is not TENANT:LEVEL (e.g. *:SER, canary:NONE)");
      }
      final String tenant = entry.substring(0, colon).trim();
      final String levelText = entry.substring(colon + 1).trim();
      final Set<Level> levels = ANY_TENANT.equals(tenant) ? others
          : perTenant.computeIfAbsent(tenant, t -> EnumSet.noneOf(Level.class));
      if (!NONE.equals(levelText.toUpperCase(Locale.ROOT))) {
        levels.add(Level.parse(levelText));
      }
    }
    return new PromisedLevels(perTenant, others);
  }

  /** Every level promised to some tenant. */
  public Set<Level> all() {
    final Set<Level> all = EnumSet.noneOf(Level.class);
    all.addAll(others);
    perTenant.values().forEach(all::addAll);
    return all;
  }

  /** The levels promised to {@code tenant}. */
  public Set<Level> of(final String tenant) {
    return perTenant.getOrDefault(tenant, others);
  }
}
