package io.isowatch.streams.processor;

import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineEvent;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.engine.TenantEngine;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.util.List;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives a tenant's engine its inputs, one at a time: stores each one first (so that a rebuild
 * replays it), runs the engine on it, publishes what it reports, and keeps the tenant's progress and
 * gauges. A well-formed but impossible event (a write without a value) is a finding: counted in the
 * tenant's progress and verdict, logged with its coordinates, not checked.
 */
final class EngineFeed {
  private static final Logger LOG = LoggerFactory.getLogger(EngineFeed.class);
  /**
   * Covered inputs deleted per arriving input: more than one, so that a checkpoint's backlog is gone
   * within a fraction of the prune interval at a steady rate (a quarter of it at 4). They are
   * deleted in whole entries once a batch's worth has gathered ({@link StoredInputs#deleteCovered}).
   */
  static final int DELETES_PER_INPUT = 4;

  private final ProcessorContext<?, ?> context;
  private final TenantSlots slots;
  private final EngineLoader engines;
  private final StoredInputs inputs;
  private final PublishedAnomalies published;
  private final AnomalyPublisher anomalies;
  private final VerdictPublisher verdicts;
  private final PruneRecorder prunes;
  private final EnginePruner pruner;
  private final CheckerMetrics metrics;

  /** {@code pruner}: null when the engines are not pruned. */
  EngineFeed(final ProcessorContext<?, ?> context, final TenantSlots slots, final EngineLoader engines,
      final StoredInputs inputs, final PublishedAnomalies published, final AnomalyPublisher anomalies,
      final VerdictPublisher verdicts, final PruneRecorder prunes, final EnginePruner pruner,
      final CheckerMetrics metrics) {
    this.context = context;
    this.slots = slots;
    this.engines = engines;
    this.inputs = inputs;
    this.published = published;
    this.anomalies = anomalies;
    this.verdicts = verdicts;
    this.prunes = prunes;
    this.pruner = pruner;
    this.metrics = metrics;
  }

  /**
   * A transaction arrived: {@code event} as it came, {@code txn} its core form, {@code body} its own
   * Avro bytes when decode-transactions passed them on (null if not), {@code timestampMs} its
   * record's timestamp and {@code wallClockMs} this instance's clock when it is processed.
   *
   * <p>The engine judges the event's clock by its arrival (docs/streaming.md, "No false positive
   * from time"): the record's timestamp, but never later than this instance's clock, since a
   * producer whose clock runs ahead stamps its records (CreateTime) as far ahead as its events, and
   * the two would vouch for each other. The arrival is stored with the input, so a rebuild sees the
   * same.
   */
  void arrival(final String tenant, final TransactionEvent event, final Transaction txn, final byte[] body,
      final long timestampMs, final long wallClockMs) {
    final TenantSlot slot = engines.loaded(tenant);
    final TenantEngine engine = slot.engine();
    TenantProgress p = slot.progress();
    final long arrivalMs = Math.min(timestampMs, wallClockMs);
    inputs.arrival(slot, arrivalMs, event, body);
    if (txn.end() != Transaction.NO_TIME) {
      metrics.arrived(tenant, p.maxEndMicros() == Long.MIN_VALUE ? 0 : Math.max(0, p.maxEndMicros() - txn.end()));
    }
    inputs.deleteCovered(slot, DELETES_PER_INPUT);
    published.trim(tenant, DELETES_PER_INPUT);
    p = p.arrived(txn.end(), timestampMs);
    final List<OnlineEvent> events = engine.accept(txn, arrivalMs * 1_000L);
    metrics.transactionChecked(tenant);
    p = anomalies.publish(tenant, events, p, timestampMs);
    slots.save(slot, p);
    metrics.tenantState(tenant, engine.pendingReads(), engine.buffered(), slot.storedInputs());
    metrics.retained(tenant, engine.retainedTransactions());
    prunes.observe(slot);
    if (pruner != null) {
      pruner.pruneIfDue(slot, timestampMs);
    }
    verdicts.changed(tenant);
  }

  /** Flushes a tenant's engine, storing the flush as an input so that a rebuild replays it. */
  void flush(final TenantSlot slot, final long streamTimeMs) {
    TenantProgress p = slot.progress();
    inputs.flush(slot, streamTimeMs);
    p = anomalies.publish(slot.tenant(), slot.engine().flush(), p.flushed(), streamTimeMs);
    slots.save(slot, p);
    prunes.observe(slot);
    verdicts.changed(slot.tenant());
  }

  /**
   * Why the tenant's engine cannot check this transaction, or null: a list-append transaction of a
   * tenant whose workload is registers ({@link io.isowatch.streams.engine.WorkloadEngine#refuses}), or
   * of an engine that checks registers only.
   */
  String refuses(final String tenant, final Transaction txn) {
    if (!io.isowatch.core.listappend.ListAppendCheck.isListAppend(txn)) {
      return null;
    }
    final TenantEngine engine = engines.loaded(tenant).engine();
    return engine instanceof io.isowatch.streams.engine.WorkloadEngine w ? w.refuses(txn)
        : io.isowatch.core.online.ListAppendOnlineChecker.refusedBySegmentedEngine(txn);
  }

  /** An event that is no possible transaction: counted as a finding, not stored, not checked. */
  void malformed(final String tenant, final TransactionEvent event, final IllegalArgumentException e) {
    LOG.warn("Impossible transaction event counted as a finding, not checked tenant=[{}] txn=[{}] {} error=[{}]",
        tenant, event.getTxn(), RecordCoordinates.current(context), e.getMessage());
    final TenantSlot slot = slots.of(tenant);
    slots.save(slot, slot.progress().malformedOne());
    metrics.inputFinding(tenant, VerdictRecords.MALFORMED_TRANSACTION);
    verdicts.changed(tenant);
  }
}
