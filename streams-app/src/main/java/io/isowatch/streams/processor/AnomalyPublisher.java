package io.isowatch.streams.processor;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.online.OnlineEvent;
import io.isowatch.schemas.AnomalyRetraction;
import io.isowatch.schemas.avro.AnomalyRecords;
import io.isowatch.streams.metrics.CheckerMetrics;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes what a tenant's engine reports: each anomaly, and each retraction of one, once. An
 * anomaly is published only if its uniqueId is not in {@code published-anomalies}; with
 * exactly-once processing the store and the topic agree, so no anomaly appears twice. An entry
 * under its anomalyId (written by a release before uniqueIds) counts once, for the first anomaly of
 * that anomalyId. Findings (late or conflicting duplicate transactions...) are counted and logged.
 */
final class AnomalyPublisher {
  private static final Logger LOG = LoggerFactory.getLogger(AnomalyPublisher.class);
  /** Prefix of a retracted anomaly's id in {@code published-anomalies}: its retraction was published. */
  static final String RETRACTED_PREFIX = "retracted:";

  private final ProcessorContext<String, SpecificRecord> context;
  private final PublishedAnomalies published;
  private final PublishLimit publishLimit;
  private final CheckerMetrics metrics;
  private final String anomaliesChild;

  AnomalyPublisher(final ProcessorContext<String, SpecificRecord> context, final PublishedAnomalies published,
      final PublishLimit publishLimit, final CheckerMetrics metrics, final String anomaliesChild) {
    this.context = context;
    this.published = published;
    this.publishLimit = publishLimit;
    this.metrics = metrics;
    this.anomaliesChild = anomaliesChild;
  }

  /** Publishes the anomalies not published before and counts findings; returns the updated progress. */
  TenantProgress publish(final String tenant, final List<OnlineEvent> events, final TenantProgress before,
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
      if (!(event instanceof OnlineEvent.AnomalyPublished reported)) {
        continue;
      }
      p = publishOne(tenant, reported.anomaly(), p, detectedAt, timestamp);
    }
    return p;
  }

  /**
   * Publishes the anomalies a result lists that were not published before: the counterexamples of
   * the weak levels (docs/levels.md, "Anomalies of the weak levels"), which the engine derives when a
   * result is read instead of reporting them as events, so that every anomaly a published verdict
   * lists is on the anomalies topic. The others were published when reported, and are skipped.
   */
  TenantProgress publishListed(final String tenant, final List<Anomaly> listed, final TenantProgress before,
      final long timestamp) {
    TenantProgress p = before;
    final long detectedAt = context.currentSystemTimeMs() * 1_000L;
    for (final Anomaly a : listed) {
      p = publishOne(tenant, a, p, detectedAt, timestamp);
    }
    return p;
  }

  private TenantProgress publishOne(final String tenant, final Anomaly a, final TenantProgress p,
      final long detectedAt, final long timestamp) {
    final Long latency = AnomalyRecords.latencyMicros(a, detectedAt);
    final io.isowatch.schemas.Anomaly avro = AnomalyRecords.toAvro(tenant, a, detectedAt, latency);
    final TenantKey id = TenantKey.ofItem(tenant, avro.getUniqueId());
    if (published.seen(id, p.inputs())) {
      LOG.debug("Anomaly already published tenant=[{}] uniqueId=[{}]", tenant, avro.getUniqueId());
      return p;
    }
    if (publishedBeforeUniqueIds(tenant, avro, id)) {
      return p;
    }
    publishLimit.check(tenant, avro, "anomaly " + avro.getAnomalyId());
    published.record(id, p.inputs());
    context.forward(new Record<String, SpecificRecord>(tenant, avro, timestamp), anomaliesChild);
    metrics.anomalyPublished(tenant, a.type(), a.name(), a.violates(), latency);
    return p.publishedOne();
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
    avro.setRetraction(new AnomalyRetraction(now, r.causeTxn(), r.reason()));
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
    if (!published.adoptLegacy(TenantKey.ofItem(tenant, avro.getAnomalyId()), id)) {
      return false;
    }
    LOG.info("Anomaly published before under its anomalyId, now recorded under its uniqueId tenant=[{}] "
        + "anomalyId=[{}] uniqueId=[{}]", tenant, avro.getAnomalyId(), avro.getUniqueId());
    return true;
  }
}
