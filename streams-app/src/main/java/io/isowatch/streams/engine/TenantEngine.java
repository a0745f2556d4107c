package io.isowatch.streams.engine;

import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineEvent;
import java.util.List;

/**
 * The checker of one tenant's history as the topology sees it: transactions go in in arrival order,
 * certain anomalies, findings and verdict changes come out, never retracted (docs/streaming-design.md)
 * but for a ThinAirRead whose writer arrives beyond every lateness bound (docs/streaming.md, "No
 * false positive from time"). The engine keeps its own reorder buffer and watermark; the topology
 * only persists what went in, so that replaying the same inputs into a new engine rebuilds the
 * same state.
 *
 * <p>Implementations are Kafka-free and deterministic: the same inputs give the same outputs.
 */
public interface TenantEngine {
  /**
   * Takes one arriving transaction (possibly late, possibly a duplicate).
   *
   * @return what was published: anomalies (each once over the engine's life), findings, verdict
   *     changes
   */
  List<OnlineEvent> accept(Transaction transaction);

  /**
   * Takes one transaction that arrived at {@code arrivalMicros} (its record's timestamp): an
   * engine that trusts event times only so far ahead of their arrival (a FUTURE_EVENT_TIME
   * finding) uses it; others ignore it.
   */
  default List<OnlineEvent> accept(final Transaction transaction, final long arrivalMicros) {
    return accept(transaction);
  }

  /**
   * Ends the input for now: releases every buffered transaction and resolves pending reads (a read
   * still waiting becomes a ThinAirRead), as {@code isowatch check} finishes a file.
   */
  List<OnlineEvent> flush();

  /** The verdicts, anomalies, findings and counts of everything processed so far. */
  CheckResult result();

  /**
   * Whether the last {@link #result()} left levels UNKNOWN because the search of version orders
   * was deferred by its budget ({@code OnlineChecker#searchDeferred}): asked again with no new
   * input, the result searches.
   */
  default boolean searchDeferred() {
    return false;
  }

  /** Transactions waiting in the reorder buffer for the watermark. */
  long buffered();

  /**
   * Reads whose writer has not been seen yet.
   */
  long pendingReads();

  /**
   * Prunes what lies beyond the engine's horizon, if it has one (docs/segmentation.md).
   *
   * @return transactions pruned by this call (0 when nothing could be or no horizon is set)
   */
  default long prune() {
    return 0;
  }

  /** Cuts so far, whoever asked for them (the punctuator's {@link #prune()} or the engine itself). */
  default PruneTotals pruneTotals() {
    return PruneTotals.NONE;
  }

  /**
   * The probability, at most, that a read of a value never written is taken for a stale read
   * beyond the horizon (docs/segmentation.md, "Retired versions"); 0 for engines that never prune.
   */
  default double retiredFalsePositiveRatio() {
    return 0;
  }

  /** Runs of the engine's exact record of retired versions; 0 for engines that never prune. */
  default long retiredRuns() {
    return 0;
  }

  /** Bytes of those runs; 0 for engines that never prune. */
  default long retiredRunBytes() {
    return 0;
  }

  /** Transactions the engine holds: processed and retained, plus buffered. */
  default long retainedTransactions() {
    return 0;
  }

  /**
   * Right after a {@link #prune()} that pruned something, before any other input: the engine's
   * whole state as bytes (docs/segmentation.md, "Checkpoints"), from which {@link
   * TenantEngineFactory#restore} makes an engine equal to this one. Empty at any other time, and
   * for engines without a horizon.
   */
  default java.util.Optional<byte[]> checkpoint() {
    return java.util.Optional.empty();
  }

  /**
   * A checkpoint of the engine now, whether or not its horizon let anything be pruned (it prunes
   * what it can first): what keeps a rebuild's replay bounded when prunes are rare (a tenant below
   * its horizon, a cut held back). Empty for engines without a horizon, which keep no summary to
   * restore from.
   */
  default java.util.Optional<byte[]> checkpointNow() {
    return java.util.Optional.empty();
  }
}
