package io.isowatch.streams.engine;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.Transaction;
import java.util.List;

/**
 * The checker of one tenant's history as the topology sees it: transactions go in in arrival order,
 * certain anomalies come out, never retracted (docs/streaming-design.md). The engine keeps its own
 * reorder buffer and watermark; the topology only persists what went in, so that replaying the
 * same arrivals into a new engine rebuilds the same state.
 *
 * <p>Implementations are Kafka-free and deterministic: the same arrivals give the same outputs.
 */
public interface TenantEngine {
  /**
   * Takes one arriving transaction (possibly late, possibly a duplicate).
   *
   * @return the anomalies that became certain, each exactly once over the engine's life
   */
  List<Anomaly> accept(Transaction transaction);

  /**
   * Ends the input: releases every buffered transaction and resolves pending reads, as {@code
   * isowatch check} finishes a file.
   *
   * @return the anomalies that became certain
   */
  List<Anomaly> flush();

  /**
   * Tells the engine that stream time (the largest record timestamp of the task, in µs) reached
   * {@code streamTimeMicros}, so that a quiet tenant's buffer and pending reads still move on.
   * Called only while {@link #hasPending()}; every call is persisted and replayed on a rebuild.
   *
   * @return the anomalies that became certain
   */
  List<Anomaly> advanceTo(long streamTimeMicros);

  /** True when the engine holds buffered transactions or pending reads that time may release. */
  boolean hasPending();

  /** The verdicts, anomalies, findings and counts of everything processed so far. */
  CheckResult result();

  /** Reads whose writer has not been seen yet: the verdict may still change when it arrives. */
  long pendingReads();
}
