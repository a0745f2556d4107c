package io.isowatch.core.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
    "W1, W1 must be preceded by R1",
    "R1W1R2W2W1, 1 to 4 operations",
    "R1W1W1W1, two writes",
    "R1W1R1, R1 twice",
    "R2, numbered from 1",
    "R3, bad shape"
  })
  void shouldRejectShapesThatAreNotMiniTransactions(final String shape, final String reason) {
    // When
    final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MtShape.parse(shape));

    // Then
    assertTrue(e.getMessage().contains(reason), e.getMessage());
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
