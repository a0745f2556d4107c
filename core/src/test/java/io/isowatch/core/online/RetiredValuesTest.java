package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scalable filter of retired versions (docs/segmentation.md, "Retired versions"): "no" is
 * exact at any size, the false-positive probability it reports stays under its bound while it is
 * under its cap, the rate measured on versions never added agrees with what it reports, and past
 * the cap the error grows and is reported.
 */
class RetiredValuesTest {
  private static final int ADDED = 300_000;
  private static final int PROBES = 2_000_000;

  @Test
  void shouldNeverAnswerNoForAVersionAddedWhenTheFilterGrowsFromTinyToLarge() {
    // Given
    final RetiredValues f = new RetiredValues(64, Horizon.MAX_FILTER_BITS);

    // When
    for (int i = 0; i < ADDED; i++) {
      f.add(i % 97, i, false);
    }

    // Then
    for (int i = 0; i < ADDED; i++) {
      assertTrue(f.mightContain(i % 97, i, false), "version " + i + " forgotten");
    }
    assertTrue(f.stages().size() > 10, "grew to " + f.stages().size() + " stages only");
    assertEquals(ADDED, f.added());
  }

  @Test
  void shouldKeepFalsePositivesUnderTheBoundWhenVersionsRetireFarBeyondTheFirstStage() {
    // Given: a first stage of 64 bits, 300,000 versions (a fixed 64-bit filter answers "maybe" to all)
    final RetiredValues f = new RetiredValues(64, Horizon.MAX_FILTER_BITS);
    for (int i = 0; i < ADDED; i++) {
      f.add(i % 97, i, false);
    }

    // When: probing versions never added (other values, and the absent value)
    int hits = 0;
    for (int i = 0; i < PROBES; i++) {
      if (f.mightContain(i % 97, ADDED + (long) i, false)) {
        hits++;
      }
    }
    final double measured = (double) hits / PROBES;

    // Then
    final double reported = f.falsePositiveProbability();
    assertTrue(reported > 0 && reported <= RetiredValues.BOUND, "reported " + reported);
    // 5 standard deviations of a binomial around the reported rate, plus one hit.
    final double slack = 5 * Math.sqrt(reported / PROBES) + 1.0 / PROBES;
    assertTrue(measured <= reported + slack, "measured " + measured + " > reported " + reported);
    assertTrue(measured <= RetiredValues.BOUND, "measured " + measured);
    // About 20 bits per version, with at most a factor two of headroom (the last stage just opened).
    assertTrue(f.bytes() * 8.0 / ADDED < 2 * 24, "bits per version: " + f.bytes() * 8.0 / ADDED);
  }

  @Test
  void shouldReportTheGrowingErrorWhenTheCapIsReached() {
    // Given: a cap of 4,096 bits, far too small for 20,000 versions
    final RetiredValues f = new RetiredValues(1024, 4096);

    // When
    for (int i = 0; i < 20_000; i++) {
      f.add(i % 13, i, false);
    }
    int hits = 0;
    for (int i = 0; i < 200_000; i++) {
      if (f.mightContain(i % 13, 1_000_000L + i, false)) {
        hits++;
      }
    }

    // Then: the memory stays capped, and the error it reports is the one measured
    assertTrue(f.bytes() * 8 <= 4096, "bits " + f.bytes() * 8);
    final double reported = f.falsePositiveProbability();
    final double measured = hits / 200_000.0;
    assertTrue(reported > RetiredValues.BOUND, "reported " + reported);
    assertTrue(Math.abs(measured - reported) < 0.05 + reported * 0.1, "measured " + measured + ", reported " + reported);
  }

  @Test
  void shouldCountALegacyStageInFullAndGrowNewStagesAfterIt() {
    // Given: a format-1 filter (4 hashes, fixed size) restored nearly full
    final RetiredValues.Stage legacy = new RetiredValues.Stage(0, RetiredValues.LEGACY_HASHES, true, new long[16], 0);
    final RetiredValues f = new RetiredValues(1024, Horizon.MAX_FILTER_BITS, List.of(legacy));
    for (int i = 0; i < 10; i++) {
      legacy.add(RetiredValues.hash(1, i, false));
    }
    final double legacyP = legacy.falsePositiveProbability();

    // When
    f.add(1, 1_000, false);

    // Then: the legacy stage takes no more versions; its probability stays counted
    assertEquals(2, f.stages().size());
    assertEquals(RetiredValues.LEGACY_HASHES, f.stages().get(0).hashes);
    assertTrue(f.mightContain(1, 3, false));
    assertTrue(f.mightContain(1, 1_000, false));
    assertTrue(f.falsePositiveProbability() >= legacyP, f.falsePositiveProbability() + " < " + legacyP);
    assertFalse(f.stages().get(1).legacy);
  }
}
