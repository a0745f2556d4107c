package io.isowatch.core.check;

import java.util.List;
import java.util.Map;

/**
 * The outcome of checking one history.
 *
 * @param verdicts one verdict per requested level
 * @param reasons for each UNKNOWN verdict, why it could not be decided
 * @param anomalies the proven anomalies, in a canonical order independent of the source order of
 *     sessions, capped by {@link CheckOptions#maxAnomalies()}
 * @param findings typed input findings
 * @param stats counts and timing
 */
public record CheckResult(
    Map<Level, Verdict> verdicts,
    Map<Level, String> reasons,
    List<Anomaly> anomalies,
    List<Finding> findings,
    CheckStats stats) {
  public CheckResult {
    verdicts = Map.copyOf(verdicts);
    reasons = Map.copyOf(reasons);
    anomalies = List.copyOf(anomalies);
    findings = List.copyOf(findings);
  }

  /** True when the input breaks the history contract (CLI exit 2). */
  public boolean hasInvalidInput() {
    return findings.stream().anyMatch(f -> f.kind().severity() == FindingKind.Severity.INVALID);
  }

  /** True when every requested level is SATISFIED (CLI exit 0). */
  public boolean allSatisfied() {
    return verdicts.values().stream().allMatch(v -> v == Verdict.SATISFIED);
  }
}
