package io.isowatch.streams.processor;

import io.isowatch.streams.fault.QuarantineRequests;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.util.Optional;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one tenant's bad record from stopping the others. A tenant whose record cannot be handled
 * (the engine fails on it, an anomaly or verdict is larger than the producer may send, or an
 * exception handler named it) is quarantined: stored in {@code tenant-quarantine}, published a
 * verdict with a {@code TENANT_QUARANTINED} finding, and its later records skipped, so that no
 * restart fails on it again.
 */
final class TenantQuarantine {
  private static final Logger LOG = LoggerFactory.getLogger(TenantQuarantine.class);
  private static final int MAX_REASON_CHARS = 500;

  private final ProcessorContext<?, ?> context;
  private final KeyValueStore<String, String> store;
  private final QuarantineRequests requests;
  /** The requests this task's processor may take: those made before it started (see {@link QuarantineRequests}). */
  private final long requestsMark;
  private final TenantSlots slots;
  private final VerdictPublisher verdicts;
  private final CheckerMetrics metrics;

  TenantQuarantine(final ProcessorContext<?, ?> context, final KeyValueStore<String, String> store,
      final QuarantineRequests requests, final TenantSlots slots, final VerdictPublisher verdicts,
      final CheckerMetrics metrics) {
    this.context = context;
    this.store = store;
    this.requests = requests;
    this.requestsMark = requests.mark();
    this.slots = slots;
    this.verdicts = verdicts;
    this.metrics = metrics;
  }

  /** Sets the gauge of every quarantined tenant of the task, from its start on (few entries). */
  void gaugeStored() {
    try (KeyValueIterator<String, String> it = store.all()) {
      it.forEachRemaining(kv -> metrics.tenantQuarantined(kv.key));
    }
  }

  /**
   * Runs {@code work} for the tenant unless it is quarantined, and quarantines it when the work (or
   * an exception handler, earlier) finds a record of it that cannot be handled. What Kafka raises
   * (a failed send or serialization, a fenced producer, a store failure) is not the tenant's doing
   * and propagates: the exception handlers decide (see {@code CheckerExceptionHandlers}).
   */
  void run(final String tenant, final Runnable work) {
    final TenantSlot slot = slots.of(tenant);
    if (slot.quarantined() == null) {
      slot.quarantined(store.get(tenant) != null);
    }
    if (slot.quarantined()) {
      LOG.debug("Record of a quarantined tenant skipped tenant=[{}] {}", tenant, RecordCoordinates.current(context));
      metrics.tenantQuarantined(tenant);
      return;
    }
    final Optional<String> requested = requests.take(tenant, requestsMark);
    if (requested.isPresent()) {
      quarantine(slot, requested.get(), null);
      return;
    }
    try {
      work.run();
    } catch (final KafkaException kafka) {
      throw kafka;
    } catch (final RuntimeException | StackOverflowError e) {
      quarantine(slot, e.toString(), e);
    }
  }

  /** Quarantines the tenant: stored, counted, logged, its engine dropped, and a verdict saying so published now. */
  private void quarantine(final TenantSlot slot, final String cause, final Throwable error) {
    final String tenant = slot.tenant();
    final String where = RecordCoordinates.current(context);
    final String reason = (cause.length() > MAX_REASON_CHARS ? cause.substring(0, MAX_REASON_CHARS) + "…" : cause)
        + " (" + where + ")";
    LOG.error("Tenant quarantined: a record of it could not be handled, its checking stopped while the other tenants"
        + " go on tenant=[{}] {} reason=[{}]", tenant, where, cause, error);
    store.put(tenant, reason);
    slot.quarantined(true);
    metrics.tenantQuarantined(tenant);
    metrics.inputFinding(tenant, VerdictRecords.TENANT_QUARANTINED);
    verdicts.publishQuarantined(slot, slot.unload(), reason);
  }
}
