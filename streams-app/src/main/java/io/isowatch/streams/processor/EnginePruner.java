package io.isowatch.streams.processor;

import io.isowatch.streams.engine.TenantEngine;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stream-time punctuator of {@link CheckTransactionsProcessor}: prunes every loaded tenant engine
 * to its horizon (docs/segmentation.md), records each prune's duration, the transactions it pruned
 * and what the engine still holds, and hands the checkpoint taken right after each cut to the
 * processor, which stores it and deletes the inputs it covers. A tenant whose engine pruned
 * nothing but that has inputs its checkpoint does not cover is checkpointed all the same ({@link
 * TenantEngine#checkpointNow()}): so a rebuild replays at most one interval's inputs, whether or
 * not the horizon was reached. Kept apart from the record path.
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

  /** Whether the tenant has stored inputs that its checkpoint (if any) does not cover. */
  @FunctionalInterface
  interface Uncovered {
    boolean test(String tenant);
  }

  private final Map<String, TenantEngine> loaded;
  private final PruneObserver observer;
  private final CheckpointSink checkpoints;
  private final Uncovered uncovered;

  EnginePruner(final Map<String, TenantEngine> loaded, final PruneObserver observer,
      final CheckpointSink checkpoints) {
    this(loaded, observer, checkpoints, tenant -> false);
  }

  EnginePruner(final Map<String, TenantEngine> loaded, final PruneObserver observer,
      final CheckpointSink checkpoints, final Uncovered uncovered) {
    this.loaded = loaded;
    this.observer = observer;
    this.checkpoints = checkpoints;
    this.uncovered = uncovered;
  }

  void punctuate(final long streamTimeMs) {
    for (final Map.Entry<String, TenantEngine> e : loaded.entrySet()) {
      prune(e.getKey(), e.getValue(), streamTimeMs);
    }
  }

  /** Prunes one tenant's engine and checkpoints it (see the class comment). */
  void prune(final String tenant, final TenantEngine engine, final long streamTimeMs) {
    final long t0 = System.nanoTime();
    final long pruned = engine.prune();
    final double seconds = (System.nanoTime() - t0) / 1e9;
    observer.observe(tenant, engine);
    if (pruned > 0) {
      LOG.info("Tenant engine pruned tenant=[{}] pruned=[{}] retained=[{}] ms=[{}] streamTimeMs=[{}]",
          tenant, pruned, engine.retainedTransactions(), Math.round(seconds * 1000), streamTimeMs);
      // Right after a cut the engine's state is small and final for the inputs so far: the
      // moment to checkpoint it and let the store forget those inputs.
      engine.checkpoint().ifPresent(bytes -> checkpoints.save(tenant, bytes));
    } else if (uncovered.test(tenant)) {
      // Nothing to prune (below the horizon, or a cut held back), but inputs since the last
      // checkpoint: checkpoint anyway, so that the inputs a rebuild replays stay bounded.
      engine.checkpointNow().ifPresent(bytes -> checkpoints.save(tenant, bytes));
      observer.observe(tenant, engine);
    }
  }
}
