package io.isowatch.agent.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.MtShape;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShapeMixTest {
  @Test
  void shouldSplitReadOnlyAndWritingShapesWhenMixingPresetsAndShapes() {
    // Given / When
    final ShapeMix mix = ShapeMix.parse("cas,R1W1W1,r1,R1");

    // Then
    assertEquals(List.of("CAS", "R1W1W1", "R1"), names(mix.shapes()));
    assertTrue(mix.hasDoubleWrite());
    assertFalse(mix.pairedKeys());
    assertEquals(List.of("R1"), names(mix.readOnlyShapes()));
    assertEquals(List.of("CAS", "R1W1W1"), names(mix.writingShapes()));
    assertEquals(1, mix.maxSlots());
  }

  @Test
  void shouldPairKeysWhenWriteSkewPreset() {
    // Given / When
    final ShapeMix mix = ShapeMix.parse("writeskew");

    // Then
    assertTrue(mix.pairedKeys());
    assertEquals(List.of("R1R2W1", "R1R2W2"), names(mix.shapes()));
  }

  private static List<String> names(final List<MtShape> shapes) {
    return shapes.stream().map(MtShape::name).toList();
  }
}
