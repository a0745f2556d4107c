package io.isowatch.cli.demo;

import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.core.check.Level;
import java.util.Set;

/**
 * One agent of the demo and what its database promises.
 *
 * @param tenant the tenant its transactions are published under
 * @param target the agent's target, spelled as for {@code isowatch agent --target}
 * @param isolation the isolation level the agent asks the target for
 * @param promised the levels the target is expected to keep: an anomaly violating one of them is a
 *     broken promise; any other anomaly is allowed by what the target promises
 * @param reconnectAfterAbort see {@code isowatch agent --reconnect-after-abort}
 * @param description one line for the terminal
 */
public record DemoTenant(
    String tenant,
    String target,
    IsolationLevel isolation,
    Set<Level> promised,
    boolean reconnectAfterAbort,
    String description) {

  public DemoTenant {
    promised = Set.copyOf(promised);
  }

  /**
   * Embedded H2 at SNAPSHOT, which keeps snapshot isolation (the {@code h2} target turns H2's
   * result reuse off: producer-agent/README.md, "Known issue"); write skew is allowed there, lost
   * updates are not.
   */
  public static DemoTenant h2Canary() {
    return new DemoTenant("h2-snapshot", "h2", IsolationLevel.SNAPSHOT, Set.of(Level.SI), false,
        "embedded H2 at SNAPSHOT: promises SI (write skew allowed), a correct canary");
  }

  /** The faulty in-memory store, serializable except for the faults it injects on purpose. */
  public static DemoTenant faulty(final String faults) {
    return new DemoTenant("faulty", "faulty:" + faults, IsolationLevel.SERIALIZABLE,
        Set.of(Level.SSER, Level.SER, Level.SI), false,
        "faulty store injecting " + faults + ": promises SSER, every injected fault breaks it");
  }

  /** True when an anomaly violating the levels named {@code violated} breaks this tenant's promise. */
  public boolean broken(final Iterable<String> violated) {
    for (final String l : violated) {
      if (promised.stream().anyMatch(p -> p.name().equals(l))) {
        return true;
      }
    }
    return false;
  }
}
