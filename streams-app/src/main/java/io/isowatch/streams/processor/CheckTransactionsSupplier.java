package io.isowatch.streams.processor;

import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.Stores;
import io.isowatch.streams.engine.TenantEngineFactory;
import io.isowatch.streams.fault.QuarantineRequests;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.time.Duration;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * Supplies {@link CheckTransactionsProcessor}s and declares their stores next to them, so the
 * topology connects them without naming them twice.
 *
 * @param idleFlush stream time without arrivals after which a tenant's buffer is flushed; negative:
 *     never
 * @param pruneInterval stream time between prunes of the tenant engines (docs/segmentation.md);
 *     negative or zero: never
 * @param checkpointEveryInputs inputs of a tenant after which it is pruned and checkpointed at once
 *     ({@code check.checkpoint.every.inputs})
 */
public record CheckTransactionsSupplier(
    TenantEngineFactory engines,
    CheckerMetrics metrics,
    Duration verdictInterval,
    Duration idleFlush,
    String anomaliesChild,
    String verdictsChild,
    Duration pruneInterval,
    QuarantineRequests quarantineRequests,
    long checkpointEveryInputs) implements ProcessorSupplier<String, TransactionEvent, String, SpecificRecord> {

  @Override
  public Processor<String, TransactionEvent, String, SpecificRecord> get() {
    return new CheckTransactionsProcessor(engines, metrics, verdictInterval, idleFlush, anomaliesChild,
        verdictsChild, pruneInterval, quarantineRequests, checkpointEveryInputs);
  }

  /** With the default checkpoint interval in inputs ({@link CheckTransactionsProcessor#CHECKPOINT_EVERY_INPUTS}). */
  public CheckTransactionsSupplier(final TenantEngineFactory engines, final CheckerMetrics metrics,
      final Duration verdictInterval, final Duration idleFlush, final String anomaliesChild,
      final String verdictsChild, final Duration pruneInterval, final QuarantineRequests quarantineRequests) {
    this(engines, metrics, verdictInterval, idleFlush, anomaliesChild, verdictsChild, pruneInterval,
        quarantineRequests, CheckTransactionsProcessor.CHECKPOINT_EVERY_INPUTS);
  }

  @Override
  public Set<StoreBuilder<?>> stores() {
    return Set.of(Stores.tenantTransactions(), Stores.tenantProgress(), Stores.publishedAnomalies(),
        Stores.tenantCheckpoints(), Stores.tenantQuarantine());
  }
}
