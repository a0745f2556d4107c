package io.isowatch.core.online;

import static io.isowatch.core.testkit.Outcomes.txns;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The oracle of a cut's replay ({@link CutReplay}, docs/segmentation.md, "How"): told that a
 * retained transaction wrote (k, v), it answers without the replaced state's (key, value) table,
 * and exactly as it does without the hint, also for a value written by a pruned and a retained
 * transaction both (the old state's version of it is the pruned writer's: already checked).
 */
class CutReplayTest {
  private static final CheckOptions OPTIONS = CheckOptions.defaults();

  @Test
  void shouldAnswerAReadOfAValueWrittenByAPrunedAndARetainedWriterAsAlreadyCheckedWithTheHint() {
    // Given: x=5 written by P (pruned) and again by Q (retained); y=7 written only by Q; z=3 only by P
    final OnlineState s = processed("""
        P s1 w(x,5) w(z,3) @10..20
        F s2 r(f,0) w(f,1) @30..40
        Q s3 w(x,5) w(y,7) @50..60
        R s4 r(x,5) r(y,7) r(z,3) @70..80
        """);
    final int cut = s.txns.piPos(s.txns.slotOf("Q"));
    final CutReplay oracle = CutReplay.forReplay(s, cut);
    final int x = keyId(s, "x");
    final int y = keyId(s, "y");
    final int z = keyId(s, "z");

    // When / Then: the hint changes no answer
    assertTrue(oracle.alreadyChecked(x, 5L));
    assertTrue(oracle.alreadyChecked(x, 5L, true));
    assertFalse(oracle.alreadyChecked(y, 7L));
    assertFalse(oracle.alreadyChecked(y, 7L, true));
    assertTrue(oracle.alreadyChecked(z, 3L));
    assertTrue(oracle.alreadyChecked(z, 3L, false));
  }

  @Test
  void shouldGiveTheSameAnswerWithTheHintForEveryRetainedWriteOfGeneratedHistoriesWithRepeatedValues()
      throws Exception {
    // Given: generated histories, some of whose values are written again by a later transaction
    int compared = 0;
    int checkedWithHint = 0;
    for (int seed = 1; seed <= 6; seed++) {
      final List<Transaction> history = new ArrayList<>();
      MtHistoryGenerator.generate(GeneratorConfig.defaults().withSeed(seed).withTransactions(600).withKeys(40),
          history::add);
      final List<Transaction> rewritten = repeatSomeValues(history);
      final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(1_000));
      rewritten.forEach(c::accept);
      c.flush();
      final OnlineState s = c.stateForTests();
      final java.util.Map<String, Integer> keys = new java.util.HashMap<>();
      for (int k = 0; k < s.chains.keyCount(); k++) {
        keys.put(s.chains.keyName(k), k);
      }
      for (final int cut : new int[] {1, s.txns.released() / 3, s.txns.released() / 2, s.txns.released() - 1}) {
        final CutReplay oracle = CutReplay.forReplay(s, cut);

        // When: every (key, value) a retained transaction wrote (a value written again has no
        // version of its own in the old state: its first writer's is the one)
        for (int pos = cut; pos < s.txns.released(); pos++) {
          final Transaction t = s.txns.txn(s.txns.releasedAt(pos));
          for (final Op op : t.ops()) {
            if (!op.isWrite()) {
              continue;
            }
            final int k = keys.get(op.key());
            final Long v = op.value();

            // Then
            final boolean expected = oracle.alreadyChecked(k, v);
            assertEquals(expected, oracle.alreadyChecked(k, v, true),
                "seed " + seed + " cut " + cut + " " + op.key() + "=" + v);
            compared++;
            checkedWithHint += expected ? 1 : 0;
          }
        }
      }
    }
    assertTrue(compared > 1_000, "compared " + compared);
    assertTrue(checkedWithHint > 0, "no value of a retained writer was also a pruned writer's: the test proves nothing");
  }

  /**
   * Every 7th transaction's writes take the value their key was given twelve writes earlier
   * (values written twice: NON_UNIQUE_WRITE), so that some cuts fall between the two writers.
   */
  private static List<Transaction> repeatSomeValues(final List<Transaction> history) {
    final java.util.Map<String, List<Long>> written = new java.util.HashMap<>();
    final List<Transaction> out = new ArrayList<>();
    for (int i = 0; i < history.size(); i++) {
      final Transaction t = history.get(i);
      final List<Op> ops = new ArrayList<>();
      for (final Op op : t.ops()) {
        final List<Long> earlier = written.computeIfAbsent(op.key(), k -> new ArrayList<>());
        if (op.isWrite() && i % 7 == 3 && earlier.size() > 3) {
          ops.add(Op.write(op.key(), earlier.get(Math.max(0, earlier.size() - 12))));
        } else {
          ops.add(op);
          if (op.isWrite()) {
            earlier.add(op.value());
          }
        }
      }
      out.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), ops, t.tenant(), t.level(),
          t.line()));
    }
    return out;
  }

  private static int keyId(final OnlineState s, final String name) {
    for (int k = 0; k < s.chains.keyCount(); k++) {
      if (s.chains.keyName(k).equals(name)) {
        return k;
      }
    }
    throw new AssertionError("no key " + name);
  }

  private static OnlineState processed(final String text) {
    final OnlineChecker c = new OnlineChecker(OPTIONS, OnlineOptions.streaming(1));
    txns(text).forEach(c::accept);
    c.flush();
    return c.stateForTests();
  }
}
