package io.isowatch.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Level;
import io.isowatch.core.testkit.ResultFixtures;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class TextReportTest {
  @Test
  void shouldRenderVerdictsAnomalyFindingsAndStatsWhenLostUpdateFound() {
    // Given
    final var result = ResultFixtures.lostUpdate();

    // When
    final String text = new TextReport(false).render(result);

    // Then
    assertEquals(String.join("\n",
        "IsoWatch check: VIOLATED",
        "  SI    VIOLATED",
        "  SER   VIOLATED",
        "  SSER  VIOLATED",
        "",
        "Anomalies: 1",
        "",
        "[1] LostUpdate (G-single) violates SSER, SER, SI",
        "    transactions:",
        "      s1-3 [r(x,0), w(x,1)]  @10..20",
        "      s2-7 [r(x,0), w(x,2)]  aborted",
        "    cycle: s1-3 -RW(x=0)-> s2-7 -WW(x=2)-> s1-3",
        "    explanation:",
        "      Let:",
        "        T1 = s1-3",
        "        T2 = s2-7",
        "      Then:",
        "        - T1 < T2, because T1 read x=0 and T2 \"overwrote\" it;",
        "        - T2 < T1, because T1 overwrote x=2 written by T2 \\ twice;",
        "        - a contradiction.",
        "",
        "Findings: 1",
        "  BLIND_WRITE (undecidable; SSER, SI) count 3 key y",
        "    txns: s3-1, s4-2",
        "    lines: 4, 9",
        "    3 writes of y without an earlier read",
        "",
        "Stats",
        "  transactions          2",
        "  committed             1",
        "  aborted               1",
        "  unknown promoted      0",
        "  unknown ignored       0",
        "  sessions              2",
        "  keys                  1",
        "  operations            4",
        "  long RMW txns         0",
        "  large read-only txns  0",
        "  edges                 2",
        "  anomalies             1 (LostUpdate 1)",
        "  truncated             no",
        "  seconds               0.043",
        ""), text);
  }

  @Test
  void shouldGiveTheReasonOfEachUnknownLevelWhenUndecided() {
    // Given
    final var result = ResultFixtures.unknown();

    // When
    final String text = new TextReport(false).render(result);

    // Then
    assertTrue(text.startsWith(String.join("\n",
        "IsoWatch check: UNKNOWN",
        "  SI    UNKNOWN    (blind writes on y leave the version order open)",
        "  SER   SATISFIED",
        "  SSER  UNKNOWN    (12 transactions lack timestamps)",
        "",
        "No anomalies.",
        "",
        "No findings.",
        "")), text);
  }

  @Test
  void shouldSayHowManyAreShownWhenAnomaliesWereTruncated() {
    // Given
    final var result = ResultFixtures.truncated(2, 2345);

    // When
    final String text = new TextReport(false).render(result);

    // Then
    assertTrue(text.contains("\nAnomalies: showing 2 of 2345; raise --max-anomalies to see more\n"), text);
    assertTrue(text.contains("\n[2] G1a violates SSER, SER, SI\n"), text);
    assertFalse(text.contains("[3]"), text);
    assertTrue(text.contains("  anomalies             2345 (G1a 2345)\n  truncated             yes\n"), text);
  }

  @Test
  void shouldListOnlyTheRequestedLevelsWhenSomeWereRequested() {
    // Given
    final var result = ResultFixtures.satisfied(EnumSet.of(Level.SI, Level.SER));

    // When
    final String text = new TextReport(false).render(result);

    // Then
    assertTrue(text.startsWith("IsoWatch check: SATISFIED\n  SI    SATISFIED\n  SER   SATISFIED\n\nNo anomalies.\n"), text);
  }

  @Test
  void shouldColourVerdictWordsOnlyWhenAskedTo() {
    // Given
    final var result = ResultFixtures.unknown();

    // When
    final String plain = new TextReport(false).render(result);
    final String coloured = new TextReport(true).render(result);

    // Then
    assertFalse(plain.contains("\u001b["), plain);
    assertTrue(coloured.contains("  SER   \u001b[32mSATISFIED\u001b[0m\n"), coloured);
    assertTrue(coloured.contains("  SI    \u001b[33mUNKNOWN\u001b[0m    (blind writes"), coloured);
    assertEquals(plain, coloured.replaceAll("\u001b\\[[0-9;]*m", ""));
  }
}
