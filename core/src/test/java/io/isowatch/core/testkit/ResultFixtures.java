package io.isowatch.core.testkit;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.CheckStats;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Hand-built check results for report and CLI tests, independent of the engine. The values are
 * chosen to be recognisable in rendered output, not to be what the engine would say.
 */
public final class ResultFixtures {
  /** The lost-update history behind {@link #lostUpdate()}, in the test DSL. */
  public static final String LOST_UPDATE_DSL = "s1-3 s1 r(x,0) w(x,1) @10..20\ns2-7 s2 r(x,0) w(x,2) aborted\n";

  public static final String EXPLANATION = String.join("\n",
      "Let:",
      "  T1 = s1-3",
      "  T2 = s2-7",
      "Then:",
      "  - T1 < T2, because T1 read x=0 and T2 \"overwrote\" it;",
      "  - T2 < T1, because T1 overwrote x=2 written by T2 \\ twice;",
      "  - a contradiction.");

  private ResultFixtures() {}

  /** One LostUpdate violating every level, and one blind-write finding. */
  public static CheckResult lostUpdate() {
    final History h = HistoryDsl.history(LOST_UPDATE_DSL);
    final Anomaly a = new Anomaly(
        "G-single",
        "LostUpdate",
        EnumSet.of(Level.SI, Level.SSER, Level.SER),
        h.transactions(),
        List.of(new Edge("s1-3", "s2-7", EdgeKind.RW, "x", 0L), new Edge("s2-7", "s1-3", EdgeKind.WW, "x", 2L)),
        EXPLANATION);
    final Finding f = new Finding(FindingKind.BLIND_WRITE, Set.of(Level.SI, Level.SSER), "y", 3,
        List.of("s3-1", "s4-2"), List.of(4, 9), "3 writes of y without an earlier read");
    return new CheckResult(
        Map.of(Level.SSER, Verdict.VIOLATED, Level.SER, Verdict.VIOLATED, Level.SI, Verdict.VIOLATED),
        Map.of(),
        List.of(a),
        List.of(f),
        stats(Map.of("LostUpdate", 1L), false));
  }

  /** Every level satisfied, nothing found. */
  public static CheckResult satisfied(final Set<Level> levels) {
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    levels.forEach(l -> verdicts.put(l, Verdict.SATISFIED));
    return new CheckResult(verdicts, Map.of(), List.of(), List.of(), stats(Map.of(), false));
  }

  /** SER satisfied, SI unknown with a reason, SSER unknown with a reason. */
  public static CheckResult unknown() {
    return new CheckResult(
        Map.of(Level.SSER, Verdict.UNKNOWN, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.UNKNOWN),
        Map.of(Level.SSER, "12 transactions lack timestamps", Level.SI, "blind writes on y leave the version order open"),
        List.of(),
        List.of(),
        stats(Map.of(), false));
  }

  /** A contract-breaking input: a duplicate transaction id on line 7. */
  public static CheckResult invalid() {
    final Finding f = new Finding(FindingKind.DUPLICATE_TXN_ID, Set.of(), null, 1, List.of("s1-3"), List.of(7),
        "two transactions share the id s1-3");
    return new CheckResult(
        Map.of(Level.SER, Verdict.UNKNOWN), Map.of(Level.SER, "invalid input"), List.of(), List.of(f),
        stats(Map.of(), false));
  }

  /** {@code shown} G1a anomalies listed out of {@code found}, truncated. */
  public static CheckResult truncated(final int shown, final long found) {
    final History h = HistoryDsl.history("w1 s1 r(x,0) w(x,1) aborted\nr1 s2 r(x,1)");
    final List<Anomaly> anomalies = IntStream.range(0, shown)
        .mapToObj(i -> new Anomaly("G1a", null, Level.CLASSIC, h.transactions(), List.of(),
            "r1 read x=1, written by the aborted w1"))
        .toList();
    return new CheckResult(
        Map.of(Level.SER, Verdict.VIOLATED), Map.of(), anomalies, List.of(), stats(Map.of("G1a", found), true));
  }

  public static CheckStats stats(final Map<String, Long> byName, final boolean truncated) {
    return new CheckStats(2, 1, 1, 0, 0, 2, 1, 4, 0, 0, 2, byName, truncated, 0.0425);
  }
}
