package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.oracle.CycleAudit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Segmentation never reports what the whole history does not prove (docs/segmentation.md, "Why
 * no false positive can arise"): generated histories of a few thousand transactions (SER and SI
 * executions, injected anomalies, and reads made stale on purpose, some far beyond the horizon)
 * go through the same stream twice, with and without a small horizon (in transactions, in time, or
 * both; a quarter of the histories with snapshot transactions and cuts aligned on them; self-cuts at
 * 1.1 to 6 horizons). Then
 *
 * <ul>
 *   <li>every read anomaly and lost update the segmented engine lists is listed by the
 *       unsegmented one (same name, same transactions);
 *   <li>every cycle it lists is a cycle of the history ({@link CycleAudit}) and the unsegmented
 *       engine finds the levels it violates violated too;
 *   <li>a StaleReadBeyondHorizon anomaly (SSER) only where the unsegmented engine finds SSER
 *       violated;
 *   <li>no level is VIOLATED with segmentation and SATISFIED or UNKNOWN without it; and the
 *       segmented engine did prune (the test would prove nothing otherwise).
 * </ul>
 */
class SegmentationPropertyTest {
  private static final int HISTORIES = Integer.getInteger("isowatch.segmentation.count", 40);
  private static final long GRACE = 2_000;
  private static final double[] CUT_FACTORS = {Horizon.DEFAULT_CUT_FACTOR, Horizon.MIN_CUT_FACTOR, 3.5, 2.0, 6.0};

  @Test
  void shouldReportOnlyWhatTheUnsegmentedEngineProvesWhenHistoriesAreLongAndHorizonsSmall() {
    // Given
    final List<String> failures = new ArrayList<>();
    long pruned = 0;
    long stale = 0;
    int violatedBoth = 0;
    for (int i = 0; i < HISTORIES; i++) {
      final Random rnd = new Random(7_000 + i);
      final boolean snapshots = i % 4 == 3;
      final History h = snapshots
          ? HistoryMutations.withSnapshots(history(rnd, i), 50 + rnd.nextInt(200)) : history(rnd, i);
      final CheckOptions options = CheckOptions.defaults().withMaxAnomalies(1_000_000);
      final long txns = 20 + rnd.nextInt(300);
      // Generated transactions end about 25 µs apart.
      final long micros = 25 * (20 + rnd.nextInt(300));
      final Horizon base = switch (i % 3) {
        case 0 -> Horizon.ofTransactions(txns);
        case 1 -> Horizon.ofMicros(micros);
        default -> Horizon.ofTransactions(txns).withMicros(micros);
      };
      // Self-cuts at other sizes than twice the horizon (check.horizon.cut.factor) cut elsewhere.
      final Horizon horizon = base.withSnapshots(snapshots).withCutFactor(CUT_FACTORS[i % CUT_FACTORS.length]);

      // When
      final FullAndSegmented run = FullAndSegmented.run(h, options, GRACE, horizon);
      final OnlineChecker full = run.full();
      final OnlineChecker seg = run.seg();
      final CheckResult fr = full.result();
      final CheckResult sr = seg.result();

      // Then
      pruned += seg.prunedTransactions();
      stale += seg.staleReads();
      failures.addAll(problems("history " + i + " horizon " + horizon, h, options, fr, sr));
      if (sr.verdicts().containsValue(Verdict.VIOLATED)) {
        violatedBoth++;
      }
    }
    assertEquals(List.of(), failures.subList(0, Math.min(5, failures.size())), failures.size() + " problems");
    assertTrue(pruned > 10L * HISTORIES * 100, "the segmented engines pruned only " + pruned + " transactions");
    assertTrue(stale > 0, "no read went beyond the horizon: the stale-read path was not exercised");
    assertTrue(violatedBoth > HISTORIES / 4, "too few violations found to exercise soundness: " + violatedBoth);
  }

  static List<String> problems(final String where, final History h, final CheckOptions options,
      final CheckResult full, final CheckResult seg) {
    final List<String> out = new ArrayList<>();
    final Set<String> fullNonCycle = new HashSet<>();
    for (final Anomaly a : full.anomalies()) {
      if (a.cycle().isEmpty() || "LostUpdate".equals(a.name())) {
        fullNonCycle.add(signature(a));
      }
    }
    final CycleAudit audit = new CycleAudit(h, options);
    for (final Anomaly a : seg.anomalies()) {
      if ("StaleReadBeyondHorizon".equals(a.name())) {
        if (full.verdicts().get(Level.SSER) != Verdict.VIOLATED) {
          out.add(where + ": stale read claims SSER but the whole history does not violate it: " + a.explanation());
        }
      } else if (a.cycle().isEmpty() || "LostUpdate".equals(a.name())) {
        if (!fullNonCycle.contains(signature(a))) {
          out.add(where + ": " + signature(a) + " is not reported without segmentation");
        }
      } else {
        final List<String> edges = audit.edgeProblems(a);
        if (!edges.isEmpty()) {
          out.add(where + ": cycle " + signature(a) + " is not a cycle of the history: " + edges);
        }
        for (final Level l : a.violates()) {
          // Only the levels decided: an anomaly also lists levels that were not requested.
          if (full.verdicts().containsKey(l) && full.verdicts().get(l) != Verdict.VIOLATED) {
            out.add(where + ": cycle " + signature(a) + " claims " + l + " violated, the whole history does not");
          }
        }
      }
    }
    for (final Level l : seg.verdicts().keySet()) {
      if (seg.verdicts().get(l) == Verdict.VIOLATED && full.verdicts().get(l) != Verdict.VIOLATED) {
        out.add(where + ": " + l + " VIOLATED with segmentation, " + full.verdicts().get(l) + " without");
      }
    }
    if (seg.findings().stream().noneMatch(f -> f.kind() == FindingKind.HORIZON_PRUNED)) {
      out.add(where + ": nothing pruned");
    }
    return out;
  }

  private static String signature(final Anomaly a) {
    return a.displayName() + new TreeSet<>(a.txnIds());
  }

  /** A generated history, with some reads made to return an older value of their key. */
  private static History history(final Random rnd, final int i) {
    final GeneratorConfig config = RandomMtConfigs.config(rnd, i, 100 + i, new RandomMtConfigs.Range(3_000, 3_000),
        new RandomMtConfigs.Range(4, 12), new RandomMtConfigs.Range(5, 60));
    final History h = MtHistoryGenerator.generateHistory(config);
    final double staleRate = i % 2 == 0 ? 0 : 0.002 + rnd.nextDouble() * 0.01;
    return staleRate == 0 ? h : HistoryMutations.withStaleReads(h, rnd, staleRate);
  }
}
