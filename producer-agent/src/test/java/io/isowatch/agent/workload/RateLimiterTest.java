package io.isowatch.agent.workload;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RateLimiterTest {
  @Test
  void shouldPaceAcquisitionsToTheRate() throws InterruptedException {
    // Given: 400 permits per second, bursts of at most 40
    final RateLimiter limiter = RateLimiter.of(400.0);

    // When
    final long t0 = System.nanoTime();
    for (int i = 0; i < 200; i++) {
      limiter.acquire();
    }
    final double seconds = (System.nanoTime() - t0) / 1e9;

    // Then: 200 permits need at least (200 - burst) / 400 s
    assertTrue(seconds >= 0.38, "200 permits at 400/s took only " + seconds + " s");
    assertTrue(seconds < 2.0, "200 permits at 400/s took " + seconds + " s");
  }

  @Test
  void shouldBeAbsentWhenNoRateAndRejectNonPositiveRates() {
    // Given / When / Then
    assertNull(RateLimiter.of(null));
    assertThrows(IllegalArgumentException.class, () -> RateLimiter.of(0.0));
    assertThrows(IllegalArgumentException.class, () -> RateLimiter.of(-5.0));
  }
}
