package io.isowatch.agent.target;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IsolationMixTest {
  @Test
  void shouldReadAWeightedMixAndDrawEachLevelByItsWeight() {
    // Given
    final IsolationMix mix = IsolationMix.parse("mix:serializable=1, read-committed=3");
    final Random rnd = new Random(7);
    final Map<IsolationLevel, Integer> drawn = new EnumMap<>(IsolationLevel.class);

    // When
    for (int i = 0; i < 40_000; i++) {
      drawn.merge(mix.pick(rnd), 1, Integer::sum);
    }

    // Then: a quarter serializable, within 2 points
    assertEquals("mix:serializable=1,read-committed=3", mix.label());
    assertEquals(IsolationLevel.SERIALIZABLE, mix.first());
    final double ser = drawn.get(IsolationLevel.SERIALIZABLE) / 40_000.0;
    assertTrue(Math.abs(ser - 0.25) < 0.02, "serializable share " + ser);
    assertEquals(2, drawn.size());
  }

  @Test
  void shouldReadOneLevelAsAMixOfOne() {
    // When
    final IsolationMix mix = IsolationMix.parse("rc");

    // Then
    assertTrue(mix.single());
    assertEquals("read-committed", mix.label());
    assertEquals(IsolationLevel.READ_COMMITTED, mix.pick(new Random(1)));
  }

  @Test
  void shouldRefuseAMalformedMixWithAMessage() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> IsolationMix.parse("mix:serializable"))
        .getMessage().contains("LEVEL=WEIGHT"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> IsolationMix.parse("mix:serializable=0"))
        .getMessage().contains(">= 1"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> IsolationMix.parse("mix:ser=1,serializable=2"))
        .getMessage().contains("twice"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> IsolationMix.parse("mix:chaos=1"))
        .getMessage().contains("unknown isolation level"));
    assertThrows(IllegalArgumentException.class, () -> IsolationMix.parse("mix:serializable=x"));
  }
}
