package io.isowatch.cli.demo;

import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.core.check.Level;
import io.isowatch.core.profile.DatabaseProfiles;
import io.isowatch.core.profile.Promise;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * One agent of the demo and what its database promises.
 *
 * @param tenant the tenant its transactions are published under
 * @param target the agent's target, spelled as for {@code isowatch agent --target}
 * @param isolation the isolation level the agent asks the target for
 * @param promise what the target is expected to keep: an anomaly violating one of its levels is a
 *     broken promise; any other anomaly is "weaker than X but allowed"
 * @param reconnectAfterAbort see {@code isowatch agent --reconnect-after-abort}
 * @param description one line for the terminal
 */
public record DemoTenant(
    String tenant,
    String target,
    IsolationLevel isolation,
    Promise promise,
    boolean reconnectAfterAbort,
    String description) {

  /**
   * Embedded H2 at SNAPSHOT, which keeps snapshot isolation (the {@code h2} target turns H2's
   * result reuse off: producer-agent/README.md, "Known issue"); write skew is allowed there, lost
   * updates are not. Its promise is the profile {@code h2:snapshot}.
   */
  public static DemoTenant h2Canary() {
    return new DemoTenant("h2-snapshot", "h2", IsolationLevel.SNAPSHOT, DatabaseProfiles.parse("h2:snapshot"), false,
        "embedded H2 at SNAPSHOT: promises h2:snapshot = SI (write skew allowed), a correct canary");
  }

  /** The faulty in-memory store, serializable except for the faults it injects on purpose. */
  public static DemoTenant faulty(final String faults) {
    return new DemoTenant("faulty", "faulty:" + faults, IsolationLevel.SERIALIZABLE,
        Promise.ofLevels(EnumSet.of(Level.SSER, Level.SER, Level.SI)), false,
        "faulty store injecting " + faults + ": promises SSER, every injected fault breaks it");
  }

  /**
   * The faulty store losing updates (and nothing else) at {@code rate}, standing in for a database
   * promising the profile {@code profile}: the same lost update breaks {@code
   * postgres:repeatable-read} (SI) and is "weaker than SI but allowed" under {@code
   * postgres:read-committed}.
   */
  public static DemoTenant lostUpdates(final String tenant, final String profile, final String rate) {
    final Promise p = DatabaseProfiles.parse(profile);
    final String verdict = p.promised().contains(Level.SI) ? "a lost update breaks it" : "a lost update is allowed";
    return new DemoTenant(tenant, "faulty:lostupdate=" + rate, IsolationLevel.SERIALIZABLE, p, false,
        String.format(Locale.ROOT, "faulty store losing updates, promised %s = %s: %s", p.spec(), label(p), verdict));
  }

  /** True when an anomaly violating the levels named {@code violated} breaks this tenant's promise. */
  public boolean broken(final Iterable<String> violated) {
    final Set<Level> promised = promise.promised();
    for (final String l : violated) {
      if (promised.stream().anyMatch(p -> p.name().equals(l))) {
        return true;
      }
    }
    return false;
  }

  /** {@code h2:snapshot = SI}, or {@code SSER,SER,SI} for levels listed one by one. */
  public String promiseLabel() {
    return "IsoWatch".equals(promise.database()) ? label(promise) : promise.spec() + " = " + label(promise);
  }

  /** Whether the promise is a database profile ({@code tenant.promises}) rather than listed levels. */
  public boolean profile() {
    return !"IsoWatch".equals(promise.database());
  }

  private static String label(final Promise p) {
    return p.guarantees().isEmpty() ? "nothing"
        : String.join(",", Level.strongestFirst(p.guarantees()).stream().map(Level::name).toList());
  }
}
