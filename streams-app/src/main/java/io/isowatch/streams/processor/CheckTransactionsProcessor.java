package io.isowatch.streams.processor;

import io.isowatch.core.history.Transaction;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.avro.TransactionEvents;
import io.isowatch.streams.Stores;
import io.isowatch.streams.engine.TenantEngine;
import io.isowatch.streams.engine.TenantEngineFactory;
import io.isowatch.streams.fault.ClientLimits;
import io.isowatch.streams.fault.QuarantineRequests;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.time.Duration;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/**
 * Checks each tenant's transactions with its {@link TenantEngine}: adapts each record to the core
 * and hands it to the collaborators that do the work, and schedules their punctuators.
 *
 * <ul>
 *   <li>Each tenant of the task has one {@link TenantSlot} ({@link TenantSlots}): its engine while
 *       loaded, its progress, where its checkpoint stands, whether it is quarantined.
 *   <li>An engine lives in memory per tenant of the task. On the tenant's first record after a
 *       start, a restore or a rebalance it is rebuilt from its checkpoint and the inputs stored
 *       after it, publishing nothing ({@link EngineLoader}).
 *   <li>Each arrival is stored, checked, and what the engine reports published ({@link EngineFeed},
 *       {@link AnomalyPublisher}): each new anomaly once, even across rebuilds.
 *   <li>At each prune punctuation the loaded engines are pruned and checkpointed ({@link
 *       EnginePruner}, {@link CheckpointPolicy}, {@link TenantCheckpointer}), and so is a tenant
 *       every {@code check.checkpoint.every.inputs} inputs ({@value #CHECKPOINT_EVERY_INPUTS} by
 *       default): a rebuild replays at most one interval's inputs, and never more than that many.
 *   <li>A wall-clock punctuator publishes a {@link TenantVerdict} for every tenant whose state
 *       changed since the last one ({@link VerdictPublisher}).
 *   <li>When {@code check.idle.flush.ms} is set, a stream-time punctuator flushes idle tenants
 *       ({@link IdleFlush}); at the end of a replayed partition every tenant is flushed ({@link
 *       ReplayEndFlush}).
 *   <li>A tenant whose record cannot be handled is quarantined, and its later records skipped, so
 *       that the others go on ({@link TenantQuarantine}).
 * </ul>
 */
public final class CheckTransactionsProcessor implements Processor<String, TransactionEvent, String, SpecificRecord> {
  /**
   * Inputs of a tenant after which it is pruned and checkpointed at once, whatever the prune
   * interval, by default ({@code check.checkpoint.every.inputs}): at high rates an interval of
   * stream time holds many inputs, and a rebuild replays those after the checkpoint. 200,000
   * replay in seconds (docs/benchmarks.md).
   */
  public static final long CHECKPOINT_EVERY_INPUTS = 200_000;

  private final TenantEngineFactory engineFactory;
  private final CheckerMetrics metrics;
  private final Duration verdictInterval;
  private final Duration idleFlush;
  private final String anomaliesChild;
  private final String verdictsChild;
  /** Stream time between prunes of the loaded engines (docs/segmentation.md); negative: never. */
  private final Duration pruneInterval;
  private final CheckpointPolicy checkpointPolicy;
  private final QuarantineRequests quarantineRequests;
  private TenantQuarantine quarantine;
  private EngineFeed feed;
  private ReplayEndFlush replayEnd;
  private ProcessorContext<String, SpecificRecord> context;

  public CheckTransactionsProcessor(final TenantEngineFactory engines, final CheckerMetrics metrics,
      final Duration verdictInterval, final Duration idleFlush, final String anomaliesChild,
      final String verdictsChild) {
    this(engines, metrics, verdictInterval, idleFlush, anomaliesChild, verdictsChild, Duration.ofMillis(-1));
  }

  /** As above, with a stream-time punctuator that prunes the engines every {@code pruneInterval}. */
  public CheckTransactionsProcessor(final TenantEngineFactory engines, final CheckerMetrics metrics,
      final Duration verdictInterval, final Duration idleFlush, final String anomaliesChild,
      final String verdictsChild, final Duration pruneInterval) {
    this(engines, metrics, verdictInterval, idleFlush, anomaliesChild, verdictsChild, pruneInterval,
        new QuarantineRequests());
  }

  /** As above, quarantining the tenants the app's exception handlers name in {@code quarantineRequests}. */
  public CheckTransactionsProcessor(final TenantEngineFactory engines, final CheckerMetrics metrics,
      final Duration verdictInterval, final Duration idleFlush, final String anomaliesChild,
      final String verdictsChild, final Duration pruneInterval, final QuarantineRequests quarantineRequests) {
    this(engines, metrics, verdictInterval, idleFlush, anomaliesChild, verdictsChild, pruneInterval,
        quarantineRequests, CHECKPOINT_EVERY_INPUTS);
  }

  /** As above, checkpointing a tenant every {@code checkpointEveryInputs} inputs as well. */
  CheckTransactionsProcessor(final TenantEngineFactory engines, final CheckerMetrics metrics,
      final Duration verdictInterval, final Duration idleFlush, final String anomaliesChild,
      final String verdictsChild, final Duration pruneInterval, final long checkpointEveryInputs) {
    this(engines, metrics, verdictInterval, idleFlush, anomaliesChild, verdictsChild, pruneInterval,
        new QuarantineRequests(), checkpointEveryInputs);
  }

