package io.isowatch.core.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Edge;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.RegisterHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 3: the search with pruning (reachability over a path cover, forced pairs without
 * variables, keys fixed once, {@link KeyOrders}) decides exactly what the search without pruning
 * (every pair of chains a solver variable, the encoding checked against the brute-force oracle by
 * {@code VersionOrderSearchPropertyTest}) decides, on rw-register histories with blind writes too
 * large for the oracle: simulated SER and SI databases (PolySI's workload, few keys so that many
 * writers share one), some with stale or future reads swapped in. A VIOLATED answer's cycles are
 * closed. The test also counts that pruning forced pairs, fixed whole keys and left the solver
 * work on most histories, so that it reaches the code it guards. Reproduce with {@code
 * -Disowatch.pruning.seed=S}.
 */
class PruningMatchesFullSearchPropertyTest {
  private static final long BASE_SEED = Long.getLong("isowatch.pruning.seed", 20_261_126L);
  private static final int COUNT = Integer.getInteger("isowatch.pruning.count", 800);
  private static final Duration BUDGET = Duration.ofSeconds(30);

  @Test
  void shouldDecideWhatTheSearchWithoutPruningDecidesWhenHistoriesHaveManyBlindWriters() throws IOException {
    // Given
    final List<String> failures = new ArrayList<>();
    int compared = 0;
    int solved = 0;
    int withFixedKeys = 0;
    int violated = 0;
    int satisfied = 0;
    for (int i = 0; i < COUNT; i++) {
      final long seed = BASE_SEED + i;
      final History h = history(seed);
      for (final Level level : Level.CLASSIC) {
        // When
        final VersionOrderSearch.Traced pruned = VersionOrderSearch.traced(h, level, 0L, 0L, BUDGET, true);
        final VersionOrderSearch.Traced full = VersionOrderSearch.traced(h, level, 0L, 0L, BUDGET, false);

        // Then
        final Verdict v = pruned.outcome().verdict();
        if (v == Verdict.UNKNOWN || full.outcome().verdict() == Verdict.UNKNOWN) {
          assertTrue(v == full.outcome().verdict() || budget(pruned) || budget(full),
              () -> "seed " + seed + " " + level + ": " + pruned.outcome().reason() + " / " + full.outcome().reason());
          continue;
        }
        compared++;
        if (v != full.outcome().verdict() && failures.size() < 5) {
          failures.add("seed " + seed + " " + level + ": with pruning " + v + ", without " + full.outcome().verdict()
              + " (pairs " + pruned.pairs() + ", open after pruning " + pruned.open() + ", fixed keys "
              + pruned.fixedKeys() + ")");
        }
        if (v == Verdict.VIOLATED) {
          violated++;
          for (final List<VersionOrderSearch.Step> cycle : pruned.outcome().cycles()) {
            assertClosed(seed, level, cycle);
          }
        } else {
          satisfied++;
        }
        if (pruned.open() >= 0) {
          solved++;
        }
        if (pruned.fixedKeys() > 0) {
          withFixedKeys++;
        }
      }
    }

    // Then
    System.out.println("PruningMatchesFullSearchPropertyTest: " + COUNT + " histories, " + compared + " level verdicts "
        + "compared (" + satisfied + " SATISFIED, " + violated + " VIOLATED), " + solved + " past the greedy order "
        + "into pruning, " + withFixedKeys + " with keys fixed by pruning");
    assertTrue(failures.isEmpty(), () -> String.join("\n", failures));
    assertTrue(solved > COUNT / 8 && withFixedKeys > COUNT / 16 && violated > compared / 5 && satisfied > compared / 5,
        "the histories do not reach pruning often enough: " + solved + " pruned, " + withFixedKeys + " with fixed keys, "
            + violated + " violated, " + satisfied + " satisfied, of " + compared);
  }

  private static boolean budget(final VersionOrderSearch.Traced t) {
    return t.outcome().reason() != null && t.outcome().reason().contains("budget");
  }

  private static void assertClosed(final long seed, final Level level, final List<VersionOrderSearch.Step> cycle) {
    assertTrue(!cycle.isEmpty(), () -> "seed " + seed + " " + level + ": an empty cycle");
    for (int j = 0; j < cycle.size(); j++) {
      final Edge e = cycle.get(j).edge();
      final Edge next = cycle.get((j + 1) % cycle.size()).edge();
      assertEquals(e.to(), next.from(), () -> "seed " + seed + " " + level + ": the cycle is not closed: " + cycle);
    }
  }

  /** A small PolySI-style history: simulated SER or SI database, few keys, some reads made stale or early. */
  static History history(final long seed) throws IOException {
    final SplittableRandom rnd = new SplittableRandom(seed);
    final long txns = 30 + rnd.nextInt(170);
    final int sessions = 2 + rnd.nextInt(6);
    final int keys = 2 + rnd.nextInt(8);
    final int ops = 2 + rnd.nextInt(5);
    final double readRatio = 0.3 + rnd.nextDouble() * 0.4;
    final SimulatedLevel db = rnd.nextBoolean() ? SimulatedLevel.SI : SimulatedLevel.SER;
    final List<Transaction> out = new ArrayList<>();
    RegisterHistoryGenerator.generate(new RegisterHistoryGenerator.Config(seed, txns, sessions, keys, ops, readRatio, db),
        out::add);
    final int swaps = rnd.nextInt(3) == 0 ? 0 : 1 + rnd.nextInt(3);
    for (int s = 0; s < swaps; s++) {
      final int t = rnd.nextInt(out.size());
      final Transaction x = out.get(t);
      final List<Op> changed = new ArrayList<>(x.ops());
      final int o = rnd.nextInt(changed.size());
      final Op op = changed.get(o);
      if (op.isRead() && op.value() != null) {
        // Another version of the same key: values are 0 (initial), 1, 2, ... per key.
        final long other = Math.max(0, op.value() + (rnd.nextBoolean() ? 1 : -1));
        changed.set(o, Op.read(op.key(), other));
        out.set(t, new Transaction(x.id(), x.session(), x.seq(), x.status(), x.start(), x.end(), changed, x.tenant(),
            x.level(), x.line()));
      }
    }
    return new History(out);
  }
}
