package io.isowatch.core.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The generator is deterministic, stays small, prints re-parsable text and mixes its ingredients. */
class RandomHistoriesTest {
  private static final int SAMPLE = 2_000;

  @Test
  void shouldGenerateTheSameHistoryWhenGivenTheSameSeed() {
    // Given
    final long seed = 42L;

    // When
    final RandomHistories.Generated a = RandomHistories.generate(seed);
    final RandomHistories.Generated b = RandomHistories.generate(seed);

    // Then
    assertEquals(a, b);
  }

  @Test
  void shouldPrintTextThatParsesBackWhenFormatted() {
    for (long seed = 0; seed < SAMPLE; seed++) {
      // Given
      final RandomHistories.Generated g = RandomHistories.generate(seed);

      // When
      final String formatted = HistoryDsl.format(g.history());

      // Then
      assertEquals(g.dsl(), formatted, "seed " + seed);
    }
  }

  @Test
  void shouldMixEveryIngredientWhenManySeedsAreDrawn() {
    // Given
    final Set<RandomHistories.Mode> modes = EnumSet.noneOf(RandomHistories.Mode.class);
    final Set<String> traits = new HashSet<>();
    int maxSize = 0;

    // When
    for (long seed = 0; seed < SAMPLE; seed++) {
      final RandomHistories.Generated g = RandomHistories.generate(seed);
      modes.add(g.mode());
      traits.addAll(g.traits());
      maxSize = Math.max(maxSize, g.history().size());
    }

    // Then
    assertEquals(EnumSet.allOf(RandomHistories.Mode.class), modes);
    assertTrue(traits.containsAll(Set.of("blind-writes", "duplicate-values", "thin-air", "aborted-read",
        "intermediate-read", "future-read", "not-my-write", "non-repeatable-read", "no-times", "partial-times",
        "skewed-clock", "times", "times-unknown-unfinished", "seq")), traits::toString);
    assertEquals(7, maxSize);
  }
}
