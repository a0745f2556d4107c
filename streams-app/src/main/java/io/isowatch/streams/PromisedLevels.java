package io.isowatch.streams;

import io.isowatch.core.check.Level;
import io.isowatch.core.profile.DatabaseProfiles;
import io.isowatch.core.profile.Promise;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What each tenant is promised, for alerting and the web UI: levels listed one by one (config
 * {@code tenant.promised.levels}) or a database profile (config {@code tenant.promises}, mapped
 * through the core table {@link DatabaseProfiles}). Exported as {@code
 * isowatch_promised_level{tenant,level}} so that an alert pages when an anomaly violates a level the
 * tenant was promised, and only then: a canary deliberately run at READ COMMITTED (promised
 * {@code postgres:read-committed}, or nothing) does not page for its lost updates, which are
 * "weaker than SI but allowed".
 *
 * <p>{@code tenant.promised.levels} entries are {@code TENANT:LEVEL}, one per promised level,
 * exactly those levels; {@code tenant.promises} entries are {@code TENANT=DATABASE:LEVEL}, one per
 * tenant, promising the profile's levels and every level they imply. {@code *} stands for every
 * tenant without entries of its own; {@code TENANT:NONE} lists a tenant that is promised nothing
 * (so the {@code *} entries do not apply to it). A tenant (or {@code *}) may have entries in one of
 * the two settings, not both. With no entries no tenant is promised anything.
 *
 * <p>Any level may be promised, also one the checker does not decide ({@code check.levels}): it is
 * exported as promised and as unchecked ({@code isowatch_promise_unchecked_level}), and is watched
 * as soon as the checker decides it.
 *
 * @param perTenant tenants with entries of their own and their levels (possibly none)
 * @param others the levels of every other tenant (the {@code *} entries)
 * @param profiles tenants promised a database profile, by tenant ({@code *} for every other tenant)
 */
public record PromisedLevels(Map<String, Set<Level>> perTenant, Set<Level> others, Map<String, Promise> profiles) {
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
    profiles = Map.copyOf(profiles);
  }

  /** Levels listed one by one, no profiles. */
  public PromisedLevels(final Map<String, Set<Level>> perTenant, final Set<Level> others) {
    this(perTenant, others, Map.of());
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
    return parse(entries, List.of());
  }

  /**
   * Parses the entries of {@code tenant.promised.levels} and of {@code tenant.promises}.
   *
   * @throws IllegalArgumentException for an entry that is not {@code TENANT:LEVEL} or {@code
   *     TENANT=DATABASE:LEVEL}, an unknown profile, or a tenant with entries in both
   */
  public static PromisedLevels parse(final List<String> levelEntries, final List<String> promiseEntries) {
    final Map<String, Set<Level>> perTenant = new HashMap<>();
    final Set<Level> others = EnumSet.noneOf(Level.class);
    boolean anyOthers = false;
    for (final String raw : levelEntries) {
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
      anyOthers |= ANY_TENANT.equals(tenant);
      final Set<Level> levels = ANY_TENANT.equals(tenant) ? others
          : perTenant.computeIfAbsent(tenant, t -> EnumSet.noneOf(Level.class));
      if (!NONE.equals(levelText.toUpperCase(Locale.ROOT))) {
        levels.add(Level.parse(levelText));
      }
    }
    final Map<String, Promise> profiles = new HashMap<>();
    for (final String raw : promiseEntries) {
      final String entry = raw.trim();
      if (entry.isEmpty()) {
        continue;
      }
      final int eq = entry.indexOf('=');
      if (eq <= 0 || eq == entry.length() - 1) {
        throw new IllegalArgumentException("'" + entry + "' is not TENANT=DATABASE:LEVEL (e.g. pg-rc=postgres:read-committed)");
      }
      final String tenant = entry.substring(0, eq).trim();
      if (perTenant.containsKey(tenant) || (ANY_TENANT.equals(tenant) && anyOthers)) {
        throw new IllegalArgumentException("tenant '" + tenant + "' has entries in both tenant.promised.levels and"
            + " tenant.promises; give one");
      }
      if (profiles.containsKey(tenant)) {
        throw new IllegalArgumentException("tenant '" + tenant + "' is promised two profiles");
      }
      profiles.put(tenant, DatabaseProfiles.parse(entry.substring(eq + 1)));
    }
    return new PromisedLevels(perTenant, others, profiles);
  }

  /** The levels promised to {@code tenant}: a profile's levels and every level they imply, or those listed. */
  public Set<Level> of(final String tenant) {
    final Promise profile = profiles.get(tenant);
    if (profile != null) {
      return profile.promised();
    }
    if (perTenant.containsKey(tenant)) {
      return perTenant.get(tenant);
    }
    final Promise any = profiles.get(ANY_TENANT);
    return any != null ? any.promised() : others;
  }

  /**
   * The promise of {@code tenant} as the core judges it ({@link
   * io.isowatch.core.profile.PromiseJudgement}): its profile, or its listed levels as a promise;
   * empty when it is promised nothing.
   */
  public Optional<Promise> promiseOf(final String tenant) {
    final Promise profile = profiles.get(tenant);
    if (profile != null) {
      return Optional.of(profile);
    }
    if (!perTenant.containsKey(tenant) && profiles.containsKey(ANY_TENANT)) {
      return Optional.of(profiles.get(ANY_TENANT));
    }
    final Set<Level> levels = of(tenant);
    return levels.isEmpty() ? Optional.empty() : Optional.of(Promise.ofLevels(levels));
  }
}
