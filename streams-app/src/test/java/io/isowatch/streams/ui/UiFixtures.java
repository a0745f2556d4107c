package io.isowatch.streams.ui;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyTransaction;
import io.isowatch.schemas.Edge;
import io.isowatch.schemas.EdgeKind;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.Op;
import io.isowatch.schemas.OpType;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TxnStatus;
import io.isowatch.schemas.Verdict;
import io.isowatch.schemas.VerdictCounts;
import io.isowatch.schemas.avro.AnomalyRecords;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Anomalies and verdicts for the UI's tests: real ones from the checker, and hand-made ones. */
final class UiFixtures {
  private UiFixtures() {}

  /** The anomalies the online engine finds in samples/lost-update.jsonl, as published. */
  static List<Anomaly> lostUpdateSample(final String tenant) throws Exception {
    final History h = HistoryIO.read(Path.of("..", "samples", "lost-update.jsonl"), HistoryFormat.JSONL);
    final CheckResult result = OnlineChecker.check(h, CheckOptions.defaults());
    final long detected = 1_732_180_000_005_000L;
    return result.anomalies().stream()
        .map(a -> AnomalyRecords.toAvro(tenant, a, detected, AnomalyRecords.latencyMicros(a, detected))).toList();
  }

  static Op op(final OpType t, final String k, final Long v) {
    return new Op(t, k, v, null);
  }

  static AnomalyTransaction txn(final String id, final String session, final List<Op> ops) {
    return AnomalyTransaction.newBuilder().setTxn(id).setSession(session).setSeq(0L)
        .setStatus(TxnStatus.COMMITTED).setStartMicros(10L).setEndMicros(20L).setOps(ops).build();
  }

  static Edge edge(final String from, final String to, final EdgeKind kind, final String key, final Long value) {
    return Edge.newBuilder().setFrom(from).setTo(to).setKind(kind).setKey(key).setValue(value).build();
  }

  /** A hand-made anomaly with the given shape. */
  static Anomaly anomaly(final String tenant, final String id, final String type, final String name,
      final List<Level> violates, final List<AnomalyTransaction> txns, final List<Edge> cycle,
      final long detectedAt, final Long latency) {
    return Anomaly.newBuilder().setTenant(tenant).setAnomalyId(id).setType(type).setName(name)
        .setViolates(violates).setTransactions(txns).setCycle(cycle).setExplanation("because")
        .setDetectedAtMicros(detectedAt).setDetectionLatencyMicros(latency).build();
  }

  /** A small anomaly of a tenant, distinguished by id. */
  static Anomaly simple(final String tenant, final String id, final String type, final String name,
      final List<Level> violates, final long detectedAt) {
    return anomaly(tenant, id, type, name, violates,
        List.of(txn("t1", "s1", List.of(op(OpType.READ, "x", 0L)))), List.of(), detectedAt, 1_500_000L);
  }

  static TenantVerdict verdict(final String tenant, final long atMicros, final long checked) {
    return TenantVerdict.newBuilder().setTenant(tenant).setAtMicros(atMicros)
        .setLevels(List.of(new LevelVerdict(Level.SER, Verdict.VIOLATED, "LostUpdate"),
            new LevelVerdict(Level.SI, Verdict.SATISFIED, null)))
        .setCounts(new VerdictCounts(checked, Map.of("LostUpdate", 1L), 0L, Map.of()))
        .build();
  }
}
