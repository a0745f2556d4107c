package io.isowatch.core.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class MtShapeTest {
  @Test
  void shouldParseTheStepsOfAShape() {
    // Given / When
    final MtShape s = MtShape.parse("r1r2w2");

    // Then
    assertEquals(MtShape.R1R2W2, s);
    assertEquals("R1R2W2", s.name());
    assertEquals(List.of(new MtShape.Step(false, 1), new MtShape.Step(false, 2), new MtShape.Step(true, 2)), s.steps());
    assertEquals(2, s.keyCount());
    assertFalse(s.isReadOnly());
    assertTrue(MtShape.parse("CAS").cas());
    assertTrue(MtShape.parse("R1W1W1").writesAKeyTwice());
  }

  @Test
  void shouldRejectShapesThatAreNotMiniTransactions() {
    // Given / When / Then
    assertTrue(assertThrows(IllegalArgumentException.class, () -> MtShape.parse("W1")).getMessage()
        .contains("W1 must be preceded by R1"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> MtShape.parse("R1W1R2W2W1")).getMessage()
        .contains("1 to 4 operations"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> MtShape.parse("R1W1W1W1")).getMessage()
        .contains("two writes"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> MtShape.parse("R1W1R1")).getMessage()
        .contains("R1 twice"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> MtShape.parse("R2")).getMessage()
        .contains("numbered from 1"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> MtShape.parse("R3")).getMessage()
        .contains("bad shape"));
  }

  @Test
  void shouldExpandPresetsAndDeduplicateWhenParsingAList() {
    // Given / When
    final List<MtShape> shapes = MtShape.parseList("paper, R1W1W1,r1");

    // Then
    assertEquals(List.of("R1", "R1R2", "R1W1", "R1R2W2", "R1R2W1W2", "R1W1R2W2", "R1W1W1"),
        shapes.stream().map(MtShape::name).toList());
    assertEquals(MtShape.paper(), MtShape.parseList("R1,R1R2,R1W1,R1R2W2,R1R2W1W2,R1W1R2W2"));
    assertEquals(8, MtShape.parseList("full").size());
    assertThrows(IllegalArgumentException.class, () -> MtShape.parseList(" , "));
  }
}
