package io.isowatch.streams.replay;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.report.JsonReport;
import io.isowatch.core.report.TextReport;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.avro.AnomalyRecords;
import io.isowatch.streams.processor.VerdictRecords;
import io.isowatch.streams.testkit.JsonTrees;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A result published as a verdict and anomaly records reads back as the same report. */
class ReplayReportsTest {
  private static final String TENANT = "acme";
  /** The source lines, which the published records do not carry. */
  private static final Set<String> LINES = Set.of("line", "lines");

  @Test
  void shouldRebuildTheSameReportWhenReadingBackAPublishedVerdictAndItsAnomalies() {
    // Given: two lost updates (one listed), a blind write and a seq gap.
    final CheckResult original = OnlineChecker.check(history("""
        T1 s1 r(x,0) w(x,1) @10..20 seq=0
        T2 s2 r(x,0) w(x,2) @15..30 seq=0
        T3 s3 r(y,0) w(y,1) @40..50 seq=0
        T4 s4 r(y,0) w(y,2) @41..51 seq=0
        T5 s5 w(z,7) @60..70 seq=0
        T6 s1 r(q,0) @80..90 seq=2
        """), new CheckOptions(Level.CLASSIC, 0L, 0, 1));
    final TenantVerdict verdict = VerdictRecords.toAvro(TENANT, original, 0, 0, 0, 123L);
    final Map<String, Anomaly> published = publishedAnomalies(original);
    // When
    final CheckResult back = ReplayReports.result(verdict, published, original.stats().seconds());
    // Then: everything but the source lines, which are not published.
    assertTrue(original.stats().anomaliesTruncated(), "the case lists fewer anomalies than it found");
    assertTrue(!original.findings().isEmpty(), "the case has findings");
    assertEquals(JsonTrees.without(JsonReport.toTree(original), LINES), JsonTrees.without(JsonReport.toTree(back), LINES));
    // The explanations are published verbatim (with the lines they cite); findings lose theirs.
    assertEquals(new TextReport(false).render(original).replaceAll("(?m)^ +lines: [0-9, ]+\n", ""),
        new TextReport(false).render(back));
  }

  @Test
  void shouldListBothWhenTwoPublishedAnomaliesShareAnAnomalyId() {
    // Given: one pair's lost updates on two keys, both published under their uniqueIds
    final CheckResult original = OnlineChecker.check(history("""
        T1 s1 r(x,0) r(y,0) w(x,1) w(y,1) @10..20
        T2 s2 r(x,0) r(y,0) w(x,2) w(y,2) @15..30
        """), CheckOptions.defaults());
    final TenantVerdict verdict = VerdictRecords.toAvro(TENANT, original, 0, 0, 0, 123L);
    // When
    final CheckResult back = ReplayReports.result(verdict, publishedAnomalies(original), 0.1);
    // Then
    assertEquals(2, back.anomalies().size());
    assertEquals(original.anomalies().stream().map(a -> a.cycle()).toList(),
        back.anomalies().stream().map(a -> a.cycle()).toList());
  }

  @Test
  void shouldFindTheAnomaliesByAnomalyIdWhenTheVerdictAndRecordsPredateUniqueIds() {
    // Given: a verdict and records of a checker that had no uniqueId
    final CheckResult original = OnlineChecker.check(history("T1 s1 r(x,0) w(x,1) @10..20\nT2 s2 r(x,0) w(x,2) @15..30"),
        CheckOptions.defaults());
    final TenantVerdict verdict = VerdictRecords.toAvro(TENANT, original, 0, 0, 0, 123L);
    verdict.getReport().setListedUniqueIds(null);
    final Map<String, Anomaly> byIdentity = new HashMap<>();
    for (final Anomaly a : publishedAnomalies(original).values()) {
      a.setUniqueId(null);
      a.setRead(null);
      byIdentity.put(io.isowatch.schemas.AnomalyIds.identity(a), a);
    }
    // When
    final CheckResult back = ReplayReports.result(verdict, byIdentity, 0.1);
    // Then
    assertEquals(List.of("LostUpdate"), back.anomalies().stream().map(a -> a.displayName()).toList());
  }

  @Test
  void shouldRefuseWhenTheVerdictListsAnAnomalyThatWasNotPublished() {
    // Given
    final CheckResult original = OnlineChecker.check(history("T1 s1 r(x,0) w(x,1) @10..20\nT2 s2 r(x,0) w(x,2) @15..30"),
        CheckOptions.defaults());
    final TenantVerdict verdict = VerdictRecords.toAvro(TENANT, original, 0, 0, 0, 123L);
    // When / Then
    final IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> ReplayReports.result(verdict, Map.of(), 0.1));
    assertTrue(e.getMessage().contains("is not on the anomalies topic"), e.getMessage());
  }

  private static Map<String, Anomaly> publishedAnomalies(final CheckResult result) {
    final Map<String, Anomaly> out = new HashMap<>();
    for (final io.isowatch.core.check.Anomaly a : result.anomalies()) {
      final Anomaly avro = AnomalyRecords.toAvro(TENANT, a, 1L, null);
      out.put(avro.getUniqueId(), avro);
    }
    return out;
  }
}
