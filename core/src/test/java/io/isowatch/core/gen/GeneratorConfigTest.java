package io.isowatch.core.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class GeneratorConfigTest {
  @Test
  void shouldRejectContradictoryShapeSettingsWithAClearMessage() {
    // Given
    final GeneratorConfig base = GeneratorConfig.defaults();

    // When
    final IllegalArgumentException noReadOnly = assertThrows(IllegalArgumentException.class,
        () -> base.withShapes(List.of(MtShape.R1W1)));
    final IllegalArgumentException noWriting = assertThrows(IllegalArgumentException.class,
        () -> base.withShapes(List.of(MtShape.R1)));
    final IllegalArgumentException oneKey = assertThrows(IllegalArgumentException.class,
        () -> base.withKeys(1));
    final IllegalArgumentException ratio = assertThrows(IllegalArgumentException.class,
        () -> base.withReadOnlyRatio(1.5));

    // Then
    assertTrue(noReadOnly.getMessage().contains("needs a read-only shape"), noReadOnly.getMessage());
    assertTrue(noWriting.getMessage().contains("needs a writing shape"), noWriting.getMessage());
    assertTrue(oneKey.getMessage().contains("at least 2 keys"), oneKey.getMessage());
    assertTrue(ratio.getMessage().contains("[0, 1]"), ratio.getMessage());
  }

  @Test
  void shouldAcceptOneKeyWhenOnlySingleKeyShapesAreUsed() {
    // When
    final GeneratorConfig c = GeneratorConfig.defaults().withShapes(List.of(MtShape.R1W1, MtShape.R1)).withKeys(1);

    // Then
    assertEquals(1, c.keys());
    assertEquals(10_000, MtHistoryGenerator.generateHistory(c).size());
  }

  @Test
  void shouldKeepShapesInOneOrderWhateverOrderTheyAreGivenIn() {
    // When
    final GeneratorConfig given = GeneratorConfig.defaults().withShapes(MtShape.parseList("R1R2W1W2,R1W1W1,R1,R1W1"));
    final GeneratorConfig sorted = GeneratorConfig.defaults().withShapes(MtShape.parseList("R1,R1W1,R1W1W1,R1R2W1W2"));

    // Then: the order of the full preset, so the same shapes give the same history
    assertEquals(List.of("R1", "R1W1", "R1W1W1", "R1R2W1W2"), given.shapes().stream().map(MtShape::name).toList());
    assertEquals(MtHistoryGenerator.generateHistory(sorted.withTransactions(500)),
        MtHistoryGenerator.generateHistory(given.withTransactions(500)));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> GeneratorConfig.defaults()
        .withShapes(MtShape.parseList("paper,CAS"))).getMessage().contains("CAS is a shape of the agent"));
  }

  @Test
  void shouldCountInjectedTransactionsWhenInjectionsAreGiven() {
    // When
    final GeneratorConfig c = GeneratorConfig.defaults()
        .withInjections(Injection.parseList("LongFork:2,ThinAirRead,NonMonotonicRead:3"));

    // Then
    assertEquals(2 * 4 + 1 + 3 * 3, c.injectedTransactions());
  }
}
