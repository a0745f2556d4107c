package io.isowatch.core.oracle;

import static io.isowatch.core.oracle.WeakLevel.CC;
import static io.isowatch.core.oracle.WeakLevel.PC;
import static io.isowatch.core.oracle.WeakLevel.RA;
import static io.isowatch.core.oracle.WeakLevel.RC;
import static io.isowatch.core.oracle.WeakLevel.RC_ADYA;
import static io.isowatch.core.oracle.WeakLevel.RR;
import static io.isowatch.core.oracle.WeakLevel.SER;
import static io.isowatch.core.oracle.WeakLevel.SI;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.core.history.History;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The weak-level oracle on minimal histories, one per named anomaly, each expected result derived
 * by hand from the definitions (the axioms of dpor-weak-isolation Figure 2 and Figure A.1, Adya's
 * PL-2 and PL-2.99) in the comment above it. Every assertion compares the whole map of levels.
 */
class WeakLevelOracleTest {
  private static final Set<WeakLevel> ALL = EnumSet.allOf(WeakLevel.class);

  @Test
  void shouldSatisfyEveryLevelWhenTheHistoryIsSerial() {
    // Given: T1 then T2 (which reads T1's x), serial.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1) w(x,2) r(y,0)
        """);

    // Then
    assertHolds(h, 0L, ALL);
  }

  @Test
  void shouldViolateOnlySiSerAndRrWhenAnUpdateIsLost() {
    // Given: both read x=0 and overwrite it. RC/RA/CC: no premise holds (neither saw the other),
    // PC: co T0 T1 T2 has no t4 ≥ T1 before T2 in so ∪ wr. Conflict: T2 reads x from T0, T1 writes
    // x and so does T2, T1 co T2, hence T1 co T0: impossible (and symmetrically). Adya: every version
    // order has T2 -rw-> T1 -ww-> T2 (or the mirror): a G2-item cycle, no G1c.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,0) w(x,2)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA, RC, RA, CC, PC));
  }

  @Test
  void shouldViolateOnlySerAndRrWhenWritesSkew() {
    // Given: both read x and y at 0, T1 writes x, T2 writes y. Conflict needs t3 and t4 writing a
    // common key: none, so SI holds (co T0 T1 T2). SER: T2 reads x from T0 while T1 co T2 writes x.
    // Adya: T1 -rw-> T2 (y) and T2 -rw-> T1 (x): G2-item.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) r(y,0) w(x,1)
        T2 s2 r(x,0) r(y,0) w(y,2)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA, RC, RA, CC, PC, SI));
  }

  @Test
  void shouldViolateReadAtomicButNotReadCommittedWhenAReadIsFractured() {
    // Given: T2 reads x=0 (T0) then y=1 (T1), and T1 wrote both. RA: T2 reads x from T0, T1 writes
    // x and T1 wr T2, so T1 co T0: impossible. RC only constrains reads after the read of T1's y:
    // none. Adya: T2 -rw-> T1 -wr-> T2 has an anti-dependency: not G1c, but G2-item.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1) r(y,0) w(y,1)
        T2 s2 r(x,0) r(y,1)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA, RC));
  }

  @Test
  void shouldViolateCausalButNotReadAtomicWhenCausalityIsViolated() {
    // Given: T3 reads y from T2, which read x from T1, then reads x=0. CC: T1 (so ∪ wr)+ T3 and T1
    // writes x, so T1 co T0: impossible. RA: T1 is not a direct so ∪ wr predecessor of T3, so RA
    // holds (co T0 T1 T2 T3); RC: T3's earlier read is from T2, which does not write x.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1) r(y,0) w(y,1)
        T3 s3 r(y,1) r(x,0)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA, RC, RA));
  }

  @Test
  void shouldViolatePrefixButNotCausalWhenForksAreLong() {
    // Given: T3 sees T1's x but not T2's y; T4 sees T2's y but not T1's x. CC holds: neither
    // writer is a causal predecessor of the reader that misses it. Prefix: T3 reads y from T0 and
    // T1 wr T3, so T2 co* T1 would force T2 co T0; hence T1 co T2, and by T4 symmetrically T2 co
    // T1: no commit order. Adya: T1 -wr-> T3 -rw-> T2 -wr-> T4 -rw-> T1: G2-item.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(y,0) w(y,1)
        T3 s3 r(x,1) r(y,0)
        T4 s4 r(y,1) r(x,0)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA, RC, RA, CC));
  }

  @Test
  void shouldViolateAxiomaticButNotAdyaReadCommittedWhenReadsAreNonMonotonicWithinATransaction() {
    // Given: T3 reads y=2 from T2, then x=1, which T2 had overwritten. RC: T2 writes x and T3 read
    // from T2 earlier, so T2 co T1; but T1 wr T2, so T1 co T2: no commit order, and every stronger
    // axiomatic level fails too. Adya PL-2: the only edge against the version order T0 < T1 < T2
    // is T3 -rw-> T2, an anti-dependency, so no G1c: PL-2 holds; the cycle T2 -wr-> T3 -rw-> T2 is
    // a G2-item, so PL-2.99 fails.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1) w(x,2) r(y,0) w(y,2)
        T3 s3 r(y,2) r(x,1)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA));
  }

  @Test
  void shouldViolateAxiomaticButNotAdyaReadCommittedWhenAReadGoesBackToAnOlderVersion() {
    // Given: the smallest RC / PL-2 difference: T2 reads x=1, then x=0. RC: the second read reads
    // from T0 after a read from T1, which writes x, so T1 co T0: impossible. PL-2: T1 -wr-> T2 and
    // T2 -rw-> T1 only, no cycle without the anti-dependency.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,1) r(x,0)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA));
  }

  @Test
  void shouldSatisfyOnlyTheTwoReadCommittedLevelsWhenAReadIsNotRepeatable() {
    // Given: T2 reads x=0, then x=1 (T1's). RC allows it: the read of T1's value comes after a read
    // from T0, which only asks T0 co T1. RA: T2 reads x from T0 and T1 wr T2, so T1 co T0:
    // impossible. Adya: T2 -rw-> T1 -wr-> T2 is a G2-item (PL-2.99 fails), not a G1c (PL-2 holds).
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,0) r(x,1)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA, RC));
  }

  @Test
  void shouldViolateEveryLevelWhenAReadIsIntermediate() {
    // Given: Adya G1b; in the axioms only a transaction's last write of a key is in writes(t), so
    // the read of 1 has no writer and the history is not a history of any level.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1) w(x,2)
        T2 s2 r(x,1)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.noneOf(WeakLevel.class));
  }

  @Test
  void shouldViolateEveryLevelWhenAReadIsAborted() {
    // Given: Adya G1a; writes(t) of an aborted t is empty, so the read of 1 has no writer.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1) aborted
        T2 s2 r(x,1)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.noneOf(WeakLevel.class));
  }

  @Test
  void shouldViolateEveryLevelWhenInformationFlowsInACircle() {
    // Given: Adya G1c: T1 and T2 each read the other's write. so ∪ wr is cyclic, so no commit order
    // extends it; the DSG has the wr cycle T1 -> T2 -> T1 in every version order.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1) r(y,2)
        T2 s2 r(y,0) w(y,2) r(x,1)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.noneOf(WeakLevel.class));
  }

  @Test
  void shouldViolateEveryLevelWhenAReadIsFromThinAir() {
    // Given: nobody wrote 5: the write-read relation cannot be total.
    final History h = HistoryDsl.history("T1 s1 r(x,5)\n");

    // Then
    assertHolds(h, 0L, EnumSet.noneOf(WeakLevel.class));
  }

  @Test
  void shouldViolateEveryLevelWhenATransactionMissesItsOwnWrite() {
    // Given: after writing 1, T1 reads 0: every level requires reading one's own last write.
    final History h = HistoryDsl.history("T1 s1 r(x,0) w(x,1) r(x,0)\n");

    // Then
    assertHolds(h, 0L, EnumSet.noneOf(WeakLevel.class));
  }

  @Test
  void shouldViolateReadAtomicButNotEitherReadCommittedOrRrWhenASessionMissesItsOwnWrite() {
    // Given: T2 follows T1 in session s1 but reads x=0. RA: T1 so T2 and T1 writes x, so T1 co T0:
    // impossible. RC has no session premise. Adya's DSG has no session order: only T2 -rw-> T1.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s1 r(x,0)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA, RC, RR));
  }

  @Test
  void shouldSatisfyOnlyAdyaLevelsWhenATransactionReadsFromALaterOneOfItsSession() {
    // Given: T1 reads the value T2 writes, though T2 follows T1 in session s1. so ∪ wr is cyclic,
    // so no commit order exists; Adya's DSG (no session order) has only T2 -wr-> T1.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,1)
        T2 s1 r(x,0) w(x,1)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA, RR));
  }

  @Test
  void shouldFindAVersionOrderWithoutG0WhenWritesAreBlind() {
    // Given: two blind writers of x and y; T3 reads x from T1 and y from T2. PL-2 holds with x and
    // y both ordered T1 < T2; every version order has a G0 or a G2-item cycle, so PL-2.99 fails. RA:
    // T3 reads x from T1 while T2 (wr T3) writes x, so T2 co T1, and by y T1 co T2: fractured.
    final History h = HistoryDsl.history("""
        T1 s1 w(x,1) w(y,1)
        T2 s2 w(x,2) w(y,2)
        T3 s3 r(x,1) r(y,2)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA, RC));
  }

  @Test
  void shouldSatisfySiButNotSerWhenBlindWritesSkewFromAbsentKeys() {
    // Given: Elle's initial-state G2-item: each reads the absent initial version of the key the
    // other writes blindly. SI: co T0 T1 T2, the writers write different keys. SER: T2 reads y from
    // T0 while T1 co T2 writes y.
    final History h = HistoryDsl.history("""
        T1 p1 r(x,null) w(y,1)
        T2 p2 r(y,null) w(x,1)
        """);

    // Then
    assertHolds(h, null, EnumSet.of(RC_ADYA, RC, RA, CC, PC, SI));
  }

  @Test
  void shouldCountAnUnknownTransactionWhenOnlyARepeatedReadSeesIt() {
    // Given: T1's commit is indeterminate; only T2's second read of x returns its value, so it
    // committed: the history is the non-repeatable read above, which RC allows.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1) unknown
        T2 s2 r(x,0) r(x,1)
        """);

    // When
    final WeakLevelOracle.WeakVerdict v = WeakLevelOracle.judge(h, 0L);

    // Then
    assertEquals(List.of("T1", "T2"), v.counted());
    assertEquals(expected(EnumSet.of(RC_ADYA, RC)), v.holds());
  }

  @Test
  void shouldChooseAWriterWhenTwoTransactionsWriteTheReadValue() {
    // Given: T1 and T2 both write 1 to x (not unique); T3 reads x=1 and then y from T2. Reading x
    // from T2 and y from T2 is atomic, so RA and up hold (co T0 T1 T2 T3) except where a lost
    // update is certain: T1 and T2 both overwrite x=0, so SI, SER and PL-2.99 fail.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) w(x,1)
        T2 s2 r(x,0) w(x,1) r(y,0) w(y,2)
        T3 s3 r(x,1) r(y,2)
        """);

    // Then
    assertHolds(h, 0L, EnumSet.of(RC_ADYA, RC, RA, CC, PC));
  }

  @Test
  void shouldGiveACommitOrderWitnessWhenAnAxiomaticLevelHolds() {
    // Given: the write skew; both T0 T1 T2 and T0 T2 T1 satisfy SI, and the search tries
    // transactions in source order.
    final History h = HistoryDsl.history("""
        T1 s1 r(x,0) r(y,0) w(x,1)
        T2 s2 r(x,0) r(y,0) w(y,2)
        """);

    // When
    final WeakLevelOracle.WeakVerdict v = WeakLevelOracle.judge(h, 0L);

    // Then: a witness for every axiomatic level that holds, none for SER
    assertEquals(EnumSet.of(RC, RA, CC, PC, SI), v.witnesses().keySet());
    assertEquals(List.of("T1", "T2"), v.witnesses().get(SI));
  }

  @Test
  void shouldRefuseWhenTheHistoryIsTooLargeToEnumerate() {
    // Given: 10 blind writers of one key: 10! version orders, beyond MAX_CHOICES.
    final StringBuilder dsl = new StringBuilder();
    for (int i = 1; i <= 10; i++) {
      dsl.append("T").append(i).append(" s").append(i).append(" w(x,").append(i).append(")\n");
    }
    final History h = HistoryDsl.history(dsl.toString());

    // Then
    assertThrows(IllegalArgumentException.class, () -> WeakLevelOracle.decide(h, 0L));
  }

  @Test
  void shouldNameEveryLevelAsTheEngineDoesWhenMapped() {
    // When
    final List<String> names = java.util.Arrays.stream(WeakLevel.values()).map(WeakLevel::levelName).toList();

    // Then
    assertEquals(List.of("PL2", "RC", "RA", "CC", "PC", "SI", "SER", "RR"), names);
  }

  private static void assertHolds(final History h, final Long initial, final Set<WeakLevel> holding) {
    final Map<WeakLevel, Boolean> pruned = WeakLevelOracle.decide(h, initial);
    assertEquals(expected(holding), pruned, () -> HistoryDsl.format(h));
    assertEquals(pruned, WeakLevelOracle.judge(h, initial, false).holds(), "pruning changed an answer");
  }

  private static Map<WeakLevel, Boolean> expected(final Set<WeakLevel> holding) {
    final Map<WeakLevel, Boolean> m = new EnumMap<>(WeakLevel.class);
    for (final WeakLevel l : WeakLevel.values()) {
      m.put(l, holding.contains(l));
    }
    return m;
  }
}
