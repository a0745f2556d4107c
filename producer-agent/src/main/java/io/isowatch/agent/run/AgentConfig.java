package io.isowatch.agent.run;

import io.isowatch.agent.workload.ValueEncoder;
import io.isowatch.agent.workload.WorkloadConfig;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * One agent run.
 *
 * @param sessions concurrent sessions (one thread and one connection each)
 * @param txns transactions to run over all sessions, split evenly between them (retries count,
 *     snapshot transactions do not); null for no limit
 * @param duration how long to run; null for no limit (with {@code txns} too: whichever comes first)
 * @param rate target transactions per second over all sessions; null for as fast as possible
 * @param workload what to run
 * @param snapshotEveryTxns a whole-key-space read-only transaction after every so many
 *     transactions; null for none
 * @param snapshotEvery a whole-key-space read-only transaction this often; null for none
 * @param retries how many times an aborted transaction is retried, each retry a new transaction
 *     with a new id and fresh values
 * @param progressInterval how often a progress line is printed; null or zero for never
 * @param tenant recorded on every transaction; null for none
 * @param reconnectAfterAbort open a new connection (a new session) after every aborted
 *     transaction; a workaround for databases whose connections misbehave after an abort (for
 *     H2 2.5.252's stale reused query results, result reuse off is the fix: see the module README)
 */
public record AgentConfig(
    int sessions,
    Long txns,
    Duration duration,
    Double rate,
    WorkloadConfig workload,
    Long snapshotEveryTxns,
    Duration snapshotEvery,
    int retries,
    Duration progressInterval,
    String tenant,
    boolean reconnectAfterAbort) {

  public AgentConfig {
    if (sessions < 1 || sessions > ValueEncoder.MAX_CLIENT_ID) {
      throw new IllegalArgumentException("--sessions must be in [1, " + ValueEncoder.MAX_CLIENT_ID + "], got " + sessions);
    }
    if (txns != null && txns < 1) {
      throw new IllegalArgumentException("--txns must be at least 1, got " + txns);
    }
    if (duration != null && (duration.isZero() || duration.isNegative())) {
      throw new IllegalArgumentException("--duration must be positive, got " + duration);
    }
    if (snapshotEveryTxns != null && snapshotEveryTxns < 1) {
      throw new IllegalArgumentException("--snapshot-every must be at least 1 transaction, got " + snapshotEveryTxns);
    }
    if (snapshotEvery != null && (snapshotEvery.isZero() || snapshotEvery.isNegative())) {
      throw new IllegalArgumentException("--snapshot-every must be a positive duration, got " + snapshotEvery);
    }
    if (retries < 0) {
      throw new IllegalArgumentException("--retries must be >= 0, got " + retries);
    }
  }

  /** A config with defaults for everything but the workload, sessions and count (for tests). */
  public static AgentConfig of(final int sessions, final long txns, final WorkloadConfig workload) {
    return new AgentConfig(sessions, txns, null, null, workload, null, null, 0, null, null, false);
  }

  public AgentConfig withSnapshotEveryTxns(final Long n) {
    return edit(c -> c.snapshotEveryTxns = n);
  }

  public AgentConfig withRetries(final int n) {
    return edit(c -> c.retries = n);
  }

  public AgentConfig withReconnectAfterAbort(final boolean on) {
    return edit(c -> c.reconnectAfterAbort = on);
  }

  public AgentConfig withDuration(final Duration d) {
    return edit(c -> c.duration = d);
  }

  private AgentConfig edit(final Consumer<Fields> change) {
    final Fields c = new Fields(this);
    change.accept(c);
    return c.build();
  }

  /** The fields as a mutable copy, so that each {@code with} method names only the one it changes. */
  private static final class Fields {
    private int sessions;
    private Long txns;
    private Duration duration;
    private Double rate;
    private WorkloadConfig workload;
    private Long snapshotEveryTxns;
    private Duration snapshotEvery;
    private int retries;
    private Duration progressInterval;
    private String tenant;
    private boolean reconnectAfterAbort;

    Fields(final AgentConfig c) {
      sessions = c.sessions;
      txns = c.txns;
      duration = c.duration;
      rate = c.rate;
      workload = c.workload;
      snapshotEveryTxns = c.snapshotEveryTxns;
      snapshotEvery = c.snapshotEvery;
      retries = c.retries;
      progressInterval = c.progressInterval;
      tenant = c.tenant;
      reconnectAfterAbort = c.reconnectAfterAbort;
    }

    AgentConfig build() {
      return new AgentConfig(sessions, txns, duration, rate, workload, snapshotEveryTxns, snapshotEvery, retries,
          progressInterval, tenant, reconnectAfterAbort);
    }
  }
}
