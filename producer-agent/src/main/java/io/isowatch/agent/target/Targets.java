package io.isowatch.agent.target;

import io.isowatch.agent.target.faulty.FaultSpec;
import io.isowatch.agent.target.faulty.FaultyTarget;
import io.isowatch.agent.target.jdbc.JdbcTarget;
import java.time.Duration;
import java.util.Locale;

/**
 * Builds a {@link Target} from its command-line spelling: a JDBC URL ({@code jdbc:postgresql:…},
 * {@code jdbc:mariadb:…}, {@code jdbc:h2:…}), {@code h2} (a private in-memory H2 database) or
 * {@code faulty[:<faults>]} (see {@link FaultSpec}).
 */
public final class Targets {
  private Targets() {}

  /**
   * @throws IllegalArgumentException with a message for the user when the spelling or the
   *     isolation level is not supported
   */
  public static Target create(
      final String spec, final IsolationLevel isolation, final String table, final Duration lockTimeout, final long seed) {
    return create(spec, IsolationMix.of(isolation), table, lockTimeout, seed);
  }

  /**
   * @param mix the level of each transaction (a mix: JDBC targets only)
   * @throws IllegalArgumentException with a message for the user when the spelling or an isolation
   *     level is not supported
   */
  public static Target create(
      final String spec, final IsolationMix mix, final String table, final Duration lockTimeout, final long seed) {
    final IsolationLevel isolation = mix.first();
    final String s = spec.trim();
    final String lower = s.toLowerCase(Locale.ROOT);
    if (lower.equals("h2")) {
      return JdbcTarget.h2InMemory(mix, table, lockTimeout);
    }
    if (lower.equals("faulty") || lower.startsWith("faulty:")) {
      if (isolation != IsolationLevel.SERIALIZABLE || !mix.single()) {
        throw new IllegalArgumentException("the faulty target is serializable by construction (faults are injected "
            + "on purpose); use --isolation serializable or leave it out, got " + isolation.label());
      }
      return new FaultyTarget(FaultSpec.parse(lower.equals("faulty") ? "" : s.substring("faulty:".length())), seed);
    }
    if (lower.startsWith("jdbc:")) {
      return JdbcTarget.of(s, mix, table, lockTimeout);
    }
    throw new IllegalArgumentException("unknown target '" + spec
        + "' (expected a JDBC URL jdbc:postgresql:…, jdbc:mariadb:…, jdbc:h2:…, or h2, or faulty:<faults>)");
  }
}
