package io.isowatch.core.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The long[]-backed list of a list read's elements: a {@link List} like any other. */
class LongListTest {
  @Test
  void shouldEqualAndHashLikeAnyListOfTheSameElements() {
    // Given
    final LongList l = LongList.of(3, 1, 200);

    // Then
    assertEquals(List.of(3L, 1L, 200L), l);
    assertEquals(l, List.of(3L, 1L, 200L));
    assertEquals(List.of(3L, 1L, 200L).hashCode(), l.hashCode());
    assertEquals("[3, 1, 200]", l.toString());
    assertTrue(l.contains(200L));
    assertFalse(l.contains(2L));
    assertEquals(List.of(1L, 200L), l.subList(1, 3));
  }

  @Test
  void shouldTellPrefixesApart() {
    assertTrue(LongList.of(1, 2).prefixOf(LongList.of(1, 2, 3)));
    assertTrue(LongList.of().prefixOf(LongList.of(1)));
    assertTrue(LongList.of(1, 2).prefixOf(LongList.of(1, 2)));
    assertFalse(LongList.of(1, 3).prefixOf(LongList.of(1, 2, 3)));
    assertFalse(LongList.of(1, 2, 3).prefixOf(LongList.of(1, 2)));
  }

  @Test
  void shouldCopyOtherListsRefuseNullsAndKeepItself() {
    // Given
    final LongList l = LongList.of(5, 6);

    // Then
    assertSame(l, LongList.copyOf(l));
    assertEquals(l, LongList.copyOf(List.of(5L, 6L)));
    assertThrows(NullPointerException.class, () -> LongList.copyOf(Arrays.asList(1L, null)));
    assertThrows(UnsupportedOperationException.class, () -> l.add(7L));
  }

  @Test
  void shouldBeWhatAListReadHolds() {
    // When
    final Op read = Op.readList("x", List.of(1L, 2L));

    // Then
    assertTrue(read.elements() instanceof LongList);
    assertEquals(Op.readList("x", LongList.of(1, 2)), read);
  }
}
