package io.isowatch.streams.processor;

import io.isowatch.streams.engine.TenantEngine;
import io.isowatch.streams.engine.TenantEngineFactory;
import io.isowatch.streams.metrics.CheckerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads a tenant's engine on first use after a start, a restore or a rebalance: from its latest
 * checkpoint, if it has one, and the inputs stored after it, replayed without publishing anything
 * (what that replay reports was published before).
 */
final class EngineLoader {
  private static final Logger LOG = LoggerFactory.getLogger(EngineLoader.class);

  private final TenantEngineFactory engines;
  private final TenantSlots slots;
  private final TenantCheckpoints checkpoints;
  private final StoredInputs inputs;
  private final PublishedAnomalies published;
  private final CheckerMetrics metrics;

  EngineLoader(final TenantEngineFactory engines, final TenantSlots slots, final TenantCheckpoints checkpoints,
      final StoredInputs inputs, final PublishedAnomalies published, final CheckerMetrics metrics) {
    this.engines = engines;
    this.slots = slots;
    this.checkpoints = checkpoints;
    this.inputs = inputs;
    this.published = published;
    this.metrics = metrics;
  }

  /** The levels the engines decide. */
  java.util.Set<io.isowatch.core.check.Level> levels() {
    return engines.levels();
  }

  /** The tenant's slot with its engine loaded. */
  TenantSlot loaded(final String tenant) {
    final TenantSlot slot = slots.of(tenant);
    if (!slot.loaded()) {
      load(slot);
    }
    return slot;
  }

  private void load(final TenantSlot slot) {
    final String tenant = slot.tenant();
    final long t0 = System.nanoTime();
    final CheckpointManifest checkpoint = checkpoints.manifest(tenant);
    final TenantEngine engine = checkpoint == null ? engines.create(tenant)
        : engines.restore(tenant, checkpoints.read(tenant, checkpoint));
    final long from = checkpoint == null ? 0 : checkpoint.firstInput();
    final long replayed = inputs.replay(tenant, from, engine);
    if (checkpoint == null && replayed > 0) {
      // Rebuilt with other cuts than the live engine made: it may report again what that one
      // published, at any later input, so those ids are never trimmed (PublishedAnomalies).
      published.keepAll(tenant);
    }
    if (replayed > 0 || checkpoint != null) {
      metrics.tenantRestored(tenant);
      LOG.info("Tenant engine rebuilt tenant=[{}] checkpointBytes=[{}] checkpointGeneration=[{}] inputs=[{}] ms=[{}]",
          tenant, checkpoint == null ? 0 : checkpoint.bytes(), checkpoint == null ? 0 : checkpoint.generation(),
          replayed, (System.nanoTime() - t0) / 1_000_000);
    }
    slot.load(engine, from, checkpoint == null ? 0 : checkpoint.deletedBelow());
  }
}
