package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.WeakHistories;
import io.isowatch.core.testkit.HistoryDsl;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The weak levels across a checkpoint (format 5, docs/segmentation.md, "Checkpoints"): a restored
 * engine decides them as the engine that made the checkpoint would have, and a weak violation
 * proven in a prefix a cut pruned stays proven, which format 4 (SSER, SER and SI only) lost.
 */
class CheckpointWeakLevelsTest {
  // Every weak answer of the engine is also compared with the whole-history check of its state.
  @org.junit.jupiter.api.BeforeAll
  static void crossCheckTheIncrementalWeakCheck() {
    WeakVerdicts.crossCheck = true;
  }

  @org.junit.jupiter.api.AfterAll
  static void stopCrossChecking() {
    WeakVerdicts.crossCheck = false;
  }

  private static final int HISTORIES = 2_000;
  private static final CheckOptions EVERY_LEVEL = CheckOptions.defaults().withLevels(EnumSet.complementOf(EnumSet.of(Level.MIXED)));

  @Test
  void shouldDecideEveryLevelAsCheckDoesWhenRestoredFromACheckpointMidHistory() {
    int violatedWeak = 0;
    for (long seed = 1; seed <= HISTORIES; seed++) {
      // Given: a history of the weak-level generator, checkpointed after half its transactions
      final WeakHistories.Generated g = WeakHistories.generate(seed);
      final CheckOptions options = g.options().withLevels(EnumSet.complementOf(EnumSet.of(Level.MIXED)));
      final List<Transaction> txns = g.history().transactions();
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

      // Then: the verdicts and anomalies of the uninterrupted engine and of check
      final CheckResult want = OnlineChecker.check(g.history(), options);
      final CheckResult got = restored.result();
      assertEquals(first.result().verdicts(), got.verdicts(), g.describe());
      assertEquals(first.result().anomalies(), got.anomalies(), g.describe());
      assertEquals(want.verdicts(), got.verdicts(), g.describe());
      assertEquals(names(want), names(got), g.describe());
      if (got.verdicts().get(Level.RA) == Verdict.VIOLATED) {
        violatedWeak++;
      }
    }
    assertTrue(violatedWeak > HISTORIES / 10, "histories violating RA: " + violatedWeak);
  }

  @Test
  void shouldKeepAWeakViolationOfAPrunedPrefixWhenRestored() {
    // Given: a fractured read first (RA and stronger violated, RC satisfied), then 3,000
    // transactions on other keys, under a horizon of 300 that prunes the fractured read
    final List<Transaction> fractured = HistoryDsl.history("""
        F1 f1 r(fx,0) w(fx,1) r(fy,0) w(fy,1) @1..2
        F2 f2 r(fx,0) r(fy,1) @3..4
        """).transactions();
    final List<Transaction> txns = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(9)
        .withTransactions(3_000).withSessions(5).withKeys(40)).transactions();
    final OnlineOptions online = OnlineOptions.streaming(10).withHorizon(Horizon.ofTransactions(300));
    final OnlineChecker engine = new OnlineChecker(EVERY_LEVEL, online);
    fractured.forEach(engine::accept);
    txns.forEach(engine::accept);
    assertTrue(engine.cutForCheckpoint(), "no cut");
    assertTrue(engine.prunedTransactions() > 2_000, "pruned " + engine.prunedTransactions());
    final byte[] checkpoint = engine.checkpoint();

    // When
    final OnlineChecker restored = OnlineChecker.restore(EVERY_LEVEL, online, checkpoint);

    // Then: format 5, and the restored engine still knows RA, CC, PC ... are violated and RC is not
    assertEquals(CheckpointFormat.VERSION, ByteBuffer.wrap(checkpoint).getInt(4));
    final Map<Level, Verdict> verdicts = restored.result().verdicts();
    assertEquals(engine.result().verdicts(), verdicts);
    for (final Level l : List.of(Level.RA, Level.CC, Level.PC, Level.SI, Level.SER)) {
      assertEquals(Verdict.VIOLATED, verdicts.get(l), l + " in " + verdicts);
    }
    assertEquals(Verdict.SATISFIED, verdicts.get(Level.RC), verdicts.toString());
    assertEquals(Verdict.SATISFIED, verdicts.get(Level.PL2), verdicts.toString());
    assertEquals(restored.result().anomalies(), engine.result().anomalies());
  }

  private static List<String> names(final CheckResult r) {
    return r.anomalies().stream().map(a -> a.displayName() + " " + a.txnIds() + " " + a.violates()).toList();
  }
}
