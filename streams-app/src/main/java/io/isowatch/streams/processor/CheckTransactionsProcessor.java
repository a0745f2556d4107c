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
import io.isowatch.streams.engine.TenantEngineFactory;
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
 *   <li>An anomaly is published only if its id is not in {@code published-anomalies}; with
 *       exactly-once processing the store and the topic agree, so no anomaly appears twice.
 *   <li>A wall-clock punctuator publishes a {@link TenantVerdict} for every tenant whose state
 *       changed since the last one.
 *   <li>When {@code check.idle.flush.ms} is set, a stream-time punctuator flushes each tenant that
 *       has buffered transactions and no arrival for that long in stream time (the end of a
 *       replayed topic, a client that stopped); the flush is stored as an input, so a rebuild
 *       replays it. A transaction of that tenant arriving later is processed as late.
 *   <li>Findings the engine publishes (late or conflicting duplicate transactions...) are counted.
 *   <li>A well-formed but impossible event (a write without a value) is a finding: counted in the
 *       tenant's progress and verdict, logged with its coordinates, not checked.
 * </ul>
 */
public final class CheckTransactionsProcessor implements Processor<String, TransactionEvent, String, SpecificRecord> {
  private static final Logger LOG = LoggerFactory.getLogger(CheckTransactionsProcessor.class);
  private static final Duration MIN_FLUSH_CHECK = Duration.ofMillis(1);

  private final TenantEngineFactory engines;
  private final CheckerMetrics metrics;
  private final Duration verdictInterval;
  private final Duration idleFlush;
  private final String anomaliesChild;
  private final String verdictsChild;
  private final EventCodec codec = new EventCodec();
  private final Map<String, TenantEngine> loaded = new HashMap<>();
  private final Set<String> changed = new TreeSet<>();
  private ProcessorContext<String, SpecificRecord> context;
  private KeyValueStore<TenantKey, byte[]> inputs;
  private KeyValueStore<String, TenantProgress> progress;
  private KeyValueStore<TenantKey, Long> published;

  public CheckTransactionsProcessor(final TenantEngineFactory engines, final CheckerMetrics metrics,
      final Duration verdictInterval, final Duration idleFlush, final String anomaliesChild,
      final String verdictsChild) {
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
    this.inputs = context.getStateStore(Stores.TENANT_TRANSACTIONS);
    this.progress = context.getStateStore(Stores.TENANT_PROGRESS);
    this.published = context.getStateStore(Stores.PUBLISHED_ANOMALIES);
    context.schedule(verdictInterval, PunctuationType.WALL_CLOCK_TIME, this::publishVerdicts);
    if (!idleFlush.isNegative()) {
      // Checking a few times per idle period bounds how much longer than it a flush can come.
      final Duration every = idleFlush.dividedBy(4);
      context.schedule(every.compareTo(MIN_FLUSH_CHECK) < 0 ? MIN_FLUSH_CHECK : every,
          PunctuationType.STREAM_TIME, this::flushIdle);
    }
  }

  @Override
  public void process(final Record<String, TransactionEvent> record) {
    final String tenant = record.key();
    final TransactionEvent event = record.value();
    final Transaction txn;
    try {
      txn = TransactionEvents.toCore(event);
    } catch (final IllegalArgumentException impossible) {
      malformed(tenant, event, impossible);
      return;
    }
    final TenantEngine engine = engine(tenant);
    TenantProgress p = progressOf(tenant);
    inputs.put(TenantKey.ofIndex(tenant, p.inputs()),
        EngineInput.encode(new EngineInput.Arrival(record.timestamp() * 1_000L, event), codec));
    if (txn.end() != Transaction.NO_TIME) {
      metrics.arrived(tenant, p.maxEndMicros() == Long.MIN_VALUE ? 0 : Math.max(0, p.maxEndMicros() - txn.end()));
    }
    p = p.arrived(txn.end(), record.timestamp());
    final List<OnlineEvent> events = engine.accept(txn);
    metrics.transactionChecked(tenant);
    p = publish(tenant, events, p, record.timestamp());
    progress.put(tenant, p);
    metrics.tenantState(tenant, engine.pendingReads(), engine.buffered(), p.inputs());
    changed.add(tenant);
  }

