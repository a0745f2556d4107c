package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LineSourceTest {
  private static final InputLimits LIMITS = InputLimits.BUILT_IN;

  @Test
  void shouldSplitLinesAsBufferedReaderDoesWhenTerminatorsAreMixed() throws Exception {
    // Given: every terminator, empty lines, a last line without one, lines across the 64 Ki buffer
    final SplittableRandom r = new SplittableRandom(3);
    final StringBuilder sb = new StringBuilder();
    final String[] ends = {"\n", "\r\n", "\r", "\n\n", "\r\r\n"};
    for (int i = 0; i < 2000; i++) {
      sb.append("x".repeat(r.nextInt(i % 100 == 0 ? 200_000 : 80))).append(ends[r.nextInt(ends.length)]);
    }
    sb.append("last");

    // When
    final List<String> expected = new BufferedReader(new StringReader(sb.toString())).lines().toList();
    final List<String> actual = new ArrayList<>();
    final LineSource lines = new LineSource(new StringReader(sb.toString()), LIMITS);
    String line;
    while ((line = lines.next()) != null) {
      actual.add(line);
      assertEquals(actual.size(), lines.lineNo());
    }

    // Then
    assertEquals(expected, actual);
  }

  @Test
  void shouldRefuseALineWhenItIsLongerThanTheLimit() throws Exception {
    // Given
    final InputLimits small = new InputLimits(8, 10, 10, 10, 10);
    final LineSource lines = new LineSource(new StringReader("0123456789\n01234567890\n"), small);

    // When
    final String first = lines.next();
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class, lines::next);

    // Then
    assertEquals("0123456789", first);
    assertEquals("line 2: line too long (input limit max-line-chars=10, system property isowatch.input.max-line-chars)",
        e.getMessage());
  }

  @Test
  void shouldKeepMessagesOnOneBoundedLineWhenTheyQuoteHostileInput() {
    // When
    final InvalidHistoryException e = new InvalidHistoryException(3, "got '" + "a\nb\r\u0000\u2028".repeat(1000) + "'");

    // Then
    assertEquals(1, e.getMessage().lines().count());
    assertEquals(true, e.getMessage().startsWith("line 3: got 'a\\nb\\r\\u0000\\u2028a\\nb"), e.getMessage());
    assertEquals(true, e.getMessage().endsWith("… (cut)"), e.getMessage());
  }
}
