package io.isowatch.streams.replay;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.schemas.AnomalyIds;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.VerdictFinding;
import io.isowatch.schemas.VerdictReport;
import io.isowatch.schemas.avro.AnomalyRecords;
import io.isowatch.schemas.avro.LevelRecords;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;

/**
 * Builds a tenant's {@link CheckResult} from what the topology published: its last {@link
 * TenantVerdict} (verdicts, reasons, statistics, findings, the ids of the listed anomalies) and the
 * {@code Anomaly} records of the anomalies topic. The result prints with the same TextReport and
 * JsonReport as {@code isowatch check}.
 */
public final class ReplayReports {
  private ReplayReports() {}

  /**
   * @param anomaliesById every anomaly record of the tenant, by {@link AnomalyIds#identity} (its
   *     uniqueId, or its anomalyId when it has none)
   * @param seconds how long the replay's check took, for the statistics
   * @throws IllegalStateException when the verdict lacks its report (a checker older than this
   *     replay) or lists an anomaly that was not published
   */
  public static CheckResult result(final TenantVerdict verdict,
      final Map<String, io.isowatch.schemas.Anomaly> anomaliesById, final double seconds) {
    final VerdictReport report = verdict.getReport();
    if (report == null) {
      throw new IllegalStateException("the verdict of tenant " + verdict.getTenant()
          + " carries no report (published by an older checker)");
    }
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final Map<Level, String> reasons = new EnumMap<>(Level.class);
    for (final LevelVerdict lv : verdict.getLevels()) {
      final Level level = LevelRecords.toCore(lv.getLevel());
      if (level == null) {
        continue; // a level added after this replay's schema: it cannot report it
      }
      final Verdict v = Verdict.valueOf(lv.getVerdict().name());
      verdicts.put(level, v);
      if (v == Verdict.UNKNOWN && lv.getReason() != null) {
        reasons.put(level, lv.getReason());
      }
    }
    final List<Anomaly> anomalies = new ArrayList<>();
    // By uniqueId: two listed anomalies may share an anomalyId. A verdict without uniqueIds comes
    // from a checker that published each anomalyId once, under that id.
    final List<String> listed = report.getListedUniqueIds() != null ? report.getListedUniqueIds()
        : report.getListedAnomalyIds();
    for (final String id : listed) {
      final io.isowatch.schemas.Anomaly a = anomaliesById.get(id);
      if (a == null) {
        throw new IllegalStateException("the verdict of tenant " + verdict.getTenant() + " lists anomaly " + id
            + ", which is not on the anomalies topic");
      }
      anomalies.add(AnomalyRecords.toCore(a));
    }
    final List<Finding> findings = report.getFindings().stream().map(ReplayReports::finding).toList();
    final CheckStats stats = new CheckStats(report.getTransactions(), report.getCommitted(), report.getAborted(),
        report.getUnknownPromoted(), report.getUnknownIgnored(), report.getSessions(), report.getKeys(),
        report.getOperations(), report.getLongRmwTransactions(), report.getLargeReadOnlyTransactions(),
        report.getEdges(), verdict.getCounts().getAnomaliesByName(), report.getAnomaliesTruncated(), seconds);
    return new CheckResult(verdicts, reasons, anomalies, findings, stats);
  }

  private static Finding finding(final VerdictFinding f) {
    final EnumSet<Level> levels = EnumSet.noneOf(Level.class);
    levels.addAll(LevelRecords.toCore(f.getLevels()));
    return new Finding(FindingKind.valueOf(f.getKind()), levels, f.getKey(), f.getCount(), f.getTxns(), List.of(),
        f.getMessage());
  }
}
