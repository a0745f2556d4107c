package io.isowatch.streams.processor;

import io.isowatch.streams.engine.PruneTotals;
import io.isowatch.streams.engine.TenantEngine;
import io.isowatch.streams.metrics.CheckerMetrics;

/**
 * Records in the metrics the cuts a tenant's engine made since it was last asked: the prune
 * punctuator's and those the engine makes by itself on reaching its self-cut size while accepting
 * (most of them, at high rates).
 */
final class PruneRecorder {
  private final CheckerMetrics metrics;

  PruneRecorder(final CheckerMetrics metrics) {
    this.metrics = metrics;
  }

  void observe(final TenantSlot slot) {
    final TenantEngine engine = slot.engine();
    final String tenant = slot.tenant();
    final PruneTotals now = engine.pruneTotals();
    final PruneTotals seen = slot.prunesSeen();
    if (now.cuts() == seen.cuts()) {
      return;
    }
    slot.prunesSeen(now);
    final long cuts = now.cuts() - seen.cuts();
    final double each = (now.seconds() - seen.seconds()) / cuts;
    for (long i = 0; i < cuts; i++) {
      metrics.pruned(tenant, each, i == 0 ? now.pruned() - seen.pruned() : 0, engine.retainedTransactions());
    }
    // The filters of retired versions change only at cuts.
    metrics.retiredFalsePositiveRatio(tenant, engine.retiredFalsePositiveRatio());
    metrics.retiredRuns(tenant, engine.retiredRuns(), engine.retiredRunBytes());
  }
}
