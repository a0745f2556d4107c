package io.isowatch.streams.processor;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.Finding;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.Verdict;
import io.isowatch.schemas.VerdictCounts;
import io.isowatch.schemas.VerdictFinding;
import io.isowatch.schemas.VerdictReport;
import io.isowatch.schemas.avro.AnomalyRecords;
import io.isowatch.schemas.avro.LevelRecords;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Maps a tenant's {@link CheckResult} to the {@link TenantVerdict} of the verdicts topic. */
public final class VerdictRecords {
  /** The finding kind of well-formed but impossible events (e.g. a write without a value). */
  public static final String MALFORMED_TRANSACTION = "MALFORMED_TRANSACTION";

  /**
   * The finding kind of a tenant whose checking stopped because a record of it could not be handled
   * (docs/streaming.md, "Failure handling").
   */
  public static final String TENANT_QUARANTINED = "TENANT_QUARANTINED";

  private VerdictRecords() {}

  /**
   * The verdict record. Levels the engine finds SATISFIED become UNKNOWN when some events were
   * malformed: the history checked is then incomplete, so satisfaction is not proven.
   *
   * @param malformed the tenant's malformed events (not in the engine)
   * @param buffered transactions received but still waiting for the watermark: not yet in the
   *     dependency graph, so not counted as checked
   * @param pendingReads reads still waiting for their writer
   */
  public static TenantVerdict toAvro(final String tenant, final CheckResult result, final long malformed,
      final long buffered, final long pendingReads, final long atMicros) {
    final List<LevelVerdict> levels = new ArrayList<>();
    // Every level the engine decided (check.levels), strongest first as the contract says.
    for (final io.isowatch.core.check.Level level
        : io.isowatch.core.check.Level.strongestFirst(result.verdicts().keySet())) {
      levels.add(levelVerdict(level, result.verdicts().get(level), result, malformed));
    }
    final Map<String, Long> findings = new TreeMap<>();
    for (final Finding f : result.findings()) {
      findings.merge(f.kind().name(), f.count(), Long::sum);
    }
    if (malformed > 0) {
      findings.put(MALFORMED_TRANSACTION, malformed);
    }
    return TenantVerdict.newBuilder()
        .setTenant(tenant)
        .setAtMicros(atMicros)
        .setLevels(levels)
        .setCounts(VerdictCounts.newBuilder()
            .setTransactionsChecked(Math.max(0, result.stats().transactions() - buffered))
            .setAnomaliesByName(new TreeMap<>(result.stats().anomaliesByName()))
            .setPendingReads(pendingReads)
            .setFindingsByKind(findings)
            .build())
        .setReport(report(tenant, result, buffered))
        .build();
  }

  /** The statistics, listed anomalies (by id) and findings of the result. */
  static VerdictReport report(final String tenant, final CheckResult result, final long buffered) {
    final CheckStats s = result.stats();
    return VerdictReport.newBuilder()
        .setTransactions(s.transactions())
        .setBuffered(buffered)
        .setCommitted(s.committed())
        .setAborted(s.aborted())
        .setUnknownPromoted(s.unknownPromoted())
        .setUnknownIgnored(s.unknownIgnored())
        .setSessions(s.sessions())
        .setKeys(s.keys())
        .setOperations(s.operations())
        .setLongRmwTransactions(s.longRmwTransactions())
        .setLargeReadOnlyTransactions(s.largeReadOnlyTransactions())
        .setEdges(s.edges())
        .setAnomaliesTruncated(s.anomaliesTruncated())
        .setListedAnomalyIds(result.anomalies().stream().map(a -> AnomalyRecords.anomalyId(tenant, a)).toList())
        .setListedUniqueIds(result.anomalies().stream().map(a -> AnomalyRecords.uniqueId(tenant, a)).toList())
        .setFindings(result.findings().stream().map(VerdictRecords::finding).toList())
        .build();
  }

  private static VerdictFinding finding(final Finding f) {
    return VerdictFinding.newBuilder()
        .setKind(f.kind().name())
        .setLevels(LevelRecords.toAvro(io.isowatch.core.check.Level.strongestFirst(f.levels())))
        .setKey(f.key())
        .setCount(f.count())
        .setTxns(f.txns())
        .setMessage(f.message())
        .build();
  }

