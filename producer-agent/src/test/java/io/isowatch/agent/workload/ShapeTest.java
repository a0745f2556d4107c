package io.isowatch.agent.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ShapeTest {
  @Test
  void shouldParseTheStepsOfAShape() {
    // Given / When
    final Shape s = Shape.parse("r1r2w2");

    // Then
    assertEquals("R1R2W2", s.name());
    assertEquals(List.of(new Shape.Step(false, 1), new Shape.Step(false, 2), new Shape.Step(true, 2)), s.steps());
    assertEquals(2, s.slots());
    assertFalse(s.readOnly());
  }

  @Test
  void shouldRejectShapesThatAreNotMiniTransactions() {
    // Given / When / Then
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Shape.parse("W1")).getMessage()
        .contains("W1 must be preceded by R1"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Shape.parse("R1W1R2W2R1")).getMessage()
        .contains("1 to 4 operations"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Shape.parse("R1W1W1W1")).getMessage()
        .contains("two writes"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Shape.parse("R2")).getMessage()
        .contains("numbered from 1"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> Shape.parse("R3")).getMessage()
        .contains("bad shape"));
  }

  @Test
  void shouldExpandPresetsAndDeduplicate() {
    // Given / When
    final ShapeMix mix = ShapeMix.parse("paper,R1W1W1,R1");

    // Then
    assertEquals(List.of("R1", "R1R2", "R1W1", "R1R2W2", "R1R2W1W2", "R1W1R2W2", "R1W1W1"),
        mix.shapes().stream().map(Shape::name).toList());
    assertTrue(mix.hasDoubleWrite());
    assertFalse(mix.pairedKeys());
    assertEquals(List.of("R1", "R1R2"), mix.readOnlyShapes().stream().map(Shape::name).toList());
  }

  @Test
  void shouldPairKeysWhenWriteSkewPreset() {
    // Given / When
    final ShapeMix mix = ShapeMix.parse("writeskew");

    // Then
    assertTrue(mix.pairedKeys());
    assertEquals(List.of("R1R2W1", "R1R2W2"), mix.shapes().stream().map(Shape::name).toList());
  }
}
