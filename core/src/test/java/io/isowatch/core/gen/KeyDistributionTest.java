package io.isowatch.core.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KeyDistributionTest {
  private static final int KEYS = 1_000;
  private static final int DRAWS = 200_000;

  @Test
  void shouldSpreadDrawsEvenlyWhenUniform() {
    // When
    final long[] counts = draw(KeyDistribution.parse("uniform"));

    // Then
    for (final long c : counts) {
      assertTrue(Math.abs(c - DRAWS / KEYS) < 70, "count " + c);
    }
  }

  @Test
  void shouldFollowTheZipfLawWhenZipf() {
    // When
    final long[] counts = draw(KeyDistribution.parse("zipf:1.0"));

    // Then: p(i) = (1/(i+1)) / H(1000), H(1000) ≈ 7.4855.
    assertEquals(DRAWS / 7.4855, counts[0], DRAWS * 0.005);
    assertEquals(DRAWS / 7.4855 / 10, counts[9], DRAWS * 0.003);
    assertTrue(counts[0] > counts[1] && counts[1] > counts[10] && counts[10] > counts[500]);
  }

  @Test
  void shouldSendTheHotFractionToTheHotSetWhenHotspot() {
    // When
    final long[] counts = draw(KeyDistribution.parse("hotspot:0.1:0.9"));

    // Then
    assertEquals(0.9, share(counts, 100), 0.01);
  }

  @Test
  void shouldReadTheHotspotFractionsInEitherOrderWhenBothCommandsDocumentedTheirOwn() {
    // Given: isowatch generate documented hotspot:HOT_KEYS:HOT_OPS, isowatch agent hotspot:A:F
    // (accesses first); the hot keys always get at least their share, so the smaller is the keys'.

    // When
    final KeyDistribution keysFirst = KeyDistribution.parse("hotspot:0.1:0.9");
    final KeyDistribution accessesFirst = KeyDistribution.parse("hotspot:0.9:0.1");

    // Then
    assertEquals(new KeyDistribution.Hotspot(0.1, 0.9), keysFirst);
    assertEquals(keysFirst, accessesFirst);
    assertEquals(new KeyDistribution.Hotspot(0.2, 0.8), KeyDistribution.parse("hotspot"));
    assertEquals(0.8, share(draw(KeyDistribution.parse("hotspot:0.8:0.2")), 200), 0.01);
    assertTrue(assertThrows(IllegalArgumentException.class, () -> KeyDistribution.parse("hotspot:0.8"))
        .getMessage().contains("both fractions"));
    assertThrows(IllegalArgumentException.class, () -> new KeyDistribution.Hotspot(0.8, 0.2));
  }

  @Test
  void shouldConcentrateOnLowKeysWhenExponential() {
    // When
    final long[] counts = draw(KeyDistribution.parse("exponential"));

    // Then: with λ = 10, the first 10% of keys get (1 - e^-1) / (1 - e^-10) ≈ 63.2% of draws.
    assertEquals(0.632, share(counts, 100), 0.01);
  }

  @Test
  void shouldReadBackItsOwnSpellingWhenParsing() {
    // Given
    final KeyDistribution[] all = {new KeyDistribution.Uniform(), new KeyDistribution.Zipf(0.7),
        new KeyDistribution.Hotspot(0.3, 0.6), new KeyDistribution.Exponential(3)};

    // Then
    for (final KeyDistribution d : all) {
      assertEquals(d, KeyDistribution.parse(d.spec()));
    }
    assertEquals(new KeyDistribution.Zipf(0.99), KeyDistribution.parse("ZIPF"));
  }

  @Test
  void shouldRejectBadSpellingsWithAClearMessage() {
    // When
    final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> KeyDistribution.parse("gauss"));
    final IllegalArgumentException badNumber = assertThrows(IllegalArgumentException.class,
        () -> KeyDistribution.parse("zipf:abc"));
    final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
        () -> KeyDistribution.parse("zipf:-1"));
    final IllegalArgumentException extra = assertThrows(IllegalArgumentException.class,
        () -> KeyDistribution.parse("uniform:3"));

    // Then
    assertTrue(unknown.getMessage().contains("unknown key distribution 'gauss'"), unknown.getMessage());
    assertTrue(badNumber.getMessage().contains("bad number"), badNumber.getMessage());
    assertTrue(negative.getMessage().contains(">= 0"), negative.getMessage());
    assertTrue(extra.getMessage().contains("takes 0 to 0"), extra.getMessage());
  }

  private static long[] draw(final KeyDistribution d) {
    final KeySampler s = d.sampler(KEYS);
    final SplittableRandom rnd = new SplittableRandom(7);
    final long[] counts = new long[KEYS];
    for (int i = 0; i < DRAWS; i++) {
      counts[s.next(rnd)]++;
    }
    return counts;
  }

  private static double share(final long[] counts, final int firstKeys) {
    long sum = 0;
    for (int i = 0; i < firstKeys; i++) {
      sum += counts[i];
    }
    return sum / (double) DRAWS;
  }
}
