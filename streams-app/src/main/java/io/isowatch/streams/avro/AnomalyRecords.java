package io.isowatch.streams.avro;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Edge;
import io.isowatch.core.history.Transaction;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.EdgeKind;
import io.isowatch.schemas.Level;
import java.util.List;

/** Maps a core {@link Anomaly} to the {@code Anomaly} Avro contract published on the anomalies topic. */
public final class AnomalyRecords {
  private AnomalyRecords() {}

  /**
   * The record for one anomaly of a tenant.
   *
   * @param detectedAtMicros when the checker published it, µs since the epoch
   * @param latencyMicros from the end of its last transaction to detection, or null when unknown
   */
  public static io.isowatch.schemas.Anomaly toAvro(
      final String tenant, final Anomaly a, final long detectedAtMicros, final Long latencyMicros) {
    return io.isowatch.schemas.Anomaly.newBuilder()
        .setTenant(tenant)
        .setAnomalyId(AnomalyIds.of(tenant, a.type(), a.name(), a.txnIds()))
        .setType(a.type())
        .setName(a.name())
        .setViolates(a.violates().stream().map(l -> Level.valueOf(l.name())).toList())
        .setCycle(a.cycle().stream().map(AnomalyRecords::edge).toList())
        .setTransactions(a.transactions().stream().map(AnomalyRecords::transaction).toList())
        .setExplanation(a.explanation())
        .setDetectedAtMicros(detectedAtMicros)
        .setDetectionLatencyMicros(latencyMicros)
        .build();
  }

  /** From the end of the anomaly's latest-ending transaction, or null when none has an end. */
  public static Long latencyMicros(final Anomaly a, final long detectedAtMicros) {
    long latest = Long.MIN_VALUE;
    for (final Transaction t : a.transactions()) {
      if (t.end() != Transaction.NO_TIME) {
        latest = Math.max(latest, t.end());
      }
    }
    return latest == Long.MIN_VALUE ? null : Math.max(0L, detectedAtMicros - latest);
  }

  private static io.isowatch.schemas.Edge edge(final Edge e) {
    return io.isowatch.schemas.Edge.newBuilder()
        .setFrom(e.from())
        .setTo(e.to())
        .setKind(EdgeKind.valueOf(e.kind().name()))
        .setKey(e.key())
        .setValue(e.value())
        .build();
  }

  private static AnomalyTransaction transaction(final Transaction t) {
    final List<io.isowatch.schemas.Op> ops = t.ops().stream().map(TransactionEvents::avroOp).toList();
    return AnomalyTransaction.newBuilder()
        .setTxn(t.id())
        .setSession(t.session())
        .setSeq(t.hasSeq() ? t.seq() : null)
        .setStatus(TransactionEvents.avroStatus(t.status()))
        .setStartMicros(t.start() == Transaction.NO_TIME ? null : t.start())
        .setEndMicros(t.end() == Transaction.NO_TIME ? null : t.end())
        .setOps(ops)
        .build();
  }
}
