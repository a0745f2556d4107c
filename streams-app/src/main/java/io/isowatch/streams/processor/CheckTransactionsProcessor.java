package io.isowatch.streams.processor;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineEvent;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.streams.Stores;
import io.isowatch.streams.avro.AnomalyRecords;
import io.isowatch.streams.avro.TransactionEvents;
import io.isowatch.streams.engine.TenantEngine;
import io.isowatch.streams.engine.PruneTotals;
import io.isowatch.streams.engine.TenantEngineFactory;
import io.isowatch.streams.fault.ClientLimits;
import io.isowatch.streams.fault.QuarantineRequests;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks each tenant's transactions with its {@link TenantEngine}: stores every input, publishes
 * each new anomaly once, and publishes verdicts on a wall-clock schedule.
 *
 * <ul>
 *   <li>An engine lives in memory per tenant of the task. On the tenant's first record after a
 *       start, a restore or a rebalance it is rebuilt by replaying the tenant's inputs from {@code
 *       tenant-transactions}, publishing nothing: what that replay reports was published before.
 *   <li>An anomaly is published only if its uniqueId is not in {@code published-anomalies}; with
 *       exactly-once processing the store and the topic agree, so no anomaly appears twice. An entry
 *       under its anomalyId (written by a release before uniqueIds) counts once, for the first
 *       anomaly of that anomalyId. Ids no rebuild can report again are trimmed ({@link
 *       PublishedAnomalies}).
 *   <li>At each prune punctuation every tenant with inputs since its checkpoint is checkpointed,
 *       pruned or not ({@link EnginePruner}), and so is a tenant every {@value
 *       #CHECKPOINT_EVERY_INPUTS} inputs: a rebuild replays at most one interval's inputs, and
 *       never more than that many.
 *   <li>A wall-clock punctuator publishes a {@link TenantVerdict} for every tenant whose state
 *       changed since the last one.
 *   <li>When {@code check.idle.flush.ms} is set, a stream-time punctuator flushes each tenant that
 *       has buffered transactions and no arrival for that long in stream time (the end of a
 *       replayed topic, a client that stopped); the flush is stored as an input, so a rebuild
 *       replays it. A transaction of that tenant arriving later is processed as late.
 *   <li>Findings the engine publishes (late or conflicting duplicate transactions...) are counted.
 *   <li>A well-formed but impossible event (a write without a value) is a finding: counted in the
 *       tenant's progress and verdict, logged with its coordinates, not checked.
 *   <li>A tenant whose record cannot be handled (the engine fails on it, an anomaly or verdict is
 *       larger than the producer may send, or an exception handler named it) is quarantined: stored
 *       in {@code tenant-quarantine}, published a verdict with a {@code TENANT_QUARANTINED} finding,
 *       and its later records skipped, so that the others go on and no restart fails on it again.
 * </ul>
 */
public final class CheckTransactionsProcessor implements Processor<String, TransactionEvent, String, SpecificRecord> {
  private static final Logger LOG = LoggerFactory.getLogger(CheckTransactionsProcessor.class);
  private static final Duration MIN_FLUSH_CHECK = Duration.ofMillis(1);
  /**
   * Covered inputs deleted per arriving input: more than one, so that a checkpoint's backlog is gone
   * within a fraction of the prune interval at a steady rate (a quarter of it at 4).
   */
  static final int DELETES_PER_INPUT = 4;
  /**
   * Inputs of a tenant after which it is pruned and checkpointed at once, whatever the prune
   * interval: at high rates an interval of stream time holds many inputs, and a rebuild replays
   * those after the checkpoint. 200,000 replay in seconds (docs/benchmarks.md).
   */
  static final long CHECKPOINT_EVERY_INPUTS = 200_000;

  private final TenantEngineFactory engines;
  private final CheckerMetrics metrics;
  private final Duration verdictInterval;
  private final Duration idleFlush;
  private final String anomaliesChild;
  private final String verdictsChild;
  /** Stream time between prunes of the loaded engines (docs/segmentation.md); negative: never. */
  private final Duration pruneInterval;
  private final long checkpointEveryInputs;
  // The prune punctuator's work, also done for one tenant every checkpointEveryInputs inputs; null
  // when nothing is pruned.
  private EnginePruner pruner;
  private final EventCodec codec = new EventCodec();
  private final Map<String, TenantEngine> loaded = new HashMap<>();
  // Each tenant's progress as last written to the tenant-progress store: read for every record,
  // so kept here rather than decoded from the store each time.
  private final Map<String, TenantProgress> progressKept = new HashMap<>();
  private final Set<String> changed = new TreeSet<>();
  private ProcessorContext<String, SpecificRecord> context;
  private KeyValueStore<TenantKey, byte[]> inputs;
  private KeyValueStore<String, TenantProgress> progress;
  /** Prefix of a retracted anomaly's id in {@code published-anomalies}: its retraction was published. */
  static final String RETRACTED_PREFIX = "retracted:";
  private PublishedAnomalies published;
  private TenantCheckpoints checkpoints;
  // Per loaded tenant: the first input index its rebuild would replay (the ones before are in its
  // checkpoint).
  private final Map<String, Long> firstInput = new HashMap<>();
  // Per loaded tenant: the lowest input index that may still be stored. Inputs from there to
  // firstInput are covered by the checkpoint and deleted a few per arrival, not all at once: at
  // 10K txn/s a minute's inputs deleted in one go stalled the stream thread for about a second.
  private final Map<String, Long> deleteFrom = new HashMap<>();
  // Per loaded tenant: its engine's cut totals when last recorded in the metrics.
  private final Map<String, PruneTotals> prunesSeen = new HashMap<>();
  private ReplayEnd replayEnd = ReplayEnd.none();
  private final QuarantineRequests quarantineRequests;
  private KeyValueStore<String, String> quarantine;
  // Per tenant seen by this processor: whether tenant-quarantine holds it (read once, then kept).
  private final Map<String, Boolean> quarantined = new HashMap<>();
  private PublishLimit publishLimit;

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

  private CheckTransactionsProcessor(final TenantEngineFactory engines, final CheckerMetrics metrics,
      final Duration verdictInterval, final Duration idleFlush, final String anomaliesChild,
      final String verdictsChild, final Duration pruneInterval, final QuarantineRequests quarantineRequests,
      final long checkpointEveryInputs) {
    this.quarantineRequests = quarantineRequests;
    this.pruneInterval = pruneInterval;
    this.checkpointEveryInputs = checkpointEveryInputs;
    this.engines = engines;
    this.metrics = metrics;
    this.verdictInterval = verdictInterval;
    this.idleFlush = idleFlush;
    this.anomaliesChild = anomaliesChild;
    this.verdictsChild = verdictsChild;
  }

  @Override
  public void init(final ProcessorContext<String, SpecificRecord> context) {
    this.context = context;
    // In-memory state mirrors the stores and is rebuilt from them: a task revived after a
    // corrupted state (exactly-once) is initialised again on restored stores.
    loaded.clear();
    progressKept.clear();
    firstInput.clear();
    deleteFrom.clear();
    prunesSeen.clear();
    this.inputs = context.getStateStore(Stores.TENANT_TRANSACTIONS);
    this.progress = context.getStateStore(Stores.TENANT_PROGRESS);
    this.published = new PublishedAnomalies(context.getStateStore(Stores.PUBLISHED_ANOMALIES));
    this.checkpoints = new TenantCheckpoints(context.getStateStore(Stores.TENANT_CHECKPOINTS));
    this.replayEnd = ReplayEnd.from(context.appConfigs());
    this.publishLimit = new PublishLimit(ClientLimits.maxRequestBytes(context.appConfigs()));
    this.quarantine = context.getStateStore(Stores.TENANT_QUARANTINE);
    quarantined.clear();
    // The gauge of every quarantined tenant of the task, from its start on (few entries).
    try (KeyValueIterator<String, String> it = quarantine.all()) {
      it.forEachRemaining(kv -> metrics.tenantQuarantined(kv.key));
    }
    context.schedule(verdictInterval, PunctuationType.WALL_CLOCK_TIME, this::publishVerdicts);
    if (!idleFlush.isNegative()) {
      // Checking a few times per idle period bounds how much longer than it a flush can come.
      final Duration every = idleFlush.dividedBy(4);
      context.schedule(every.compareTo(MIN_FLUSH_CHECK) < 0 ? MIN_FLUSH_CHECK : every,
          PunctuationType.STREAM_TIME, this::flushIdle);
    }
    pruner = null;
    if (pruneInterval.compareTo(Duration.ZERO) > 0) {
      pruner = new EnginePruner(loaded, this::observePrunes, this::saveCheckpoint,
          tenant -> progressOf(tenant).inputs() > firstInput.getOrDefault(tenant, 0L));
      context.schedule(pruneInterval, PunctuationType.STREAM_TIME, pruner::punctuate);
    }
  }

  @Override
  public void process(final Record<String, TransactionEvent> record) {
    guarded(record.key(), () -> check(record));
    if (!replayEnd.isEmpty()) {
      context.recordMetadata()
          .filter(m -> replayEnd.isLast(m.partition(), m.offset()))
          .ifPresent(m -> endOfReplay(m, record.timestamp()));
    }
  }

  /**
   * Runs {@code work} for the tenant unless it is quarantined, and quarantines it when the work (or
   * an exception handler, earlier) finds a record of it that cannot be handled. What Kafka raises
   * (a failed send or serialization, a fenced producer, a store failure) is not the tenant's doing
   * and propagates: the exception handlers decide (see {@code CheckerExceptionHandlers}).
   */
  private void guarded(final String tenant, final Runnable work) {
    if (quarantined.computeIfAbsent(tenant, t -> quarantine.get(t) != null)) {
      LOG.debug("Record of a quarantined tenant skipped tenant=[{}] {}", tenant, where());
      metrics.tenantQuarantined(tenant);
      return;
    }
    final java.util.Optional<String> requested = quarantineRequests.take(tenant);
    if (requested.isPresent()) {
      quarantine(tenant, requested.get(), null);
      return;
    }
    try {
      work.run();
    } catch (final org.apache.kafka.common.KafkaException kafka) {
      throw kafka;
    } catch (final RuntimeException | StackOverflowError e) {
      quarantine(tenant, e.toString(), e);
    }
  }

  /** Quarantines the tenant: stored, counted, logged, and a verdict saying so published now. */
  private void quarantine(final String tenant, final String cause, final Throwable error) {
    final String reason = (cause.length() > 500 ? cause.substring(0, 500) + "…" : cause) + " (" + where() + ")";
    LOG.error("Tenant quarantined: a record of it could not be handled, its checking stopped while the other tenants"
        + " go on tenant=[{}] {} reason=[{}]", tenant, where(), cause, error);
    quarantine.put(tenant, reason);
    quarantined.put(tenant, true);
    metrics.tenantQuarantined(tenant);
    metrics.inputFinding(tenant, VerdictRecords.TENANT_QUARANTINED);
    final long now = context.currentSystemTimeMs();
    TenantVerdict base = null;
    final TenantEngine engine = loaded.remove(tenant);
    if (engine != null) {
      try {
        final TenantProgress p = progressOf(tenant);
        base = VerdictRecords.toAvro(tenant, engine.result(), p.malformed(), engine.buffered(), engine.pendingReads(),
            now * 1_000L);
      } catch (final RuntimeException | StackOverflowError broken) {
        LOG.warn("No verdict from the quarantined tenant's engine tenant=[{}] error=[{}]", tenant, broken.toString());
      }
    }
    TenantVerdict verdict = VerdictRecords.quarantined(tenant, base, reason, now * 1_000L);
    if (!publishLimit.fits(tenant, verdict)) {
      verdict = VerdictRecords.quarantined(tenant, null, reason, now * 1_000L);
    }
    changed.remove(tenant);
    context.forward(new Record<String, SpecificRecord>(tenant, verdict, now), verdictsChild);
    metrics.verdictPublished(tenant);
    metrics.levelVerdicts(tenant, VerdictRecords.coreVerdicts(verdict));
    metrics.verdictFindings(tenant, verdict.getCounts().getFindingsByKind());
  }

  private String where() {
    return context.recordMetadata().map(CheckTransactionsProcessor::coordinates)
        .orElse("topic=[] partition=[] offset=[]");
  }

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
      malformed(tenant, event, impossible);
      return;
    }
    final TenantEngine engine = engine(tenant);
    TenantProgress p = progressOf(tenant);
    inputs.put(TenantKey.ofIndex(tenant, p.inputs()), body != null
        ? EngineInput.arrival(record.timestamp() * 1_000L, body)
        : EngineInput.encode(new EngineInput.Arrival(record.timestamp() * 1_000L, event), codec));
    if (txn.end() != Transaction.NO_TIME) {
      metrics.arrived(tenant, p.maxEndMicros() == Long.MIN_VALUE ? 0 : Math.max(0, p.maxEndMicros() - txn.end()));
    }
    deleteCovered(tenant, DELETES_PER_INPUT);
    published.trim(tenant, DELETES_PER_INPUT);
    p = p.arrived(txn.end(), record.timestamp());
    final List<OnlineEvent> events = engine.accept(txn, record.timestamp() * 1_000L);
    metrics.transactionChecked(tenant);
    p = publish(tenant, events, p, record.timestamp());
    saveProgress(tenant, p);
    metrics.tenantState(tenant, engine.pendingReads(), engine.buffered(), storedInputs(tenant, p));
    metrics.retained(tenant, engine.retainedTransactions());
    observePrunes(tenant, engine);
    if (pruner != null && p.inputs() - firstInput.getOrDefault(tenant, 0L) >= checkpointEveryInputs) {
      pruner.prune(tenant, engine, record.timestamp());
    }
    changed.add(tenant);
  }

  /**
   * Records the cuts the tenant's engine made since the last call: the punctuator's and those the
   * engine makes by itself on reaching its self-cut size while accepting (most of them, at high rates).
   */
  private void observePrunes(final String tenant, final TenantEngine engine) {
    final PruneTotals now = engine.pruneTotals();
    final PruneTotals seen = prunesSeen.getOrDefault(tenant, PruneTotals.NONE);
    if (now.cuts() == seen.cuts()) {
      return;
    }
    prunesSeen.put(tenant, now);
    final long cuts = now.cuts() - seen.cuts();
    final double each = (now.seconds() - seen.seconds()) / cuts;
    for (long i = 0; i < cuts; i++) {
      metrics.pruned(tenant, each, i == 0 ? now.pruned() - seen.pruned() : 0, engine.retainedTransactions());
    }
    // The filters of retired versions change only at cuts.
    metrics.retiredFalsePositiveRatio(tenant, engine.retiredFalsePositiveRatio());
  }

  /**
   * The tenant's engine, rebuilt on first use: from its latest checkpoint, if it has one, and the
   * inputs stored after it.
   */
  private TenantEngine engine(final String tenant) {
    final TenantEngine existing = loaded.get(tenant);
    if (existing != null) {
      return existing;
    }
    final long t0 = System.nanoTime();
    final CheckpointManifest checkpoint = checkpoints.manifest(tenant);
    final TenantEngine engine = checkpoint == null ? engines.create(tenant)
        : engines.restore(tenant, checkpoints.read(tenant, checkpoint));
    final long from = checkpoint == null ? 0 : checkpoint.firstInput();
    firstInput.put(tenant, from);
    deleteFrom.put(tenant, checkpoint == null ? 0 : checkpoint.deletedBelow());
    long replayed = 0;
    try (KeyValueIterator<TenantKey, byte[]> it =
        inputs.range(TenantKey.ofIndex(tenant, from), TenantKey.ofIndex(tenant, Long.MAX_VALUE))) {
      while (it.hasNext()) {
        final EngineInput input = EngineInput.decode(it.next().value, codec);
        // Outputs are dropped on purpose: they were published when the input first came.
        if (input instanceof EngineInput.Arrival a) {
          engine.accept(TransactionEvents.toCore(a.event()), a.streamTimeMicros());
        } else {
          engine.flush();
        }
        replayed++;
      }
    }
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
    loaded.put(tenant, engine);
    // Cuts made while rebuilding were recorded when the inputs first came.
    prunesSeen.put(tenant, engine.pruneTotals());
    return engine;
  }

  /**
   * Stores a checkpoint the prune punctuator took of a tenant's engine (it covers every input stored
   * so far). The inputs it covers are then deleted a few per arrival ({@link #deleteCovered}); what
   * the previous checkpoint covered and is still stored goes now, so that the backlog never exceeds
   * one prune interval's inputs: what keeps {@code tenant-transactions} bounded.
   */
  private void saveCheckpoint(final String tenant, final byte[] checkpoint) {
    final long t0 = System.nanoTime();
    final long upTo = progressOf(tenant).inputs();
    final CheckpointManifest previous = checkpoints.manifest(tenant);
    final long previousFirst = previous == null ? 0 : previous.firstInput();
    deleteCovered(tenant, previousFirst - deleteFrom.getOrDefault(tenant, previousFirst));
    final CheckpointManifest m = checkpoints.write(tenant, checkpoint, upTo, previousFirst, previous);
    firstInput.put(tenant, upTo);
    // No rebuild can report again what was reported before upTo: those ids go, a few per arrival.
    final int ids = published.planTrim(tenant, upTo);
    final TenantEngine engine = loaded.get(tenant);
    metrics.tenantState(tenant, engine.pendingReads(), engine.buffered(), storedInputs(tenant, progressOf(tenant)));
    final double seconds = (System.nanoTime() - t0) / 1e9;
    metrics.checkpointed(tenant, checkpoint.length, seconds);
    LOG.info("Tenant engine checkpointed tenant=[{}] generation=[{}] bytes=[{}] chunks=[{}] inputsCovered=[{}]"
        + " publishedIdsToTrim=[{}] ms=[{}]", tenant, m.generation(), m.bytes(), m.chunks(), upTo - previousFirst, ids,
        Math.round(seconds * 1000));
  }

  /**
   * Deletes up to {@code most} of the tenant's stored inputs that its checkpoint covers, lowest
   * first. A rebuild never reads them (it starts at the checkpoint's first input), so until they go
   * they only take room.
   */
  private void deleteCovered(final String tenant, final long most) {
    final long from = deleteFrom.getOrDefault(tenant, 0L);
    final long n = Math.min(most, firstInput.getOrDefault(tenant, 0L) - from);
    if (n <= 0) {
      return;
    }
    final List<org.apache.kafka.streams.KeyValue<TenantKey, byte[]>> deletes = new java.util.ArrayList<>((int) n);
    for (long i = from; i < from + n; i++) {
      // A null value deletes: unlike delete(), it does not read the old value first.
      deletes.add(org.apache.kafka.streams.KeyValue.pair(TenantKey.ofIndex(tenant, i), null));
    }
    inputs.putAll(deletes);
    deleteFrom.put(tenant, from + n);
    metrics.inputsDeleted(tenant, n);
  }

  /**
   * Inputs of the tenant held in {@code tenant-transactions}: those after its checkpoint, and those
   * it covers that are not deleted yet.
   */
  private long storedInputs(final String tenant, final TenantProgress p) {
    return p.inputs() - deleteFrom.getOrDefault(tenant, 0L);
  }

  private TenantProgress progressOf(final String tenant) {
    final TenantProgress kept = progressKept.get(tenant);
    if (kept != null) {
      return kept;
    }
    final TenantProgress stored = progress.get(tenant);
    final TenantProgress p = stored == null ? TenantProgress.empty() : stored;
    progressKept.put(tenant, p);
    return p;
  }

  private void saveProgress(final String tenant, final TenantProgress p) {
    progressKept.put(tenant, p);
    progress.put(tenant, p);
  }

  /** Publishes the anomalies not published before and counts findings; returns the updated progress. */
  private TenantProgress publish(final String tenant, final List<OnlineEvent> events, final TenantProgress before,
      final long timestamp) {
    TenantProgress p = before;
    final long detectedAt = context.currentSystemTimeMs() * 1_000L;
    for (final OnlineEvent event : events) {
      if (event instanceof OnlineEvent.FindingPublished f) {
        metrics.inputFinding(tenant, f.kind().name());
        LOG.debug("Finding tenant=[{}] kind=[{}] txn=[{}] message=[{}]", tenant, f.kind(), f.txn(), f.message());
        continue;
      }
      if (event instanceof OnlineEvent.AnomalyRetracted retracted) {
        retract(tenant, retracted, detectedAt, timestamp, p.inputs());
        continue;
      }
      if (!(event instanceof OnlineEvent.AnomalyPublished published)) {
        continue;
      }
      final Anomaly a = published.anomaly();
      final Long latency = AnomalyRecords.latencyMicros(a, detectedAt);
      final io.isowatch.schemas.Anomaly avro = AnomalyRecords.toAvro(tenant, a, detectedAt, latency);
      final TenantKey id = TenantKey.ofItem(tenant, avro.getUniqueId());
      if (this.published.seen(id, p.inputs())) {
        LOG.debug("Anomaly already published tenant=[{}] uniqueId=[{}]", tenant, avro.getUniqueId());
        continue;
      }
      if (publishedBeforeUniqueIds(tenant, avro, id)) {
        continue;
      }
      publishLimit.check(tenant, avro, "anomaly " + avro.getAnomalyId());
      this.published.record(id, p.inputs());
      context.forward(new Record<String, SpecificRecord>(tenant, avro, timestamp), anomaliesChild);
      metrics.anomalyPublished(tenant, a.type(), a.name(), a.violates(), latency);
      p = p.publishedOne();
    }
    return p;
  }

  /**
   * Publishes the retraction of an anomaly published earlier (docs/streaming.md, "No false positive
   * from time"): the same record, with its first detection time, and the {@code retraction} field
   * set; once, as anomalies are. One this task never published (an at-least-once crash between
   * the two) is retracted all the same: consumers may have it from another run.
   */
  private void retract(final String tenant, final OnlineEvent.AnomalyRetracted r, final long now, final long timestamp,
      final long position) {
    final io.isowatch.schemas.Anomaly probe = AnomalyRecords.toAvro(tenant, r.anomaly(), now, null);
    final TenantKey retractedId = TenantKey.ofItem(tenant, RETRACTED_PREFIX + probe.getUniqueId());
    if (published.seen(retractedId, position)) {
      LOG.debug("Anomaly already retracted tenant=[{}] uniqueId=[{}]", tenant, probe.getUniqueId());
      return;
    }
    // The store keeps the first detection time only in entries of releases before positions
    // (PublishedAnomalies); otherwise the retraction carries its own time as detectedAtMicros.
    final long detectedAt = published.detectionTime(TenantKey.ofItem(tenant, probe.getUniqueId()))
        .or(() -> published.detectionTime(TenantKey.ofItem(tenant, probe.getAnomalyId())))
        .orElse(now);
    final io.isowatch.schemas.Anomaly avro = AnomalyRecords.toAvro(tenant, r.anomaly(), detectedAt,
        AnomalyRecords.latencyMicros(r.anomaly(), detectedAt));
    avro.setRetraction(new io.isowatch.schemas.AnomalyRetraction(now, r.causeTxn(), r.reason()));
    published.record(retractedId, position);
    context.forward(new Record<String, SpecificRecord>(tenant, avro, timestamp), anomaliesChild);
    metrics.anomalyRetracted(tenant, r.anomaly().type(), r.anomaly().name(), r.anomaly().violates());
    LOG.info("Anomaly retracted tenant=[{}] uniqueId=[{}] name=[{}] cause=[{}]", tenant, avro.getUniqueId(),
        r.anomaly().displayName(), r.causeTxn());
  }

  /**
   * Whether the anomaly was published by a release that deduplicated by {@code anomalyId}: its
   * anomalyId is in the store (a uniqueId never equals another anomaly's anomalyId but by a SHA-256
   * collision). That entry is then moved to its uniqueId, so that it stands for this one anomaly:
   * such a release published only the first anomaly it met of each anomalyId, and a rebuilt engine
   * reports them in the same order, so a second anomaly of that anomalyId (another key, another
   * read), which was never published, is published now.
   */
  private boolean publishedBeforeUniqueIds(final String tenant, final io.isowatch.schemas.Anomaly avro,
      final TenantKey id) {
    if (!this.published.adoptLegacy(TenantKey.ofItem(tenant, avro.getAnomalyId()), id)) {
      return false;
    }
    LOG.info("Anomaly published before under its anomalyId, now recorded under its uniqueId tenant=[{}] "
        + "anomalyId=[{}] uniqueId=[{}]", tenant, avro.getAnomalyId(), avro.getUniqueId());
    return true;
  }

  private void malformed(final String tenant, final TransactionEvent event, final IllegalArgumentException e) {
    final String where = context.recordMetadata().map(CheckTransactionsProcessor::coordinates)
        .orElse("topic=[] partition=[] offset=[]");
    LOG.warn("Impossible transaction event counted as a finding, not checked tenant=[{}] txn=[{}] {} error=[{}]",
        tenant, event.getTxn(), where, e.getMessage());
    saveProgress(tenant, progressOf(tenant).malformedOne());
    metrics.inputFinding(tenant, VerdictRecords.MALFORMED_TRANSACTION);
    changed.add(tenant);
  }

  /** Stream-time punctuator: flushes tenants with buffered transactions idle for {@code idleFlush}. */
  private void flushIdle(final long streamTimeMs) {
    loadIdleTenantsNotLoaded(streamTimeMs);
    final List<String> flushing = new java.util.ArrayList<>();
    for (final Map.Entry<String, TenantEngine> e : loaded.entrySet()) {
      final String tenant = e.getKey();
      TenantProgress p = progressOf(tenant);
      if (e.getValue().buffered() == 0 || streamTimeMs - p.lastArrivalMs() < idleFlush.toMillis()) {
        continue;
      }
      LOG.info("Flushing idle tenant tenant=[{}] buffered=[{}] idleMs=[{}]",
          tenant, e.getValue().buffered(), streamTimeMs - p.lastArrivalMs());
      flushing.add(tenant);
    }
    // Outside the loop over the loaded engines: a quarantine removes the tenant's engine.
    for (final String tenant : flushing) {
      guarded(tenant, () -> flush(tenant, loaded.get(tenant), streamTimeMs));
    }
  }

  /**
   * Rebuilds the engine of every tenant of this task's stores that is not loaded and has been idle
   * for the idle-flush period: an engine lives in memory only, so after a restart, a rebalance or a
   * replaced stream thread a tenant that sends nothing more would otherwise keep its buffered
   * transactions (and the anomalies they prove) unflushed for good. Checked at every punctuation,
   * since a tenant may become idle after the first one; a loaded tenant stays loaded, and
   * quarantined tenants are left alone (one map lookup each).
   */
  private void loadIdleTenantsNotLoaded(final long streamTimeMs) {
    final List<String> idle = new java.util.ArrayList<>();
    try (KeyValueIterator<String, TenantProgress> it = progress.all()) {
      it.forEachRemaining(kv -> {
        if (!loaded.containsKey(kv.key) && streamTimeMs - kv.value.lastArrivalMs() >= idleFlush.toMillis()) {
          idle.add(kv.key);
        }
      });
    }
    for (final String tenant : idle) {
      guarded(tenant, () -> engine(tenant));
    }
  }

  /** Flushes a tenant's engine, storing the flush as an input so that a rebuild replays it. */
  private void flush(final String tenant, final TenantEngine engine, final long streamTimeMs) {
    TenantProgress p = progressOf(tenant);
    inputs.put(TenantKey.ofIndex(tenant, p.inputs()),
        EngineInput.encode(new EngineInput.Flush(streamTimeMs * 1_000L), codec));
    p = publish(tenant, engine.flush(), p.flushed(), streamTimeMs);
    saveProgress(tenant, p);
    observePrunes(tenant, engine);
    changed.add(tenant);
  }

  /**
   * The last record of a replayed partition ({@code replay.end.offsets}) was processed: flush every
   * tenant of this task with buffered transactions or waiting reads, and publish the verdicts now,
   * in the same transaction as this record's offset.
   */
  private void endOfReplay(final RecordMetadata m, final long streamTimeMs) {
    final List<String> tenants = new java.util.ArrayList<>();
    try (KeyValueIterator<String, TenantProgress> it = progress.all()) {
      it.forEachRemaining(kv -> tenants.add(kv.key));
    }
    for (final String tenant : tenants) {
      guarded(tenant, () -> {
        final TenantEngine engine = engine(tenant);
        if (engine.buffered() > 0 || engine.pendingReads() > 0) {
          flush(tenant, engine, streamTimeMs);
        }
      });
    }
    LOG.info("End of replayed partition, tenants flushed {} tenants=[{}]", coordinates(m), tenants.size());
    publishVerdicts(context.currentSystemTimeMs());
  }

  /** Wall-clock punctuator: a verdict for every tenant that changed since the last one. */
  private void publishVerdicts(final long wallClockMs) {
    // A copy: a quarantine removes the tenant from the changed set.
    for (final String tenant : List.copyOf(changed)) {
      guarded(tenant, () -> publishVerdict(tenant, wallClockMs));
    }
    changed.clear();
  }

  private void publishVerdict(final String tenant, final long wallClockMs) {
    {
      final TenantEngine engine = engine(tenant);
      final TenantProgress p = progressOf(tenant);
      final TenantVerdict verdict = VerdictRecords.toAvro(
          tenant, engine.result(), p.malformed(), engine.buffered(), engine.pendingReads(),
          wallClockMs * 1_000L);
      publishLimit.check(tenant, verdict, "verdict");
      context.forward(new Record<String, SpecificRecord>(tenant, verdict, wallClockMs), verdictsChild);
      metrics.verdictPublished(tenant);
      metrics.levelVerdicts(tenant, VerdictRecords.coreVerdicts(verdict));
      metrics.verdictFindings(tenant, verdict.getCounts().getFindingsByKind());
      metrics.tenantState(tenant, engine.pendingReads(), engine.buffered(), storedInputs(tenant, p));
    }
  }

  /** Where the current record came from, for logs. */
  private static String coordinates(final RecordMetadata m) {
    return "topic=[" + m.topic() + "] partition=[" + m.partition() + "] offset=[" + m.offset() + "]";
  }
}
