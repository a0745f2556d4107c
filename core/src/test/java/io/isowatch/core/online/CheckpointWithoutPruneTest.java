package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link OnlineChecker#cutForCheckpoint()} (issue 10, "bounded by default"): an owner may
 * checkpoint an engine with a horizon whenever it likes, not only right after a prune that pruned
 * something. Engine A is asked for such a checkpoint at random points where a prune prunes nothing
 * (then it cuts at the first position, pruning nothing), and B is restored from A's latest one:
 *
 * <ul>
 *   <li>B returns A's events for every later arrival and the flush and ends with A's result: the
 *       checkpoint is exact;
 *   <li>A stays sound: everything it reports the unsegmented engine proves (the checks of {@link
 *       SegmentationPropertyTest}). A's later self-cuts may fall elsewhere than an engine's that was
 *       never asked (a cut resets when the engine next looks for one), so A is compared with the
 *       truth, not with such an engine.
 * </ul>
 */
class CheckpointWithoutPruneTest {
  private static final int HISTORIES = 12;
  private static final long GRACE = 2_000;

  @Test
  void shouldRestoreExactlyAndStaySoundWhenCheckpointedWithoutAPrune() {
    // Given
    int forced = 0;
    final List<String> failures = new ArrayList<>();
    for (int i = 0; i < HISTORIES; i++) {
      final Random rnd = new Random(41_000 + i);
      final History h = history(rnd, i);
      final CheckOptions options = CheckOptions.defaults().withMaxAnomalies(1_000_000);
      final OnlineOptions online = OnlineOptions.streaming(GRACE)
          .withHorizon(new Horizon(40 + rnd.nextInt(200), Horizon.UNLIMITED, false, 1 << 12));
      final OnlineChecker full = new OnlineChecker(options, OnlineOptions.streaming(GRACE));
      final OnlineChecker a = new OnlineChecker(options, online);
      OnlineChecker b = null;
      String problem = null;

      // When
      final List<Transaction> arrivals = h.transactions();
      for (int j = 0; j < arrivals.size() && problem == null; j++) {
        final Transaction t = arrivals.get(j);
        full.accept(t);
        final List<OnlineEvent> ea = a.accept(t);
        if (b != null && !ea.equals(b.accept(t))) {
          problem = "A and its restored copy B differ at arrival " + j;
        }
        if (rnd.nextInt(25) != 0) {
          continue;
        }
        final boolean cutA = a.prune();
        if (b != null && b.prune() != cutA) {
          problem = "A and B pruned differently at arrival " + j;
        }
        if (!cutA && rnd.nextBoolean()) {
          assertFalse(a.checkpointable());
          final long pruned = a.prunedTransactions();
          assertTrue(a.cutForCheckpoint());
          assertEquals(pruned, a.prunedTransactions(), "a cut for a checkpoint after a prune that pruned nothing");
          final byte[] bytes = a.checkpoint();
          b = OnlineChecker.restore(options, online, bytes);
          assertArrayEquals(bytes, b.checkpoint(), "a restored engine checkpoints to the same bytes");
          forced++;
        }
      }
      if (problem == null) {
        full.flush();
        final List<OnlineEvent> fa = a.flush();
        if (b != null && !fa.equals(b.flush())) {
          problem = "A and B differ at the flush";
        } else if (b != null && !Results.withoutTime(a.result()).equals(Results.withoutTime(b.result()))) {
          problem = "results of A and B differ";
        }
      }
      if (problem != null) {
        failures.add("history " + i + ": " + problem);
      }
      failures.addAll(SegmentationPropertyTest.problems("history " + i, h, options, full.result(), a.result()));
    }

    // Then: and the forced checkpoints did happen, many times
    assertEquals(List.of(), failures);
    assertTrue(forced > 3 * HISTORIES, "too few checkpoints without a prune: " + forced);
  }

  @Test
  void shouldRefuseACheckpointWithoutAHorizon() {
    // Given
    final OnlineChecker unbounded = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(1_000));
    unbounded.accept(new Transaction("T1", "s", 0, io.isowatch.core.history.TxnStatus.COMMITTED, 1, 2,
        List.of(), null, null, 1));

    // When / Then
    assertFalse(unbounded.cutForCheckpoint());
    assertFalse(unbounded.checkpointable());
    assertThrows(IllegalStateException.class, unbounded::checkpoint);
  }

  private static History history(final Random rnd, final int i) {
    final List<Injection> inject = new ArrayList<>();
    final InjectedKind[] kinds = InjectedKind.values();
    for (int j = 0; j < 1 + rnd.nextInt(4); j++) {
      inject.add(new Injection(kinds[rnd.nextInt(kinds.length)], 1 + rnd.nextInt(2)));
    }
    final GeneratorConfig config = GeneratorConfig.defaults().withSeed(900 + i)
        .withTransactions(1_000 + rnd.nextInt(1_500)).withSessions(3 + rnd.nextInt(8))
        .withKeys(4 + rnd.nextInt(30)).withDistribution(new KeyDistribution.Uniform())
        .withInjections(inject).withInjectAt(rnd.nextDouble());
    return HistoryMutations.withStaleReads(MtHistoryGenerator.generateHistory(config), rnd,
        0.002 + rnd.nextDouble() * 0.02);
  }
}