  /** The tenant's engine, rebuilt from its stored inputs on first use. */
  private TenantEngine engine(final String tenant) {
    final TenantEngine existing = loaded.get(tenant);
    if (existing != null) {
      return existing;
    }
    final long t0 = System.nanoTime();
    final TenantEngine engine = engines.create(tenant);
    long replayed = 0;
    try (KeyValueIterator<TenantKey, byte[]> it = inputs.prefixScan(tenant, TenantKey.prefix())) {
      while (it.hasNext()) {
        final EngineInput input = EngineInput.decode(it.next().value, codec);
        // Outputs are dropped on purpose: they were published when the input first came.
        if (input instanceof EngineInput.Arrival a) {
          engine.accept(TransactionEvents.toCore(a.event()));
        } else {
          engine.flush();
        }
        replayed++;
      }
    }
    if (replayed > 0) {
      metrics.tenantRestored(tenant);
      LOG.info("Tenant engine rebuilt from its stored inputs tenant=[{}] inputs=[{}] ms=[{}]",
          tenant, replayed, (System.nanoTime() - t0) / 1_000_000);
    }
    loaded.put(tenant, engine);
    return engine;
  }

  private TenantProgress progressOf(final String tenant) {
    final TenantProgress p = progress.get(tenant);
    return p == null ? TenantProgress.empty() : p;
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
      if (!(event instanceof OnlineEvent.AnomalyPublished published)) {
        continue;
      }
      final Anomaly a = published.anomaly();
      final Long latency = AnomalyRecords.latencyMicros(a, detectedAt);
      final io.isowatch.schemas.Anomaly avro = AnomalyRecords.toAvro(tenant, a, detectedAt, latency);
      final TenantKey id = TenantKey.ofItem(tenant, avro.getAnomalyId());
      if (this.published.get(id) != null) {
        LOG.debug("Anomaly already published tenant=[{}] anomalyId=[{}]", tenant, avro.getAnomalyId());
        continue;
      }
      this.published.put(id, detectedAt);
      context.forward(new Record<String, SpecificRecord>(tenant, avro, timestamp), anomaliesChild);
      metrics.anomalyPublished(tenant, a.type(), a.name(), a.violates(), latency);
      p = p.publishedOne();
    }
    return p;
  }

  private void malformed(final String tenant, final TransactionEvent event, final IllegalArgumentException e) {
    final String where = context.recordMetadata().map(CheckTransactionsProcessor::coordinates)
        .orElse("topic=[] partition=[] offset=[]");
    LOG.warn("Impossible transaction event counted as a finding, not checked tenant=[{}] txn=[{}] {} error=[{}]",
        tenant, event.getTxn(), where, e.getMessage());
    progress.put(tenant, progressOf(tenant).malformedOne());
    metrics.inputFinding(tenant, VerdictRecords.MALFORMED_TRANSACTION);
    changed.add(tenant);
  }

  /** Stream-time punctuator: flushes tenants with buffered transactions idle for {@code idleFlush}. */
  private void flushIdle(final long streamTimeMs) {
    for (final Map.Entry<String, TenantEngine> e : loaded.entrySet()) {
      final String tenant = e.getKey();
      TenantProgress p = progressOf(tenant);
      if (e.getValue().buffered() == 0 || streamTimeMs - p.lastArrivalMs() < idleFlush.toMillis()) {
        continue;
      }
      inputs.put(TenantKey.ofIndex(tenant, p.inputs()),
          EngineInput.encode(new EngineInput.Flush(streamTimeMs * 1_000L), codec));
      p = p.flushed();
      LOG.info("Flushing idle tenant tenant=[{}] buffered=[{}] idleMs=[{}]",
          tenant, e.getValue().buffered(), streamTimeMs - p.lastArrivalMs());
      p = publish(tenant, e.getValue().flush(), p, streamTimeMs);
      progress.put(tenant, p);
      changed.add(tenant);
    }
  }

  /** Wall-clock punctuator: a verdict for every tenant that changed since the last one. */
  private void publishVerdicts(final long wallClockMs) {
    for (final String tenant : changed) {
      final TenantEngine engine = engine(tenant);
      final TenantProgress p = progressOf(tenant);
      final TenantVerdict verdict = VerdictRecords.toAvro(
          tenant, engine.result(), p.malformed(), engine.buffered(), engine.pendingReads(),
          wallClockMs * 1_000L);
      context.forward(new Record<String, SpecificRecord>(tenant, verdict, wallClockMs), verdictsChild);
      metrics.verdictPublished(tenant);
      metrics.tenantState(tenant, engine.pendingReads(), engine.buffered(), p.inputs());
    }
    changed.clear();
  }

  /** Where the current record came from, for logs. */
  private static String coordinates(final RecordMetadata m) {
    return "topic=[" + m.topic() + "] partition=[" + m.partition() + "] offset=[" + m.offset() + "]";
  }
}
