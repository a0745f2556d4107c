package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.format.EdnReader.Keyword;
import io.isowatch.core.format.EdnReader.Symbol;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EdnReaderTest {

  private static Object read(final String edn) throws Exception {
    return new EdnReader(new StringReader(edn)).read();
  }

  private static Keyword kw(final String name) {
    return new Keyword(name);
  }

  @Test
  void shouldReadAJepsenOpWhenCommasAndKeywordsMix() throws Exception {
    // Given
    final String edn = "{:type :ok, :f :txn :value [[:r :x nil] [:w 7 -12]], :process 3 :time 1234567890123}";

    // When
    final Object v = read(edn);

    // Then
    final Map<Object, Object> expected = new LinkedHashMap<>();
    expected.put(kw("type"), kw("ok"));
    expected.put(kw("f"), kw("txn"));
    expected.put(kw("value"), List.of(Arrays.asList(kw("r"), kw("x"), null), List.of(kw("w"), 7L, -12L)));
    expected.put(kw("process"), 3L);
    expected.put(kw("time"), 1234567890123L);
    assertEquals(expected, v);
  }

  @Test
  void shouldReadEveryScalarWhenTheyAppearInAList() throws Exception {
    // Given
    final String edn = "(nil true false \"a\\\"b\\\\c\\n\\u00e9\" \\x \\newline sym ns/name :ns/kw 1.5 -2e3 "
        + "12345678901234567890 7N 1.25M 1/4 ##Inf +5)";

    // When
    final Object v = read(edn);

    // Then
    final List<Object> expected = new ArrayList<>(Arrays.asList(null, true, false, "a\"b\\c\né", 'x', '\n',
        new Symbol("sym"), new Symbol("ns/name"), kw("ns/kw"), 1.5, -2000.0,
        new BigInteger("12345678901234567890"), BigInteger.valueOf(7), new BigDecimal("1.25"), 0.25,
        Double.POSITIVE_INFINITY, 5L));
    assertEquals(expected, v);
  }

  @Test
  void shouldSkipCommentsDiscardsAndTagsWhenReadingValues() throws Exception {
    // Given
    final String edn = "; leading comment\n#_ {:ignored 1} [1 #_2 3 ; trailing\n #inst \"2024-01-01\" "
        + "#jepsen.history.Op{:index 0} #{:a :b}]";

    // When
    final Object v = read(edn);

    // Then
    assertEquals(List.of(1L, 3L, "2024-01-01", Map.of(kw("index"), 0L), Set.of(kw("a"), kw("b"))), v);
  }

  @Test
  void shouldTrackLinesWhenValuesSpanSeveralLines() throws Exception {
    // Given
    final EdnReader reader = new EdnReader(new StringReader("\n\n{:a\n 1}\n; c\n\n[2]"));

    // When
    reader.peekSignificant();
    final int first = reader.line();
    reader.read();
    reader.peekSignificant();
    final int second = reader.line();
    reader.read();

    // Then
    assertEquals(3, first);
    assertEquals(7, second);
    assertEquals(-1, reader.peekSignificant());
  }

  @Test
  void shouldReadNilAsNullWhenAlone() throws Exception {
    assertNull(read("  nil  "));
  }

  /** Malformed input, and the message naming the line of the defect (and where it opened). */
  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("\n{:a 1\n:b 2\n", "line 4: EDN: map opened at line 2 is not closed"),
        Arguments.of("{:a 1 :b}", "line 1: EDN: map opened at line 1 has a key without a value: :b"),
        Arguments.of("\n]", "line 2: EDN: unexpected ']'"),
        Arguments.of("[\"abc\n", "line 2: EDN: string opened at line 1 is not closed"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("malformed")
  void shouldRejectMalformedInputNamingTheLinesOfTheDefect(final String edn, final String message) {
    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class, () -> read(edn));

    // Then
    assertEquals(message, e.getMessage());
  }

  @Test
  void shouldRejectDeepNestingWhenItWouldExhaustTheStack() {
    // When
    final InvalidHistoryException e =
        assertThrows(InvalidHistoryException.class, () -> read("[".repeat(10_000)));

    // Then
    assertEquals("line 1: EDN: forms nested too deeply (input limit max-depth=256, system property "
        + "isowatch.input.max-depth)", e.getMessage());
  }

  @Test
  void shouldRejectDeepNestingWhenItHidesInDiscardedForms() {
    // Given: 100,000 nested discards, which used to restart the depth count and overflow the stack
    final String edn = "#_[".repeat(100_000);

    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class, () -> read(edn));

    // Then
    assertTrue(e.getMessage().startsWith("line 1: EDN: forms nested too deeply (input limit max-depth=256"), e.getMessage());
  }

  @Test
  void shouldRejectAChainOfDiscardsWhenItIsDeeperThanTheLimit() {
    // Given: #_ #_ #_ … x: each discard reads the next form, itself a discard
    final String edn = "#_ ".repeat(100_000) + "1 ".repeat(100_001);

    // When
    final InvalidHistoryException e = assertThrows(InvalidHistoryException.class, () -> read(edn));

    // Then
    assertTrue(e.getMessage().contains("max-depth=256"), e.getMessage());
  }

  @Test
  void shouldStillDiscardFormsWhenTheyAreNestedWithinTheLimit() throws Exception {
    // When
    final Object v = read("[1 #_[2 #_[3 #_4]] #_ #_ 5 6 7]");

    // Then
    assertEquals(List.of(1L, 7L), v);
  }

  @Test
  void shouldRejectStringsTokensAndNumbersWhenLongerThanTheirLimits() {
    // Given
    final InputLimits small = new InputLimits(8, 100, 10, 5, 10);

    // When
    final InvalidHistoryException string = assertThrows(InvalidHistoryException.class,
        () -> new EdnReader(new java.io.StringReader("\"" + "x".repeat(11) + "\""), small).read());
    final InvalidHistoryException keyword = assertThrows(InvalidHistoryException.class,
        () -> new EdnReader(new java.io.StringReader(":" + "k".repeat(11)), small).read());
    final InvalidHistoryException number = assertThrows(InvalidHistoryException.class,
        () -> new EdnReader(new java.io.StringReader("123456"), small).read());

    // Then
    assertTrue(string.getMessage().startsWith("line 1: EDN: string too long (input limit max-string-chars=10"),
        string.getMessage());
    assertTrue(keyword.getMessage().startsWith("line 1: EDN: symbol or keyword too long (input limit max-string-chars=10"),
        keyword.getMessage());
    assertTrue(number.getMessage().startsWith("line 1: EDN: number literal too long (input limit max-number-chars=5"),
        number.getMessage());
  }
}