  /** As above, quarantining what the exception handlers name and checkpointing every {@code checkpointEveryInputs} inputs. */
  CheckTransactionsProcessor(final TenantEngineFactory engines, final CheckerMetrics metrics,
      final Duration verdictInterval, final Duration idleFlush, final String anomaliesChild,
      final String verdictsChild, final Duration pruneInterval, final QuarantineRequests quarantineRequests,
      final long checkpointEveryInputs) {
    this.engineFactory = engines;
    this.metrics = metrics;
    this.verdictInterval = verdictInterval;
    this.idleFlush = idleFlush;
    this.anomaliesChild = anomaliesChild;
    this.verdictsChild = verdictsChild;
    this.pruneInterval = pruneInterval;
    this.quarantineRequests = quarantineRequests;
    this.checkpointPolicy = new CheckpointPolicy(checkpointEveryInputs);
  }

  /**
   * Wires the collaborators on the task's stores. What they keep in memory mirrors the stores and
   * is rebuilt from them: a task revived after a corrupted state (exactly-once) is initialised again
   * on restored stores, with new collaborators.
   */
  @Override
  public void init(final ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    final TenantSlots slots = new TenantSlots(context.getStateStore(Stores.TENANT_PROGRESS));
    final StoredInputs inputs = new StoredInputs(context.getStateStore(Stores.TENANT_TRANSACTIONS), metrics);
    final PublishedAnomalies published = new PublishedAnomalies(context.getStateStore(Stores.PUBLISHED_ANOMALIES));
    final TenantCheckpoints checkpoints = new TenantCheckpoints(context.getStateStore(Stores.TENANT_CHECKPOINTS));
    final PublishLimit publishLimit = new PublishLimit(ClientLimits.maxRequestBytes(context.appConfigs()));
    final EngineLoader engines = new EngineLoader(engineFactory, slots, checkpoints, inputs, published, metrics);
    final AnomalyPublisher anomalies = new AnomalyPublisher(context, published, publishLimit, metrics, anomaliesChild);
    final VerdictPublisher verdicts =
        new VerdictPublisher(context, engines, slots, anomalies, publishLimit, metrics, verdictsChild);
    quarantine = new TenantQuarantine(context, context.getStateStore(Stores.TENANT_QUARANTINE), quarantineRequests,
        slots, verdicts, metrics);
    final PruneRecorder prunes = new PruneRecorder(metrics);
    final EnginePruner pruner = pruneInterval.compareTo(Duration.ZERO) > 0
        ? new EnginePruner(slots, prunes, new TenantCheckpointer(checkpoints, inputs, published, metrics),
            checkpointPolicy)
        : null;
    feed = new EngineFeed(context, slots, engines, inputs, published, anomalies, verdicts, prunes, pruner, metrics);
    replayEnd = new ReplayEndFlush(ReplayEnd.from(context.appConfigs()), slots, engines, feed, verdicts, quarantine);

    quarantine.gaugeStored();
    context.schedule(verdictInterval, PunctuationType.WALL_CLOCK_TIME, ms -> verdicts.publishChanged(ms, quarantine));
    if (!idleFlush.isNegative()) {
      final IdleFlush idle = new IdleFlush(idleFlush, slots, engines, feed, quarantine);
      context.schedule(IdleFlush.checkEvery(idleFlush), PunctuationType.STREAM_TIME, idle::punctuate);
    }
    if (pruner != null) {
      context.schedule(pruneInterval, PunctuationType.STREAM_TIME, pruner::punctuate);
    }
  }

  @Override
  public void process(final Record<String, TransactionEvent> record) {
    quarantine.run(record.key(), () -> check(record));
    context.recordMetadata().ifPresent(m -> {
      if (replayEnd.after(m, record.timestamp())) {
        // The replay waits for this record's offset to be committed: ask for the commit now rather
        // than at the next commit interval (a user's kafka.commit.interval.ms may be long).
        context.commit();
      }
    });
  }

  /** Adapts the record to the core: a transaction for the tenant's engine, or a malformed event. */
  private void check(final Record<String, TransactionEvent> record) {
    final String tenant = record.key();
    final TransactionEvent event = record.value();
    // The input's own Avro body when decode-transactions passed it on (stored, no encoding again);
    // taken before any store write, which would size the header into its cache entry.
    final byte[] body = EventBodyHeader.take(record.headers());
    final Transaction txn;
    try {
      txn = TransactionEvents.toCore(event);
    } catch (final IllegalArgumentException impossible) {
      feed.malformed(tenant, event, impossible);
      return;
    }
    final String refused = feed.refuses(tenant, txn);
    if (refused != null) {
      // A list-append transaction of a register tenant (docs/list-append.md, "Online"): counted and logged.
      feed.malformed(tenant, event, new IllegalArgumentException(refused));
      return;
    }
    feed.arrival(tenant, event, txn, body, record.timestamp(), context.currentSystemTimeMs());
  }
}
