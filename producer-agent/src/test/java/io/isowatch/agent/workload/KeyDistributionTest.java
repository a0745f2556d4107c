package io.isowatch.agent.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyDistributionTest {
  private static final int DRAWS = 200_000;

  private static double[] frequencies(final String spec, final int keys) {
    final KeyDistribution.Sampler s = KeyDistribution.parse(spec).sampler(keys);
    final SplittableRandom random = new SplittableRandom(1);
    final double[] f = new double[keys];
    for (int i = 0; i < DRAWS; i++) {
      f[s.next(random)] += 1.0 / DRAWS;
    }
    return f;
  }

  @Test
  void shouldSpreadEvenlyWhenUniform() {
    // Given / When
    final double[] f = frequencies("uniform", 10);

    // Then
    for (final double x : f) {
      assertEquals(0.1, x, 0.01);
    }
  }

  @Test
  void shouldFollowOneOverRankToTheThetaWhenZipf() {
    // Given / When
    final double[] f = frequencies("zipf:1", 4);

    // Then: weights 1, 1/2, 1/3, 1/4 over their sum 25/12
    assertEquals(12.0 / 25, f[0], 0.01);
    assertEquals(6.0 / 25, f[1], 0.01);
    assertEquals(4.0 / 25, f[2], 0.01);
    assertEquals(3.0 / 25, f[3], 0.01);
  }

  @Test
  void shouldSendTheAccessFractionToTheHotKeysWhenHotspot() {
    // Given / When
    final double[] f = frequencies("hotspot:0.9:0.1", 100);

    // Then: 90% of accesses on the first 10 keys, the rest evenly on the others
    double hot = 0;
    for (int i = 0; i < 10; i++) {
      hot += f[i];
    }
    assertEquals(0.9, hot, 0.01);
    assertEquals(0.1 / 90, f[50], 0.001);
  }

  @Test
  void shouldDefaultToEightyTwentyWhenHotspotHasNoParameters() {
    // Given / When
    final KeyDistribution d = KeyDistribution.parse("hotspot");

    // Then
    assertEquals(new KeyDistribution.Hotspot(0.8, 0.2), d);
  }

  @Test
  void shouldDecayGeometricallyWhenExponential() {
    // Given / When: P(i) ∝ e^(-i)
    final double[] f = frequencies("exponential:1", 10);

    // Then
    assertEquals(Math.exp(-1), f[1] / f[0], 0.02);
    assertTrue(f[0] > 0.6, "about 63% on the first key, got " + f[0]);
  }

  @Test
  void shouldRejectUnknownOrMalformedSpecs() {
    // Given / When / Then
    assertTrue(assertThrows(IllegalArgumentException.class, () -> KeyDistribution.parse("gauss"))
        .getMessage().contains("unknown key distribution 'gauss'"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> KeyDistribution.parse("zipf:x"))
        .getMessage().contains("bad number"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> KeyDistribution.parse("hotspot:0.8"))
        .getMessage().contains("hotspot:0.8:0.2"));
    assertThrows(IllegalArgumentException.class, () -> KeyDistribution.parse("zipf:-1"));
  }
}
