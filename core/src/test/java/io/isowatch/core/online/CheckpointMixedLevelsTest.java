package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.WeakHistories;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * MIXED across a checkpoint (format 6, docs/segmentation.md, "Checkpoints"): what MIXED needs is
 * the retained transactions with their declared levels (the checkpoint's transactions keep their
 * {@code level}), the anomalies that list MIXED (format 6's Level has it) and the published MIXED
 * verdict. A restored engine decides MIXED as the uninterrupted one and as {@code check} do.
 */
class CheckpointMixedLevelsTest {
  private static final int HISTORIES = 1_000;
  private static final List<String> DECLARABLE = List.of("RC", "RA", "CC", "PC", "SI", "SER");

  @Test
  void shouldDecideMixedAsCheckDoesWhenRestoredFromACheckpointMidHistory() {
    int violated = 0;
    int satisfied = 0;
    for (long seed = 1; seed <= HISTORIES; seed++) {
      // Given: a weak-level history whose transactions declare random levels (one in five none,
      // which the default level covers), checkpointed after half its transactions
      final WeakHistories.Generated g = WeakHistories.generate(seed);
      final History history = declared(g.history(), new Random(seed));
      final CheckOptions options = g.options().withLevels(EnumSet.of(Level.MIXED, Level.SER, Level.RC))
          .withDefaultLevel(Level.SI);
      final List<Transaction> txns = history.transactions();
      final int half = txns.size() / 2;
      final OnlineOptions online = OnlineOptions.streaming(0).withHorizon(Horizon.ofTransactions(1_000));
      final OnlineChecker first = new OnlineChecker(options, online);
      txns.subList(0, half).forEach(first::accept);
      assertTrue(first.cutForCheckpoint(), "no cut: " + g.describe());
      final byte[] checkpoint = first.checkpoint();

      // When: restored and fed the rest, as the uninterrupted engine is
      final OnlineChecker restored = OnlineChecker.restore(options, online, checkpoint);
      for (final Transaction t : txns.subList(half, txns.size())) {
        restored.accept(t);
        first.accept(t);
      }
      restored.flush();
      first.flush();

      // Then: format 6, and the verdicts and anomalies of the uninterrupted engine and of check
      assertEquals(CheckpointFormat.VERSION, ByteBuffer.wrap(checkpoint).getInt(4));
      final CheckResult want = OnlineChecker.check(history, options);
      final CheckResult got = restored.result();
      assertEquals(first.result().verdicts(), got.verdicts(), g.describe());
      assertEquals(first.result().anomalies(), got.anomalies(), g.describe());
      assertEquals(want.verdicts(), got.verdicts(), g.describe());
      assertEquals(mixedWitnesses(want), mixedWitnesses(got), g.describe());
      violated += got.verdicts().get(Level.MIXED) == Verdict.VIOLATED ? 1 : 0;
      satisfied += got.verdicts().get(Level.MIXED) == Verdict.SATISFIED ? 1 : 0;
    }
    assertTrue(violated > HISTORIES / 20, "histories violating MIXED: " + violated);
    assertTrue(satisfied > HISTORIES / 20, "histories satisfying MIXED: " + satisfied);
  }

  /** Each transaction declares a random level, or (one in five) none. */
  static History declared(final History h, final Random rnd) {
    final List<Transaction> out = new ArrayList<>();
    for (final Transaction t : h.transactions()) {
      final String level = rnd.nextInt(5) == 0 ? null : DECLARABLE.get(rnd.nextInt(DECLARABLE.size()));
      out.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops(), t.tenant(),
          level, t.line()));
    }
    return new History(out);
  }

  private static List<String> mixedWitnesses(final CheckResult r) {
    return r.anomalies().stream().filter(a -> a.violates().contains(Level.MIXED))
        .map(a -> a.displayName() + " " + a.txnIds() + " " + a.violates()).toList();
  }
}