  /**
   * The verdict of a quarantined tenant: {@code base} (its verdict from the engine, or null when the
   * engine cannot give one) with a {@link #TENANT_QUARANTINED} finding, and every level that is not
   * VIOLATED made UNKNOWN: what came after the quarantine is not checked, while an anomaly proven
   * before it stays proven. Without {@code base}, every level of {@code checked} (the checker's
   * check.levels) is UNKNOWN.
   */
  public static TenantVerdict quarantined(final String tenant, final TenantVerdict base, final String reason,
      final long atMicros, final java.util.Set<io.isowatch.core.check.Level> checked) {
    final String why = "tenant quarantined, its checking stopped: " + reason;
    final List<LevelVerdict> levels = new ArrayList<>();
    final List<Level> undecided = new ArrayList<>();
    if (base == null) {
      for (final io.isowatch.core.check.Level level
          : io.isowatch.core.check.Level.strongestFirst(checked)) {
        levels.add(new LevelVerdict(LevelRecords.toAvro(level), Verdict.UNKNOWN, why));
        undecided.add(LevelRecords.toAvro(level));
      }
    } else {
      for (final LevelVerdict lv : base.getLevels()) {
        if (lv.getVerdict() == Verdict.VIOLATED) {
          levels.add(lv);
        } else {
          levels.add(new LevelVerdict(lv.getLevel(), Verdict.UNKNOWN, why));
          undecided.add(lv.getLevel());
        }
      }
    }
    final VerdictCounts counts = base == null
        ? VerdictCounts.newBuilder().setTransactionsChecked(0).setAnomaliesByName(new TreeMap<>())
            .setPendingReads(0).setFindingsByKind(new TreeMap<>()).build()
        : VerdictCounts.newBuilder(base.getCounts()).build();
    final Map<String, Long> findings = new TreeMap<>(counts.getFindingsByKind());
    findings.put(TENANT_QUARANTINED, 1L);
    counts.setFindingsByKind(findings);
    VerdictReport report = base == null ? null : base.getReport();
    if (report != null) {
      report = VerdictReport.newBuilder(report).build();
      final List<VerdictFinding> listed = new ArrayList<>(report.getFindings());
      listed.add(VerdictFinding.newBuilder().setKind(TENANT_QUARANTINED).setLevels(undecided).setKey(null)
          .setCount(1).setTxns(List.of()).setMessage(why).build());
      report.setFindings(listed);
    }
    return TenantVerdict.newBuilder().setTenant(tenant).setAtMicros(atMicros).setLevels(levels)
        .setCounts(counts).setReport(report).build();
  }

  /** The verdicts of a published TenantVerdict, per core level. */
  public static Map<io.isowatch.core.check.Level, io.isowatch.core.check.Verdict> coreVerdicts(
      final TenantVerdict verdict) {
    final Map<io.isowatch.core.check.Level, io.isowatch.core.check.Verdict> out =
        new java.util.EnumMap<>(io.isowatch.core.check.Level.class);
    for (final LevelVerdict lv : verdict.getLevels()) {
      final io.isowatch.core.check.Level level = LevelRecords.toCore(lv.getLevel());
      if (level != null) {
        out.put(level, io.isowatch.core.check.Verdict.valueOf(lv.getVerdict().name()));
      }
    }
    return out;
  }

  private static LevelVerdict levelVerdict(final io.isowatch.core.check.Level level,
      final io.isowatch.core.check.Verdict v, final CheckResult result, final long malformed) {
    final Level avroLevel = LevelRecords.toAvro(level);
    return switch (v) {
      case VIOLATED -> new LevelVerdict(avroLevel, Verdict.VIOLATED, firstViolation(level, result));
      case UNKNOWN -> new LevelVerdict(avroLevel, Verdict.UNKNOWN, result.reasons().get(level));
      case SATISFIED -> malformed > 0
          ? new LevelVerdict(avroLevel, Verdict.UNKNOWN,
              malformed + " malformed transaction event(s) could not be checked")
          : new LevelVerdict(avroLevel, Verdict.SATISFIED, null);
    };
  }

  private static String firstViolation(final io.isowatch.core.check.Level level, final CheckResult result) {
    for (final Anomaly a : result.anomalies()) {
      if (a.violates().contains(level)) {
        return a.displayName() + " " + String.join(",", a.txnIds());
      }
    }
    return null;
  }
}
