package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.RandomHistories;
import io.isowatch.core.oracle.WeakHistories;
import io.isowatch.core.oracle.WeakLevel;
import io.isowatch.core.oracle.WeakLevelOracle;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code --levels MIXED} in the engine against the oracle of paper 003's semantics ({@link
 * WeakLevelOracle#decideMixed}): random small histories, each transaction given a random declared
 * level among RC, RA, CC, PC, SI and SER (in a random spelling, as the JSONL "level" carries it).
 * A SATISFIED or VIOLATED verdict is the oracle's answer every time; UNKNOWN only with a value
 * written twice; every anomaly that claims MIXED is one the oracle refutes; and the counterexample
 * names a promise that breaks.
 */
class MixedLevelsMatchOracleTest {
  private static final int COUNT = Integer.getInteger("isowatch.mixed.count", 10_000);
  private static final long BASE_SEED = Long.getLong("isowatch.mixed.seed", 3_000_000L);
  private static final List<WeakLevel> CHAIN = List.of(WeakLevel.RC, WeakLevel.RA, WeakLevel.CC, WeakLevel.PC,
      WeakLevel.SI, WeakLevel.SER);
  /** How a declared level may be spelled in a history: IsoWatch's name, its long name, SQL's. */
  private static final Map<WeakLevel, List<String>> SPELLINGS = Map.of(
      WeakLevel.RC, List.of("RC", "read-committed", "READ COMMITTED"),
      WeakLevel.RA, List.of("RA", "read_atomic"),
      WeakLevel.CC, List.of("CC", "causal"),
      WeakLevel.PC, List.of("PC", "prefix"),
      WeakLevel.SI, List.of("SI", "snapshot", "SNAPSHOT ISOLATION"),
      WeakLevel.SER, List.of("SER", "serializable", "SERIALIZABLE"));

  @Test
  void shouldAgreeWithTheOracleOnEveryDecidedMixedVerdict() {
    // Given
    final List<String> failures = new ArrayList<>();
    final int[] tally = new int[3]; // satisfied, violated, unknown
    int refused = 0;
    for (int i = 0; i < COUNT; i++) {
      final Random rnd = new Random(BASE_SEED + i);
      final History plain;
      final CheckOptions given;
      final String described;
      if (i % 3 == 2) {
        final WeakHistories.Generated w = WeakHistories.generate(BASE_SEED + i);
        plain = w.history();
        given = w.options();
        described = w.describe();
      } else {
        final RandomHistories.Generated g = i % 3 == 0
            ? RandomHistories.generate(BASE_SEED + i) : RandomHistories.generateWithBlindWrites(BASE_SEED + i);
        plain = g.history();
        given = g.options();
        described = g.describe();
      }
      final Map<String, WeakLevel> declared = new HashMap<>();
      final List<Transaction> txns = new ArrayList<>();
      for (final Transaction t : plain.transactions()) {
        final WeakLevel l = CHAIN.get(rnd.nextInt(CHAIN.size()));
        declared.put(t.id(), l);
        final List<String> names = SPELLINGS.get(l);
        txns.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), t.ops(), t.tenant(),
            names.get(rnd.nextInt(names.size())), t.line()));
      }
      final History history = new History(txns);
      final boolean holds;
      try {
        holds = WeakLevelOracle.decideMixed(history, given.initialValue(), t -> declared.get(t.id()));
      } catch (final IllegalArgumentException tooBig) {
        refused++;
        continue;
      }
      final String what = "declared " + declared + "\n" + described;

      // When
      final CheckResult r = WholeHistoryCheck.check(history, given.withLevels(EnumSet.of(Level.MIXED, Level.SER)));

      // Then
      final Verdict v = r.verdicts().get(Level.MIXED);
      if (v == Verdict.UNKNOWN) {
        tally[2]++;
        if (r.findings().stream().noneMatch(f -> f.kind() == FindingKind.NON_UNIQUE_WRITE)) {
          failures.add("MIXED UNKNOWN without an excuse (" + r.reasons().get(Level.MIXED) + "), oracle " + holds
              + "\n" + what);
        }
      } else {
        tally[v == Verdict.SATISFIED ? 0 : 1]++;
        if ((v == Verdict.SATISFIED) != holds) {
          failures.add("MIXED " + v + " but the oracle says " + (holds ? "it holds" : "it is violated") + "\n" + what);
        }
      }
      boolean claimed = false;
      for (final Anomaly a : r.anomalies()) {
        if (a.violates().contains(Level.MIXED)) {
          claimed = true;
          if (holds) {
            failures.add(a.displayName() + " claims MIXED, which the oracle says holds\n" + a.explanation() + "\n" + what);
          }
        }
      }
      if (v == Verdict.VIOLATED && !claimed) {
        failures.add("MIXED VIOLATED with no anomaly that says so\n" + what);
      }
    }
    // Then
    assertEquals(List.of(), failures.subList(0, Math.min(3, failures.size())), failures.size() + " disagreement(s)");
    assertTrue(refused < COUNT / 20, refused + " histories refused by the oracle");
    assertTrue(tally[0] > COUNT / 10 && tally[1] > COUNT / 10,
        "satisfied " + tally[0] + ", violated " + tally[1] + ", unknown " + tally[2]);
  }
}
