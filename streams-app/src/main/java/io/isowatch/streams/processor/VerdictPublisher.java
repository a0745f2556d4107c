package io.isowatch.streams.processor;

import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.solve.BlindWriteDecision;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.streams.engine.TenantEngine;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes {@link TenantVerdict}s: on the wall-clock punctuation, one for every tenant whose state
 * changed since the last one; at once for a tenant quarantined.
 */
final class VerdictPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(VerdictPublisher.class);

  private final ProcessorContext<String, SpecificRecord> context;
  private final EngineLoader engines;
  private final TenantSlots slots;
  private final AnomalyPublisher anomalies;
  private final PublishLimit publishLimit;
  private final CheckerMetrics metrics;
  private final String verdictsChild;
  private final Set<String> changed = new TreeSet<>();

  VerdictPublisher(final ProcessorContext<String, SpecificRecord> context, final EngineLoader engines,
      final TenantSlots slots, final AnomalyPublisher anomalies, final PublishLimit publishLimit,
      final CheckerMetrics metrics, final String verdictsChild) {
    this.context = context;
    this.engines = engines;
    this.slots = slots;
    this.anomalies = anomalies;
    this.publishLimit = publishLimit;
    this.metrics = metrics;
    this.verdictsChild = verdictsChild;
  }

  /** The tenant's state changed: it gets a verdict at the next publication. */
  void changed(final String tenant) {
    changed.add(tenant);
  }

  /** Wall-clock punctuator: a verdict for every tenant that changed since the last one. */
  void publishChanged(final long wallClockMs, final TenantQuarantine guard) {
    // A copy: a quarantine removes the tenant from the changed set.
    final List<String> again = new ArrayList<>();
    for (final String tenant : List.copyOf(changed)) {
      guard.run(tenant, () -> {
        if (publish(tenant, wallClockMs)) {
          again.add(tenant);
        }
      });
    }
    changed.clear();
    // A verdict left UNKNOWN by a deferred search of version orders is asked again at the next
    // punctuation: with no input in between, that one searches (docs/streaming.md, "Blind writes").
    changed.addAll(again);
  }

  /** The same, at once (the end of a replay). */
  void publishChangedNow(final TenantQuarantine guard) {
    publishChanged(context.currentSystemTimeMs(), guard);
  }

  /** Publishes the tenant's verdict; returns whether its search of version orders was deferred. */
  private boolean publish(final String tenant, final long wallClockMs) {
    final TenantSlot slot = engines.loaded(tenant);
    final TenantEngine engine = slot.engine();
    final CheckResult result = engine.result();
    TenantProgress p = slot.progress();
    // Two kinds of anomaly exist only in results, not as engine events: the counterexamples of the
    // weak levels and of MIXED, and the proof of the search of version orders or of a read no
    // writer explains (docs/streaming.md, "Blind writes"). Those the verdict lists are published first, once per uniqueId like every
    // anomaly, so that every anomaly a verdict lists is on the anomalies topic (replay needs them).
    final List<io.isowatch.core.check.Anomaly> resultOnly = !Collections.disjoint(result.verdicts().keySet(), Level.WEAK)
        || result.verdicts().containsKey(Level.MIXED)
        ? result.anomalies()
        : result.anomalies().stream().filter(BlindWriteDecision::isResultOnly).toList();
    if (!resultOnly.isEmpty()) {
      final TenantProgress after = anomalies.publishListed(tenant, resultOnly, p, wallClockMs);
      if (after != p) {
        slots.save(slot, after);
        p = after;
      }
    }
    final TenantVerdict verdict = VerdictRecords.toAvro(
        tenant, result, p.malformed(), engine.buffered(), engine.pendingReads(), wallClockMs * 1_000L);
    publishLimit.check(tenant, verdict, "verdict");
    forward(tenant, verdict, wallClockMs);
    metrics.tenantState(tenant, engine.pendingReads(), engine.buffered(), slot.storedInputs());
    return engine.searchDeferred();
  }

  /**
   * Publishes now the verdict of a tenant just quarantined, with a {@code TENANT_QUARANTINED}
   * finding: built on its engine's result when it had one loaded and it still gives one, bare when
   * not or when that would be larger than the producer may send.
   */
  void publishQuarantined(final TenantSlot slot, final TenantEngine engine, final String reason) {
    final String tenant = slot.tenant();
    final long now = context.currentSystemTimeMs();
    TenantVerdict base = null;
    if (engine != null) {
      try {
        final TenantProgress p = slot.progress();
        base = VerdictRecords.toAvro(tenant, engine.result(), p.malformed(), engine.buffered(), engine.pendingReads(),
            now * 1_000L);
      } catch (final RuntimeException | StackOverflowError broken) {
        LOG.warn("No verdict from the quarantined tenant's engine tenant=[{}] error=[{}]", tenant, broken.toString());
      }
    }
    TenantVerdict verdict = VerdictRecords.quarantined(tenant, base, reason, now * 1_000L, engines.levels());
    if (!publishLimit.fits(tenant, verdict)) {
      verdict = VerdictRecords.quarantined(tenant, null, reason, now * 1_000L, engines.levels());
    }
    changed.remove(tenant);
    forward(tenant, verdict, now);
  }

  private void forward(final String tenant, final TenantVerdict verdict, final long timestampMs) {
    context.forward(new Record<String, SpecificRecord>(tenant, verdict, timestampMs), verdictsChild);
    metrics.verdictPublished(tenant);
    metrics.levelVerdicts(tenant, VerdictRecords.coreVerdicts(verdict));
    metrics.verdictFindings(tenant, verdict.getCounts().getFindingsByKind());
  }
}
