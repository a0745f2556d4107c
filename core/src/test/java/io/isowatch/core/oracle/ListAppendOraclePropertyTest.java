package io.isowatch.core.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The list-append check against {@link ListAppendOracle} on small random histories: every
 * SATISFIED the engine gives must hold by the oracle and every VIOLATED must fail by it. Other
 * seeds and sizes by hand: {@code -DargLine="-Dseed=7 -Dhistories=10000"} (seeds 1-10 at 8,000-10,000
 * histories each passed when this was written; seeds 3, 7 and 11 found SI disagreements at
 * 10,000 until SI was rechecked with the stand-in keys' WW edges, ListAppendCheckTest has them
 * minimized), and some levels only: {@code -Dlevels=PL2,RR}.
 */
class ListAppendOraclePropertyTest {
  /** The levels compared; {@code -Dlevels=PL2,RR} by hand to look at some only. */
  /** The chain of levels, strongest first, whose verdicts must imply one another. */
  private static final List<Level> CHAIN = List.of(Level.SER, Level.SI, Level.PC, Level.CC, Level.RA, Level.RC);
  private static final List<Level> LEVELS = java.util.Arrays.stream(System.getProperty("levels", "SSER,SER,SI,RR,PL2,RC,RA,CC,PC")
      .split(",")).map(Level::valueOf).toList();

  @Test
  void shouldAgreeWithTheOracleOnSmallRandomListAppendHistories() {
    // Given: 1500 histories of 2-5 transactions from executions with stale snapshots, aborts,
    // indeterminate transactions and corrupted reads
    final Random random = new Random(Long.getLong("seed", 14));
    final Map<Level, int[]> tally = new EnumMap<>(Level.class); // decided, violated, unknown
    LEVELS.forEach(l -> tally.put(l, new int[3]));
    for (int n = 0; n < Integer.getInteger("histories", 1500); n++) {
      final History h = randomHistory(random);
      // When
      final CheckResult r = WholeHistoryCheck.check(h, CheckOptions.defaults().withLevels(java.util.Set.copyOf(LEVELS)));
      // Then: the chain SER ⇒ SI ⇒ PC ⇒ CC ⇒ RA ⇒ RC holds among the levels compared: no level holds
      // while a weaker one is violated (an UNKNOWN contradicts nothing)
      final List<Level> chain = CHAIN.stream().filter(LEVELS::contains).toList();
      for (int i = 0; i < chain.size(); i++) {
        for (int j = i + 1; j < chain.size(); j++) {
          final Level stronger = chain.get(i);
          final Level weaker = chain.get(j);
          final int index = n;
          assertFalse(r.verdicts().get(stronger) == Verdict.SATISFIED && r.verdicts().get(weaker) == Verdict.VIOLATED,
              () -> "history " + index + ": " + stronger + " SATISFIED but " + weaker + " VIOLATED\n" + HistoryDsl.format(h));
        }
      }
      // And: every decided verdict is the oracle's
      for (final Level level : LEVELS) {
        final Verdict v = r.verdicts().get(level);
        final int[] t = tally.get(level);
        if (v == Verdict.UNKNOWN) {
          t[2]++;
          continue;
        }
        final boolean holds = ListAppendOracle.holds(h, level, 0);
        final int index = n;
        assertEquals(holds, v == Verdict.SATISFIED, () -> "history " + index + ", " + level + ": engine " + v
            + ", oracle " + holds + "\n" + HistoryDsl.format(h) + r.anomalies());
        t[0]++;
        if (!holds) {
          t[1]++;
        }
      }
    }
    // And: the comparison meant something: most verdicts decided, both answers seen
    for (final Level level : LEVELS) {
      final int[] t = tally.get(level);
      System.out.println("ListAppendOraclePropertyTest seed " + Long.getLong("seed", 14) + " " + level
          + " decided/violated/unknown " + t[0] + "/" + t[1] + "/" + t[2]);
      assertTrue(t[0] > 1000 && t[1] > 100 && t[0] - t[1] > 100, level + " decided/violated/unknown " + t[0] + "/"
          + t[1] + "/" + t[2]);
    }
  }

  /**
   * A random execution: each transaction reads a snapshot taken after some earlier commit (the
   * latest one usually) plus its own appends, then commits its appends; times say so (a
   * transaction starts after the last commit its snapshot holds). Some transactions abort (their
   * appends sometimes leak), some reads are corrupted.
   */
  private static History randomHistory(final Random random) {
    final int count = 2 + random.nextInt(4);
    final List<Map<String, List<Long>>> states = new ArrayList<>();
    states.add(new HashMap<>());
    final List<Transaction> txns = new ArrayList<>();
    long next = 1;
    for (int i = 0; i < count; i++) {
      final int snap = random.nextInt(4) == 0 ? random.nextInt(states.size()) : states.size() - 1;
      final Map<String, List<Long>> snapshot = states.get(snap);
      final Map<String, List<Long>> own = new HashMap<>();
      final List<Op> ops = new ArrayList<>();
      final int size = 1 + random.nextInt(3);
      for (int o = 0; o < size; o++) {
        final String key = random.nextBoolean() ? "x" : "y";
        if (random.nextBoolean()) {
          final long v = next++;
          own.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
          ops.add(Op.append(key, v));
        } else {
          final List<Long> seen = new ArrayList<>(snapshot.getOrDefault(key, List.of()));
          seen.addAll(own.getOrDefault(key, List.of()));
          ops.add(Op.readList(key, corrupt(seen, random)));
        }
      }
      final boolean aborted = random.nextInt(8) == 0;
      // Indeterminate: the client never learnt the outcome; its appends took effect or not.
      final boolean unknown = !aborted && random.nextInt(10) == 0;
      final boolean applied = unknown ? random.nextBoolean() : !aborted || random.nextInt(3) == 0;
      final Map<String, List<Long>> after = new HashMap<>(states.get(states.size() - 1));
      if (applied) {
        own.forEach((k, vs) -> {
          final List<Long> list = new ArrayList<>(after.getOrDefault(k, List.of()));
          list.addAll(vs);
          after.put(k, list);
        });
      }
      states.add(after);
      final long start = snap == 0 ? 1 : 10L * (snap - 1) + 6;
      final long end = 10L * i + 5 + (start > 10L * i + 5 ? start : 0);
      txns.add(new Transaction("T" + (i + 1), "s" + random.nextInt(3), Transaction.NO_SEQ,
          aborted ? TxnStatus.ABORTED : unknown ? TxnStatus.UNKNOWN : TxnStatus.COMMITTED, start,
          unknown ? Transaction.NO_TIME : Math.max(end, start), ops, null, null, i + 1));
    }
    return new History(txns);
  }

  private static List<Long> corrupt(final List<Long> list, final Random random) {
    if (list.isEmpty() || random.nextInt(12) != 0) {
      return list;
    }
    final List<Long> c = new ArrayList<>(list);
    switch (random.nextInt(3)) {
      case 0 -> c.remove(random.nextInt(c.size()));
      case 1 -> c.add(c.get(0));
      default -> java.util.Collections.reverse(c);
    }
    return c;
  }
}
