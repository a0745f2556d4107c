package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.BruteForceOracle;
import io.isowatch.core.oracle.OracleVerdict;
import io.isowatch.core.oracle.RandomHistories;
import io.isowatch.core.solve.BlindWriteDecision;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bounded search of a level the appended order's witness lost ({@code OnlineChecker.searchPart},
 * {@code MonotoneViolations.ofPart}): random streams with blind writes (half of them with values
 * written twice, where nothing may be proved on a part; the others kept only when the whole history
 * violates SI, so that there is something to prove), the part search on from the first
 * transaction with windows of 2 and 3 (so that most parts have stand-ins of writers outside them),
 * tried again after each new transaction while a level is open,
 * the whole search only on the first result. At every result after a part search proved something,
 * and at every later one, each level VIOLATED where the same checker without the settling says
 * otherwise is judged by the brute-force oracle on the processed transactions, and must be
 * violated there; the proof's transactions are the processed ones (not the stand-ins). Reproduce
 * with {@code -Disowatch.oracle.seed=S}.
 */
class PartSearchPropertyTest {
  private static final long BASE_SEED = Long.getLong("isowatch.oracle.seed", 20_261_128L);
  private static final int COUNT = Integer.getInteger("isowatch.oracle.count", 8_000);
  /** The whole search runs on the first result only (then the budget never allows it). */
  private static final OnlineChecker.SearchBudget FIRST_ONLY = new OnlineChecker.SearchBudget(1, 0, 0);

  @Test
  void shouldProveOnlyViolationsTheOracleFindsOnTheProcessedHistory() {
    // Given
    final List<String> failures = new ArrayList<>();
    long proofs = 0;
    long judged = 0;
    long withStandIns = 0;
    long streams = 0;
    for (int i = 0; i < COUNT; i++) {
      final long seed = BASE_SEED + i;
      final RandomHistories.Generated g = i % 2 == 0 ? RandomHistories.generateWithBlindWrites(seed)
          : RandomHistories.generateWithBlindWritesAndDuplicates(seed);
      if (i % 2 == 0 && BruteForceOracle.judge(g.history(), g.options()).si()) {
        continue; // a stream with unique values that is SI: nothing to prove (the witness's tests cover it)
      }
      streams++;
      final OnlineChecker c = new OnlineChecker(g.options(), OnlineOptions.streaming(0));
      c.searchBudget(FIRST_ONLY);
      c.partSearch(0, 2, 3);
      c.partSearchRate(Long.MAX_VALUE); // a part search that proved nothing is tried again after one new transaction
      final OnlineChecker before = new OnlineChecker(g.options(), OnlineOptions.streaming(0));
      before.searchBudget(FIRST_ONLY);
      before.settleWithoutSearch(false);
      for (final Transaction t : g.history().transactions()) {
        // When
        c.accept(t);
        before.accept(t);
        final CheckResult r = c.result();
        final CheckResult unsettled = before.result();
        if (c.partProofs() == 0) {
          continue;
        }

        // Then
        final History processed = ProcessedHistory.of(c.stateForTests());
        final Map<String, Transaction> byId = new HashMap<>();
        processed.transactions().forEach(p -> byId.put(p.id(), p));
        OracleVerdict oracle = null;
        for (final Level level : Level.CLASSIC) {
          final Verdict v = r.verdicts().get(level);
          if (v != Verdict.VIOLATED || unsettled.verdicts().get(level) == Verdict.VIOLATED) {
            continue;
          }
          oracle = oracle == null ? BruteForceOracle.judge(processed, g.options()) : oracle;
          judged++;
          if (!Boolean.FALSE.equals(oracle.holds(level)) && failures.size() < 5) {
            failures.add("seed " + seed + " after " + processed.size() + " processed: " + level
                + " VIOLATED but the oracle says " + oracle.holds(level) + "\n" + processed.transactions() + "\n"
                + r.anomalies());
          }
        }
        for (final Anomaly a : r.anomalies()) {
          if (BlindWriteDecision.isResultOnly(a) && a.explanation().contains("Searched on the")) {
            proofs++;
            for (final Transaction x : a.transactions()) {
              final Transaction real = byId.get(x.id());
              if (real == null || !real.ops().equals(x.ops())) {
                failures.add("seed " + seed + ": the proof lists " + x + ", not the processed transaction " + real);
              }
            }
          }
        }
      }
      withStandIns += c.partProofs() > 0 ? 1 : 0;
    }
    System.out.println("PartSearchPropertyTest: " + streams + " streams, " + withStandIns + " with a part proof, "
        + judged + " level verdicts VIOLATED by a part proof judged, " + proofs + " proofs listed, "
        + failures.size() + " failures shown");
    assertTrue(failures.isEmpty(), () -> String.join("\n\n", failures));
    assertTrue(judged > 40, "too few part proofs judged: " + judged);
  }
}
