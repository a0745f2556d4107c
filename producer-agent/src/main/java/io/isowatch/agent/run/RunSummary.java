package io.isowatch.agent.run;

import java.util.Map;

/**
 * The outcome of a run.
 *
 * @param target the target's description
 * @param isolation the isolation level label
 * @param committed transactions committed
 * @param aborted transactions aborted
 * @param unknown transactions whose outcome is unknown
 * @param snapshots of all transactions, how many were whole-key-space snapshot reads
 * @param reconnects sessions replaced after a lost connection or failed commit
 * @param errors failures that were neither conflicts nor lost connections
 * @param failureCodes failures by kind and code, e.g. {@code aborted 40001}
 * @param elapsedMicros wall time from when all sessions were connected to when the last one ended
 * @param failure the fatal failure that stopped the run early, or null
 */
public record RunSummary(
    String target,
    String isolation,
    long committed,
    long aborted,
    long unknown,
    long snapshots,
    long reconnects,
    long errors,
    Map<String, Long> failureCodes,
    long elapsedMicros,
    String failure) {

  public RunSummary {
    failureCodes = Map.copyOf(failureCodes);
  }

  public long total() {
    return committed + aborted + unknown;
  }

  public double seconds() {
    return elapsedMicros / 1e6;
  }

  /** Transactions per second, all outcomes. */
  public double rate() {
    return elapsedMicros == 0 ? 0 : total() / seconds();
  }

  public double committedRate() {
    return elapsedMicros == 0 ? 0 : committed / seconds();
  }

  /** Aborted over all transactions (0 when none ran). */
  public double abortRate() {
    return total() == 0 ? 0 : (double) aborted / total();
  }

  public boolean succeeded() {
    return failure == null;
  }
}
