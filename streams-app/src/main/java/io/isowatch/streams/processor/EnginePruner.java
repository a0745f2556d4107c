package io.isowatch.streams.processor;

import io.isowatch.streams.engine.TenantEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stream-time punctuator of {@link CheckTransactionsProcessor}: prunes every loaded tenant engine
 * to its horizon (docs/segmentation.md), records each prune's duration, the transactions it pruned
 * and what the engine still holds, and hands the checkpoint taken right after each cut to the
 * {@link TenantCheckpointer}, which stores it and deletes the inputs it covers. A tenant whose
 * engine pruned nothing but that has inputs its checkpoint does not cover is checkpointed all the
 * same ({@link TenantEngine#checkpointNow()}): so a rebuild replays at most one interval's inputs,
 * whether or not the horizon was reached ({@link CheckpointPolicy}). Kept apart from the record path.
 */
final class EnginePruner {
  private static final Logger LOG = LoggerFactory.getLogger(EnginePruner.class);

  private final TenantSlots slots;
  private final PruneRecorder observer;
  private final TenantCheckpointer checkpointer;
  private final CheckpointPolicy policy;

  EnginePruner(final TenantSlots slots, final PruneRecorder observer, final TenantCheckpointer checkpointer,
      final CheckpointPolicy policy) {
    this.slots = slots;
    this.observer = observer;
    this.checkpointer = checkpointer;
    this.policy = policy;
  }

  void punctuate(final long streamTimeMs) {
    for (final TenantSlot slot : slots.loaded()) {
      prune(slot, streamTimeMs);
    }
  }

  /** Prunes and checkpoints the tenant now if it has had too many inputs since its checkpoint. */
  void pruneIfDue(final TenantSlot slot, final long streamTimeMs) {
    if (policy.dueByInputs(slot)) {
      prune(slot, streamTimeMs);
    }
  }

  /** Prunes one tenant's engine and checkpoints it (see the class comment). */
  void prune(final TenantSlot slot, final long streamTimeMs) {
    final TenantEngine engine = slot.engine();
    final long t0 = System.nanoTime();
    final long pruned = engine.prune();
    final double seconds = (System.nanoTime() - t0) / 1e9;
    observer.observe(slot);
    if (pruned > 0) {
      LOG.info("Tenant engine pruned tenant=[{}] pruned=[{}] retained=[{}] ms=[{}] streamTimeMs=[{}]",
          slot.tenant(), pruned, engine.retainedTransactions(), Math.round(seconds * 1000), streamTimeMs);
      // Right after a cut the engine's state is small and final for the inputs so far: the
      // moment to checkpoint it and let the store forget those inputs.
      engine.checkpoint().ifPresent(bytes -> checkpointer.save(slot, bytes));
    } else if (policy.uncovered(slot)) {
      // Nothing to prune (below the horizon, or a cut held back), but inputs since the last
      // checkpoint: checkpoint anyway, so that the inputs a rebuild replays stay bounded.
      engine.checkpointNow().ifPresent(bytes -> checkpointer.save(slot, bytes));
      observer.observe(slot);
    }
  }
}
