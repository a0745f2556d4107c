package io.isowatch.core.oracle;

import static io.isowatch.core.oracle.WeakLevel.CC;
import static io.isowatch.core.oracle.WeakLevel.PC;
import static io.isowatch.core.oracle.WeakLevel.RA;
import static io.isowatch.core.oracle.WeakLevel.RC;
import static io.isowatch.core.oracle.WeakLevel.RR;
import static io.isowatch.core.oracle.WeakLevel.SER;
import static io.isowatch.core.oracle.WeakLevel.SI;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Mixed per-transaction levels in the oracle ({@link WeakLevelOracle#decideMixed}, paper 003
 * Definition 6: each read satisfies the axioms of its own transaction's level, under one commit
 * order): hand-derived minimal histories, then properties on random histories.
 */
class WeakLevelMixedTest {
  private static final List<WeakLevel> CHAIN = List.of(RC, RA, CC, PC, SI, SER);
  private static final int COUNT = Math.max(1, OracleRuns.COUNT / 2);

  private static final String LOST_UPDATE = """
      T1 s1 r(x,0) w(x,1)
      T2 s2 r(x,0) w(x,2)
      """;

  @Test
  void shouldAllowALostUpdateWhenOneOfTheWritersIsReadCommitted() {
    // Given: the reasoning of paper 003's example in Section 3.2. With both at SER, T1 co T2 makes
    // T2's read of x from T0 break SER (T1 writes x and T1 co T2), and T2 co T1 breaks T1's. With
    // T2 at RC, co T0 T1 T2: T1's read has no SER premise (T2 follows it), T2's no RC premise.
    final History h = HistoryDsl.history(LOST_UPDATE);

    // Then
    assertEquals(false, mixed(h, Map.of("T1", SER, "T2", SER)));
    assertEquals(true, mixed(h, Map.of("T1", SER, "T2", RC)));
    assertEquals(true, mixed(h, Map.of("T1", RC, "T2", SER)));
    assertEquals(false, mixed(h, Map.of("T1", SER, "T2", SI)));
  }

  @Test
  void shouldAllowAWriteSkewWhenOneOfTheTwoIsSnapshotIsolation() {
    // Given: co T0 T1 T2: T1's (SER) reads see no later writer before them; T2's (SI) read of x from
    // T0 has no Prefix premise (T1 is not before a so ∪ wr predecessor of T2) and no Conflict one
    // (T1 and T2 write different keys). Both SER: T2's x from T0 or T1's y from T0 breaks SER.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) r(y,0) w(x,1)
        T2 s2 r(x,0) r(y,0) w(y,2)
        """);

    // Then
    assertEquals(true, mixed(h, Map.of("T1", SER, "T2", SI)));
    assertEquals(false, mixed(h, Map.of("T1", SER, "T2", SER)));
  }

  @Test
  void shouldJudgeAFracturedReadByItsReadersLevel() {
    // Given: T2 reads x from T0 and y from T1, which wrote both; T1 reads only initial values, so
    // its level does not matter; T2's does.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1) r(y,0) w(y,1)
        T2 s2 r(x,0) r(y,1)
        """);

    // Then
    assertEquals(true, mixed(h, Map.of("T1", SER, "T2", RC)));
    assertEquals(false, mixed(h, Map.of("T1", RC, "T2", RA)));
  }

  @Test
  void shouldJudgeAReadOfAWrittenVersionByItsReadersLevelNotItsWritersLevel() {
    // Given: T3 reads x=1 from T1 although it also read from T2, which overwrote x=1. RA: T2 wr T3
    // and T2 writes x, so T2 co T1, against T1 wr T2. RC: the read from T1 comes first, so nothing.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1) w(x,2) r(y,0) w(y,2)
        T3 s3 r(x,1) r(y,2)
        """);

    // Then
    assertEquals(false, mixed(h, Map.of("T1", RC, "T2", RC, "T3", RA)));
    assertEquals(true, mixed(h, Map.of("T1", SER, "T2", SER, "T3", RC)));
  }

  @Test
  void shouldNeedBothReadersAtPrefixWhenForksAreLong() {
    // Given: T3 at PC forces T1 co T2, T4 at PC forces T2 co T1; with T4 at CC only the first holds.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(y,0) w(y,1)
        T3 s3 r(x,1) r(y,0)
        T4 s4 r(y,1) r(x,0)
        """);

    // Then
    assertEquals(true, mixed(h, Map.of("T1", SER, "T2", SER, "T3", PC, "T4", CC)));
    assertEquals(false, mixed(h, Map.of("T1", RC, "T2", RC, "T3", PC, "T4", PC)));
  }

  @Test
  void shouldRefuseAdyaLevelsWhenMixing() {
    // Given
    final History h = HistoryDsl.history(LOST_UPDATE);

    // Then
    assertThrows(IllegalArgumentException.class, () -> mixed(h, Map.of("T1", SER, "T2", RR)));
  }

  @Test
  void shouldEqualTheUniformLevelWhenEveryTransactionHasTheSameLevel() {
    // When
    final List<String> failures = new ArrayList<>();
    for (int i = 0; i < COUNT; i++) {
      final Sample s = sample(i);
      final Map<WeakLevel, Boolean> uniform = WeakLevelOracle.decide(s.history(), s.options());
      for (final WeakLevel l : CHAIN) {
        final boolean mixed = WeakLevelOracle.decideMixed(s.history(), s.options().initialValue(), t -> l);
        if (mixed != uniform.get(l)) {
          failures.add(l + ": mixed " + mixed + ", uniform " + uniform.get(l) + "\n" + s.origin());
        }
      }
    }

    // Then
    assertNone(failures);
  }

  @Test
  void shouldStayConsistentWhenOneTransactionIsWeakened() {
    // Given: paper 003, Section 3.2: a configuration weaker than a consistent one is consistent
    final Random rnd = new Random(OracleRuns.BASE_SEED);
    final List<String> failures = new ArrayList<>();
    int consistent = 0;
    int weakenedInconsistentBefore = 0;

    // When
    for (int i = 0; i < COUNT; i++) {
      final Sample s = sample(i);
      final Map<String, WeakLevel> config = new HashMap<>();
      s.history().transactions().forEach(t -> config.put(t.id(), CHAIN.get(rnd.nextInt(CHAIN.size()))));
      final Map<String, WeakLevel> weaker = new HashMap<>(config);
      final String victim = s.history().transactions().get(rnd.nextInt(s.history().size())).id();
      weaker.put(victim, CHAIN.get(rnd.nextInt(CHAIN.indexOf(config.get(victim)) + 1)));
      final boolean before = mixed(s.history(), s.options().initialValue(), config);
      final boolean after = mixed(s.history(), s.options().initialValue(), weaker);
      if (before && !after) {
        failures.add("consistent at " + config + " but not at " + weaker + "\n" + s.origin());
      }
      consistent += before ? 1 : 0;
      weakenedInconsistentBefore += !before && after ? 1 : 0;
    }

    // Then: not vacuous either way
    assertTrue(consistent > COUNT / 4, "too few consistent configurations: " + consistent);
    assertTrue(weakenedInconsistentBefore > 0, "weakening never mattered");
    assertNone(failures);
  }

  @Test
  void shouldGiveTheSameMixedAnswersWhenPruningIsOff() {
    // When
    final Random rnd = new Random(OracleRuns.BASE_SEED + 1);
    final List<String> failures = new ArrayList<>();
    for (int i = 0; i < COUNT / 5; i++) {
      final Sample s = sample(i);
      final Map<String, WeakLevel> config = new HashMap<>();
      s.history().transactions().forEach(t -> config.put(t.id(), CHAIN.get(rnd.nextInt(CHAIN.size()))));
      final boolean pruned = WeakLevelOracle.decideMixed(
          s.history(), s.options().initialValue(), t -> config.get(t.id()), true);
      final boolean unpruned = WeakLevelOracle.decideMixed(
          s.history(), s.options().initialValue(), t -> config.get(t.id()), false);
      if (pruned != unpruned) {
        failures.add(config + ": pruned " + pruned + ", unpruned " + unpruned + "\n" + s.origin());
      }
    }

    // Then
    assertNone(failures);
  }

  private record Sample(History history, CheckOptions options, String origin) {}

  /** Alternately a {@link RandomHistories} and a {@link WeakHistories} history. */
  private static Sample sample(final int i) {
    final long seed = OracleRuns.BASE_SEED + i / 2;
    if (i % 2 == 0) {
      final RandomHistories.Generated g = RandomHistories.generate(seed);
      return new Sample(g.history(), g.options(), g.describe());
    }
    final WeakHistories.Generated w = WeakHistories.generate(seed);
    return new Sample(w.history(), w.options(), w.describe());
  }

  private static boolean mixed(final History h, final Map<String, WeakLevel> config) {
    return mixed(h, 0L, config);
  }

  private static boolean mixed(final History h, final Long initial, final Map<String, WeakLevel> config) {
    return WeakLevelOracle.decideMixed(h, initial, (Transaction t) -> config.get(t.id()));
  }

  private static void assertNone(final List<String> failures) {
    assertTrue(failures.isEmpty(), () -> failures.size() + " failures; the first:\n"
        + String.join("\n", failures.subList(0, Math.min(5, failures.size()))));
  }
}
