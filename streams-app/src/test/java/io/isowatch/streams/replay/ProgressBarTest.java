package io.isowatch.streams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ProgressBarTest {
  @Test
  void shouldShowCountsPercentRateAndEtaWhenHalfWay() {
    // Given / When
    final String line = ProgressBar.line("checking", 41_000, 100_000, Duration.ofSeconds(5));
    // Then: 8,200 records/s, 59,000 left: 7.2 s
    assertEquals("checking [#########···············] 41,000/100,000 records  41%  8,200/s  ETA 0:07", line);
  }

  @Test
  void shouldShowTheDurationWhenDone() {
    // Given / When / Then
    assertEquals("publishing [########################] 5/5 records 100%  0.5/s  done in 0:10",
        ProgressBar.line("publishing", 5, 5, Duration.ofSeconds(10)));
  }

  @Test
  void shouldShowNoEtaWhenNothingIsDoneYet() {
    // Given / When / Then
    assertEquals("checking [························] 0/7 records   0%  0.0/s  ETA --:--",
        ProgressBar.line("checking", 0, 7, Duration.ofSeconds(3)));
  }

  @Test
  void shouldClampTheCountWhenMoreIsReportedThanTheTotal() {
    // Given / When / Then: an empty phase is complete, and overshoot (markers) never exceeds 100%.
    assertEquals("checking [########################] 0/0 records 100%  0.0/s  done in 0:00",
        ProgressBar.line("checking", 0, 0, Duration.ZERO));
    assertEquals("checking [########################] 3/3 records 100%  1.0/s  done in 0:03",
        ProgressBar.line("checking", 9, 3, Duration.ofSeconds(3)));
  }

  @Test
  void shouldUseHoursWhenTheEtaIsLong() {
    // Given / When / Then
    assertEquals("1:01:01", ProgressBar.clock(3661));
    assertEquals("0:59", ProgressBar.clock(59));
    assertEquals("12,345", ProgressBar.rate(12_345.4));
  }
}
