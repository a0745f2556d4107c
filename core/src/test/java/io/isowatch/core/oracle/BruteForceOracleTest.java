package io.isowatch.core.oracle;

import static io.isowatch.core.testkit.HistoryDsl.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.history.History;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The oracle checked by hand against MTC Figure 5 / Table I and the definitions, so that the
 * property test compares the engine with something that is itself right.
 */
class BruteForceOracleTest {
  private static final CheckOptions DEFAULTS = CheckOptions.defaults();

  /** Expected SSER/SER/SI ('-' = undecidable) for each Table I history and a few more. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      ThinAirRead               | T1 s1 r(x,5)                                                                        | FFF
      AbortedRead               | T1 s1 r(x,0) w(x,1) aborted;T2 s2 r(x,1)                                            | FFF
      FutureRead                | T1 s1 r(x,1) w(x,1)                                                                 | FFF
      NotMyLastWrite            | T1 s1 r(x,0) w(x,1) w(x,2) r(x,1)                                                   | FFF
      NotMyOwnWrite             | T1 s1 r(x,0) w(x,1) r(x,0)                                                          | FFF
      IntermediateRead          | T1 s1 r(x,0) w(x,1) w(x,2);T2 s2 r(x,1)                                             | FFF
      NonRepeatableReads        | T1 s1 r(x,0) w(x,1);T2 s2 r(x,0) r(x,1)                                             | FFF
      SessionGuaranteeViolation | T1 s1 r(x,0) w(x,1);T2 s1 r(x,0)                                                    | FFF
      NonMonotonicRead          | T1 s1 r(x,0) w(x,1);T2 s2 r(x,1) w(x,2) r(y,0) w(y,2);T3 s3 r(y,2) r(x,1)          | FFF
      FracturedRead             | T1 s1 r(x,0) w(x,1) r(y,0) w(y,1);T2 s2 r(x,0) r(y,1)                               | FFF
      CausalityViolation        | T1 s1 r(x,0) w(x,1);T2 s2 r(x,1) r(y,0) w(y,1);T3 s3 r(y,1) r(x,0)                  | FFF
      LongFork                  | T1 s1 r(x,0) w(x,1);T2 s2 r(y,0) w(y,1);T3 s3 r(x,1) r(y,0);T4 s4 r(y,1) r(x,0)     | FFF
      LostUpdate                | T1 s1 r(x,0) w(x,1);T2 s2 r(x,0) w(x,2)                                             | FFF
      WriteSkew                 | T1 s1 r(x,0) r(y,0) w(x,1);T2 s2 r(x,0) r(y,0) w(y,2)                               | FFT
      G0                        | T1 s1 r(x,0) w(x,1) r(y,2) w(y,3);T2 s2 r(y,0) w(y,2) r(x,1) w(x,4)                 | FFF
      G1c                       | T1 s1 r(x,0) w(x,1) r(y,2);T2 s2 r(y,0) w(y,2) r(x,1)                               | FFF
      serial chain              | T1 s1 r(x,0) w(x,1);T2 s2 r(x,1) w(x,2);T3 s1 r(x,2) r(y,0)                         | -TT
      stale read, timed         | T1 s1 r(x,0) w(x,1) @10..20;T2 s2 r(x,0) @30..40                                    | FTT
      concurrent read, timed    | T1 s1 r(x,0) w(x,1) @10..30;T2 s2 r(x,0) @20..40                                    | TTT
      stale read, one untimed   | T1 s1 r(x,0) w(x,1) @10..20;T2 s2 r(x,0)                                            | -TT
      blind write read          | T1 s1 w(x,1);T2 s2 r(x,1)                                                           | -TT
      two blind writers         | T1 s1 w(x,1);T2 s2 w(x,2);T3 s3 r(x,1);T4 s3 r(x,2)                                 | -TT
      blind writers disagree    | T1 s1 w(x,1);T2 s2 w(x,2);T3 s3 r(x,1) r(y,0) w(y,5);T4 s4 r(y,5) r(x,2);T5 s5 r(x,2) r(y,0) | FFT
      """)
  void shouldDecideWhatTheDefinitionsSayWhenGivenHandCheckedHistories(
      final String name, final String text, final String expected) {
    // Given
    final History h = history(text.replace(';', '\n'));

    // When
    final OracleVerdict v = BruteForceOracle.judge(h, DEFAULTS);

    // Then
    assertEquals(expected, code(v.sser()) + code(v.ser()) + code(v.si()), name);
  }

  @Test
  void shouldPromoteAnUnknownTransactionOnlyWhenItIsRead() {
    // Given: U1 is read by U2, which is read by a committed transaction; U3 is never read
    final History h = history("""
        U1 s1 r(x,0) w(x,1) unknown
        U2 s2 r(x,1) w(x,2) unknown
        C1 s3 r(x,2)
        U3 s4 r(y,77) unknown
        """);

    // When
    final OracleVerdict v = BruteForceOracle.judge(h, DEFAULTS);

    // Then: the chain is promoted, and U3's thin-air read does not count
    assertEquals(3, v.counted());
    assertTrue(v.ser());
    assertTrue(v.si());
  }

  @Test
  void shouldFailEverythingWhenAPromotedUnknownTransactionReadsFromThinAir() {
    // Given
    final History h = history("U1 s1 r(x,0) r(y,77) w(x,1) unknown\nC1 s2 r(x,1)");

    // When
    final OracleVerdict v = BruteForceOracle.judge(h, DEFAULTS);

    // Then
    assertFalse(v.ser());
    assertFalse(v.si());
    assertEquals(Boolean.FALSE, v.sser());
  }

  @Test
  void shouldIgnoreAbortedTransactionsWhenTheirReadsAreGarbage() {
    // Given
    final History h = history("T1 s1 r(x,42) w(x,1) aborted\nT2 s2 r(x,0) w(x,2) @1..2");

    // When
    final OracleVerdict v = BruteForceOracle.judge(h, DEFAULTS);

    // Then
    assertEquals(Boolean.TRUE, v.sser());
  }

  @Test
  void shouldDropAnRtEdgeWhenTheSkewToleranceCoversTheGap() {
    // Given: T1 ends at 20, T2 starts at 30; T2 misses T1's write
    final History h = history("T1 s1 r(x,0) w(x,1) @10..20\nT2 s2 r(x,0) @30..40");

    // When
    final OracleVerdict strict = BruteForceOracle.judge(h, DEFAULTS);
    final OracleVerdict tolerant = BruteForceOracle.judge(h, DEFAULTS.withRtSkewMicros(10));
    final OracleVerdict borderline = BruteForceOracle.judge(h, DEFAULTS.withRtSkewMicros(9));

    // Then: the edge exists only when 20 + skew < 30
    assertEquals(Boolean.FALSE, strict.sser());
    assertEquals(Boolean.TRUE, tolerant.sser());
    assertEquals(Boolean.FALSE, borderline.sser());
  }

  @Test
  void shouldReadNullFromTheInitialTransactionWhenKeysStartAbsent() {
    // Given
    final History h = history("T1 s1 r(x,null) w(x,1)\nT2 s2 r(x,1) r(y,null)");

    // When
    final OracleVerdict absent = BruteForceOracle.judge(h, DEFAULTS.withInitialValue(null));
    final OracleVerdict zero = BruteForceOracle.judge(h, DEFAULTS);

    // Then: with initial value 0, a read of null comes from nowhere
    assertTrue(absent.ser());
    assertFalse(zero.ser());
  }

  @Test
  void shouldOrderASessionBySeqWhenSeqIsGiven() {
    // Given: listed out of order, but seq says T2 ran first in s1; T1 reads T2's write
    final History h = history("T1 s1 r(x,1) seq=1\nT2 s1 r(x,0) w(x,1) seq=0");
    final History reversed = history("T1 s1 r(x,1) seq=0\nT2 s1 r(x,0) w(x,1) seq=1");

    // When
    final OracleVerdict v = BruteForceOracle.judge(h, DEFAULTS);
    final OracleVerdict w = BruteForceOracle.judge(reversed, DEFAULTS);

    // Then
    assertTrue(v.ser());
    assertFalse(w.ser());
    assertFalse(w.si());
  }

  @Test
  void shouldLeaveSserUndecidedButProvableWhenOnlySomeTimesAreKnown() {
    // Given: T1 → T2 in real time (both timed) and T2 misses T1; T3 has no times
    final History h = history("T1 s1 r(x,0) w(x,1) @10..20\nT2 s2 r(x,0) @30..40\nT3 s3 r(y,0)");

    // When
    final OracleVerdict v = BruteForceOracle.judge(h, DEFAULTS);

    // Then
    assertNull(v.sser());
    assertFalse(v.sserWithKnownRt());
    assertTrue(v.certainlyViolated(io.isowatch.core.check.Level.SSER));
  }

  @Test
  void shouldDecideSserWhenAnUnknownTransactionNeverFinished() {
    // Given: U1 was read, so it counts; its client never saw it end, so it precedes nobody
    final History h = history("U1 s1 r(x,0) w(x,1) unknown @10..\nT2 s2 r(x,0) @30..40\nT3 s3 r(x,1) @50..60");

    // When
    final OracleVerdict v = BruteForceOracle.judge(h, DEFAULTS);

    // Then: T2 may run before U1 took effect
    assertEquals(2 + 1, v.counted());
    assertEquals(Boolean.TRUE, v.sser());
  }

  @Test
  void shouldLeaveSserUndecidedWhenACommittedTransactionHasNoEnd() {
    // Given
    final History h = history("T1 s1 r(x,0) w(x,1) @10..\nT2 s2 r(x,1) @30..40");

    // When
    final OracleVerdict v = BruteForceOracle.judge(h, DEFAULTS);

    // Then
    assertNull(v.sser());
  }

  @Test
  void shouldRefuseWhenTheHistoryIsTooLargeToEnumerate() {
    // Given: 10 blind writers of one key have 10! version orders
    final StringBuilder text = new StringBuilder();
    for (int i = 1; i <= 10; i++) {
      text.append("T").append(i).append(" s").append(i).append(" w(x,").append(i).append(")\n");
    }

    // When / Then
    assertThrows(IllegalArgumentException.class, () -> BruteForceOracle.judge(history(text.toString()), DEFAULTS));
  }

  private static String code(final Boolean b) {
    return b == null ? "-" : b ? "T" : "F";
  }
}
