package io.isowatch.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunStatsTest {
  @Test
  void shouldReportFastestAndMiddleRunWhenCountIsOdd() {
    // When
    final RunStats s = RunStats.of(List.of(3.0, 1.0, 2.0));

    // Then
    assertEquals(1.0, s.best());
    assertEquals(2.0, s.median());
    assertEquals(List.of(3.0, 1.0, 2.0), s.seconds());
    assertEquals(1_000_000.0, s.bestRate(1_000_000));
    assertEquals(500_000.0, s.medianRate(1_000_000));
  }

  @Test
  void shouldAverageTheMiddleRunsWhenCountIsEven() {
    // When
    final RunStats s = RunStats.of(List.of(4.0, 1.0, 2.0, 3.0));

    // Then
    assertEquals(2.5, s.median());
  }

  @Test
  void shouldRejectNoRunsWhenComputing() {
    // Then
    assertThrows(IllegalArgumentException.class, () -> RunStats.of(List.of()));
  }
}
