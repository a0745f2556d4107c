package io.isowatch.streams.processor;

import io.isowatch.streams.engine.TenantEngine;
import io.isowatch.streams.metrics.CheckerMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores a checkpoint taken of a tenant's engine (it covers every input stored so far). The inputs
 * it covers are then deleted a few per arrival ({@link StoredInputs#deleteCovered}); what the
 * previous checkpoint covered and is still stored goes now, so that the backlog never exceeds one
 * prune interval's inputs: what keeps {@code tenant-transactions} bounded. The published ids no
 * rebuild can report again are planned for trimming ({@link PublishedAnomalies}).
 */
final class TenantCheckpointer {
  private static final Logger LOG = LoggerFactory.getLogger(TenantCheckpointer.class);

  private final TenantCheckpoints checkpoints;
  private final StoredInputs inputs;
  private final PublishedAnomalies published;
  private final CheckerMetrics metrics;

  TenantCheckpointer(final TenantCheckpoints checkpoints, final StoredInputs inputs,
      final PublishedAnomalies published, final CheckerMetrics metrics) {
    this.checkpoints = checkpoints;
    this.inputs = inputs;
    this.published = published;
    this.metrics = metrics;
  }

  void save(final TenantSlot slot, final byte[] checkpoint) {
    final String tenant = slot.tenant();
    final long t0 = System.nanoTime();
    final long upTo = slot.progress().inputs();
    final CheckpointManifest previous = checkpoints.manifest(tenant);
    final long previousFirst = previous == null ? 0 : previous.firstInput();
    inputs.deleteCoveredNow(slot, previousFirst - slot.deleteFrom());
    final CheckpointManifest m = checkpoints.write(tenant, checkpoint, upTo, previousFirst, previous);
    slot.firstInput(upTo);
    // The next input starts a new tenant-transactions entry: every entry is then either covered by
    // this checkpoint or not at all, and is deleted whole.
    slot.closeBatch();
    // No rebuild can report again what was reported before upTo: those ids go, a few per arrival.
    final int ids = published.planTrim(tenant, upTo);
    final TenantEngine engine = slot.engine();
    metrics.tenantState(tenant, engine.pendingReads(), engine.buffered(), slot.storedInputs());
    final double seconds = (System.nanoTime() - t0) / 1e9;
    metrics.checkpointed(tenant, checkpoint.length, seconds);
    LOG.info("Tenant engine checkpointed tenant=[{}] generation=[{}] bytes=[{}] chunks=[{}] inputsCovered=[{}]"
        + " publishedIdsToTrim=[{}] ms=[{}]", tenant, m.generation(), m.bytes(), m.chunks(), upTo - previousFirst, ids,
        Math.round(seconds * 1000));
  }
}
