package io.isowatch.streams.processor;

import io.isowatch.streams.engine.TenantEngine;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stream-time punctuator of {@link CheckTransactionsProcessor}: prunes every loaded tenant engine
 * to its horizon (docs/segmentation.md), records each prune's duration, the transactions it pruned
 * and what the engine still holds, and hands the checkpoint taken right after each cut to the
 * processor, which stores it and deletes the inputs it covers. Kept apart from the record path.
 */
final class EnginePruner {
  private static final Logger LOG = LoggerFactory.getLogger(EnginePruner.class);

  /** Where a tenant's checkpoint goes once taken (stored, and the inputs it covers deleted). */
  @FunctionalInterface
  interface CheckpointSink {
    void save(String tenant, byte[] checkpoint);
  }

  /** Records what the engine's cuts did since it was last asked (metrics). */
  @FunctionalInterface
  interface PruneObserver {
    void observe(String tenant, TenantEngine engine);
  }

  private final Map<String, TenantEngine> loaded;
  private final PruneObserver observer;
  private final CheckpointSink checkpoints;

  EnginePruner(final Map<String, TenantEngine> loaded, final PruneObserver observer,
      final CheckpointSink checkpoints) {
    this.loaded = loaded;
    this.observer = observer;
    this.checkpoints = checkpoints;
  }

  void punctuate(final long streamTimeMs) {
    for (final Map.Entry<String, TenantEngine> e : loaded.entrySet()) {
      final long t0 = System.nanoTime();
      final long pruned = e.getValue().prune();
      final double seconds = (System.nanoTime() - t0) / 1e9;
      observer.observe(e.getKey(), e.getValue());
      if (pruned > 0) {
        LOG.info("Tenant engine pruned tenant=[{}] pruned=[{}] retained=[{}] ms=[{}] streamTimeMs=[{}]",
            e.getKey(), pruned, e.getValue().retainedTransactions(), Math.round(seconds * 1000), streamTimeMs);
        // Right after a cut the engine's state is small and final for the inputs so far: the
        // moment to checkpoint it and let the store forget those inputs.
        e.getValue().checkpoint().ifPresent(bytes -> checkpoints.save(e.getKey(), bytes));
      }
    }
  }
}
