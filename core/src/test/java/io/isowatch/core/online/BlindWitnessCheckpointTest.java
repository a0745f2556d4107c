package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.solve.BlindWriteDecision;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The appended version order's witness ({@link AppendOrderWitness}) and the violations kept from a
 * search are not in a checkpoint (docs/streaming-design.md, "Blind writes on a long stream"): a
 * restored engine rebuilds the witness from its processed transactions at its first result. This
 * shows that costs nothing in results: engine A is checkpointed (a cut that prunes nothing, as an
 * owner's schedule asks) at several points of a long blind-write stream, B restored from the latest
 * checkpoint, and every later result of B equals A's (verdicts, reasons, the engine's anomalies; a
 * violation kept from a search may carry another search's proof of the same levels), A having
 * itself rebuilt its witness at the cut. The rebuild feeds each processed transaction once (bounded by the
 * retained segment), and B searches at most once more than A (its first result: it has no earlier
 * search to ration by).
 */
class BlindWitnessCheckpointTest {
  private static final int EVERY = 10;

  @Test
  void shouldGiveTheSameResultsAfterARestoreAsTheCheckpointedEngine() {
    for (final SimulatedLevel level : List.of(SimulatedLevel.SER, SimulatedLevel.SI)) {
      // Given: 5,000 rw-register transactions with blind writes; a horizon that never prunes
      final History h = OnlineBlindWritesBenchmark.rwRegister(5_000, level, 11);
      final CheckOptions options = CheckOptions.defaults();
      final OnlineOptions online = OnlineOptions.streaming(1_000)
          .withHorizon(new Horizon(10_000_000, Horizon.UNLIMITED, false, 1 << 12));
      final OnlineChecker a = new OnlineChecker(options, online);
      final OnlineChecker never = new OnlineChecker(options, OnlineOptions.streaming(1_000)); // no horizon, no cut
      OnlineChecker b = null;
      long searchesAtRestore = 0;
      int compared = 0;
      int settled = 0;

      // When
      final List<Transaction> txns = h.transactions();
      for (int i = 0; i < txns.size(); i++) {
        a.accept(txns.get(i));
        never.accept(txns.get(i));
        if (b != null) {
          b.accept(txns.get(i));
        }
        if ((i + 1) % 1_200 == 0) {
          assertTrue(a.cutForCheckpoint(), "a checkpoint at " + (i + 1));
          assertEquals(0, a.prunedTransactions());
          b = OnlineChecker.restore(options, online, a.checkpoint());
          searchesAtRestore = a.blindSearches();
          final CheckResult rb = b.result();
          // Then: the rebuild fed every processed transaction once
          assertEquals(b.stateForTests().txns.released(), b.fedToWitness(), "witness rebuilt at " + (i + 1));
          assertEquals(a.result().verdicts(), rb.verdicts(), level + " at the restore after " + (i + 1));
        } else if (b != null && (i + 1) % EVERY == 0) {
          final CheckResult ra = a.result();
          final CheckResult rb = b.result();
          final int at = i + 1;
          assertEquals(ra.verdicts(), rb.verdicts(), () -> level + " verdicts after " + at + ": " + rb.reasons());
          if (!a.searchDeferred()) {
            assertEquals(never.result().verdicts(), rb.verdicts(), level + " verdicts of an engine never cut, after " + at);
          }
          assertEquals(ra.reasons(), rb.reasons(), level + " reasons after " + at);
          // The engine's anomalies are the same; a kept violation's proof may come from another search (B's
          // first result searched the larger prefix at the restore): it proves the same levels.
          assertEquals(engineOnly(ra), engineOnly(rb), level + " anomalies after " + at);
          assertEquals(proved(ra), proved(rb), level + " levels the search's proofs violate after " + at);
          compared++;
          settled += a.searchDeferred() ? 0 : 1;
        }
      }
      a.flush();
      b.flush();
      assertEquals(a.result(), withSameTime(b.result(), a.result()), level + " after the flush"); // both searched all
      assertTrue(b.blindSearches() <= a.blindSearches() - searchesAtRestore + 1,
          level + ": B searched " + b.blindSearches() + ", A " + (a.blindSearches() - searchesAtRestore) + " since");
      assertTrue(compared > 150 && settled * 20 >= compared * 19, level + ": " + settled + " decided of " + compared);
    }
  }

  private static List<Anomaly> engineOnly(final CheckResult r) {
    return r.anomalies().stream().filter(a -> !BlindWriteDecision.isResultOnly(a)).toList();
  }

  private static Set<Level> proved(final CheckResult r) {
    final Set<Level> out = EnumSet.noneOf(Level.class);
    r.anomalies().stream().filter(BlindWriteDecision::isResultOnly).forEach(a -> out.addAll(a.violates()));
    return out;
  }

  /** {@code r} with the stats of {@code like} (times differ between two engines). */
  private static CheckResult withSameTime(final CheckResult r, final CheckResult like) {
    return new CheckResult(r.verdicts(), r.reasons(), r.anomalies(), r.findings(), like.stats());
  }
}
