package io.isowatch.agent.target.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.isowatch.agent.target.TargetException;
import java.util.List;
import org.junit.jupiter.api.Test;

class ListTextTest {
  @Test
  void shouldReadTheEmptyTextAsTheEmptyList() throws Exception {
    assertEquals(List.of(), ListText.parse("x", ""));
  }

  @Test
  void shouldReadElementsInAppendOrder() throws Exception {
    assertEquals(List.of(1099511627777L, 3L, 2L), ListText.parse("x", ",1099511627777,3,2"));
  }

  @Test
  void shouldFailTheReadWhenTheTextIsNotAList() {
    final TargetException e = assertThrows(TargetException.class, () -> ListText.parse("x", "1,2"));
    assertEquals(TargetException.Failure.ERROR, e.failure());
    assertThrows(TargetException.class, () -> ListText.parse("x", ",1,,2"));
    assertThrows(TargetException.class, () -> ListText.parse("x", ",1,a"));
  }
}
