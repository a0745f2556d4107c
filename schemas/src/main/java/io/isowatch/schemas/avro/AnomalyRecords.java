package io.isowatch.schemas.avro;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Edge;
import io.isowatch.core.history.Transaction;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.EdgeKind;
import java.util.List;

/**
 * Maps a core {@link Anomaly} to the {@code Anomaly} Avro contract published on the anomalies topic,
 * and back ({@code isowatch replay} reports what the topology published).
 */
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
        .setAnomalyId(anomalyId(tenant, a))
        .setType(a.type())
        .setName(a.name())
        .setViolates(LevelRecords.toAvro(io.isowatch.core.check.Level.strongestFirst(a.violates())))
        .setCycle(a.cycle().stream().map(AnomalyRecords::edge).toList())
        .setTransactions(a.transactions().stream().map(AnomalyRecords::transaction).toList())
        .setExplanation(a.explanation())
        .setDetectedAtMicros(detectedAtMicros)
        .setDetectionLatencyMicros(latencyMicros)
        .setUniqueId(uniqueId(tenant, a))
        .setRead(a.read() == null ? null : io.isowatch.schemas.AnomalyRead.newBuilder().setTxn(a.read().txn())
            .setOp(a.read().op()).setKey(a.read().key()).setValue(a.read().value()).build())
        .build();
  }

  /**
   * The anomaly's {@code uniqueId} for the tenant ({@link AnomalyIds#unique}): what the checker
   * deduplicates by and what {@code isowatch check}'s anomaly would be published under.
   */
  public static String uniqueId(final String tenant, final Anomaly a) {
    return AnomalyIds.unique(tenant, a.type(), a.name(), a.txnIds(),
        a.cycle().stream().map(e -> new AnomalyIds.CycleEdge(e.from(), e.to(), e.kind().name(), e.key(), e.value()))
            .toList(),
        a.read() == null ? null : new AnomalyIds.ReadOp(a.read().txn(), a.read().op(), a.read().key(), a.read().value()));
  }

  /** The anomaly's {@code anomalyId} for the tenant, the first definition ({@link AnomalyIds#of}). */
  public static String anomalyId(final String tenant, final Anomaly a) {
    return AnomalyIds.of(tenant, a.type(), a.name(), a.txnIds());
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

  /**
   * The core anomaly of a published record: the same type, name, levels, transactions with their
   * operations, cycle, explanation and read. Source lines are not published, so transactions have none.
   */
  public static Anomaly toCore(final io.isowatch.schemas.Anomaly a) {
    final java.util.Set<io.isowatch.core.check.Level> violates = LevelRecords.toCore(a.getViolates());
    return new Anomaly(a.getType(), a.getName(), violates,
        a.getTransactions().stream().map(t -> transaction(a.getTenant(), t)).toList(),
        a.getCycle().stream().map(e -> new Edge(e.getFrom(), e.getTo(),
            io.isowatch.core.check.EdgeKind.valueOf(e.getKind().name()), e.getKey(), e.getValue())).toList(),
        a.getExplanation(), a.getRead() == null ? null : new io.isowatch.core.check.AnomalyRead(a.getRead().getTxn(),
            a.getRead().getOp(), a.getRead().getKey(), a.getRead().getValue()));
  }

  private static Transaction transaction(final String tenant, final AnomalyTransaction t) {
    final List<io.isowatch.core.history.Op> ops = t.getOps().stream()
        .map(op -> TransactionEvents.coreOp(t.getTxn(), op))
        .toList();
    return new Transaction(t.getTxn(), t.getSession(), t.getSeq() == null ? Transaction.NO_SEQ : t.getSeq(),
        TransactionEvents.status(t.getStatus()),
        t.getStartMicros() == null ? Transaction.NO_TIME : t.getStartMicros(),
        t.getEndMicros() == null ? Transaction.NO_TIME : t.getEndMicros(),
        ops, tenant, null, 0);
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
