package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.OpType;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.testkit.HistoryDsl;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The text line scanner ({@link TextFastPath}) against the regular expression it stands in front of:
 * the same history, or the same error, for every input; and proof that the scanner takes the lines
 * writers write (else the comparisons would compare the regular expression with itself).
 */
class TextFastPathTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "r(1,2,3,4)", "w(0,0,0,0)", " \tw( 12 , -5 ,\u000B7,\f9 ) ", "r(007,-0,01,4)", "w(-3,-9,2,-1)",
      "r(123456789012345678,-123456789012345678,1,2)", "r(1,2,3,-2)",
  })
  void shouldTakeTheLineAndReadItAsTheExpressionDoesWhenItIsAPlainOpLine(final String line) throws Exception {
    // Given
    final String text = line + "\n";
    final TextHistoryReader reader = new TextHistoryReader(InputLimits.BUILT_IN, true);

    // When
    final Object fast = outcome(reader, text);

    // Then
    assertEquals(1, reader.scanned());
    assertEquals(outcome(new TextHistoryReader(InputLimits.BUILT_IN, false), text), fast);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "# comment", "   ", "\u2003", "r(1,2,3)", "x(1,2,3,4)", "R(1,2,3,4)", "r(1,2,3,4", "r(1,2,3,4))", "r (1,2,3,4)",
      "r(+1,2,3,4)", "r(1,2,3,4)x", "r(1234567890123456789,2,3,4)", "r(1,99999999999999999999,3,4)",
      "r(1,2,9223372036854775808,4)", "r(1,2,3,-9223372036854775808)", "r(1,2,3,4)\u00a0", "r(\u0661,2,3,4)",
  })
  void shouldDeclineTheLineAndGiveWhatTheExpressionGivesWhenItIsNotAPlainOpLine(final String line) throws Exception {
    // Given
    final String text = line + "\n";
    final TextHistoryReader reader = new TextHistoryReader(InputLimits.BUILT_IN, true);

    // When
    final Object fast = outcome(reader, text);

    // Then
    assertEquals(0, reader.scanned());
    assertEquals(outcome(new TextHistoryReader(InputLimits.BUILT_IN, false), text), fast);
  }

  @Test
  void shouldTakeEveryLineAndReadTheSameHistoryWhenGeneratedHistoriesOfEveryKindAreRead() throws Exception {
    // Given: every simulated level, skewed keys, every injectable anomaly; aborted ones as Plume writes them
    final List<History> histories = GeneratedKinds.everyKind(3_000, 500);

    for (final History h : histories) {
      // When
      final String text = text(h);
      final TextHistoryReader reader = new TextHistoryReader(InputLimits.BUILT_IN, true);
      final Object fast = outcome(reader, text);

      // Then: every op line taken, and the same history as the expression reads
      assertEquals(text.lines().count(), reader.scanned());
      assertEquals(outcome(new TextHistoryReader(InputLimits.BUILT_IN, false), text), fast);
      assertTrue(fast instanceof History, () -> String.valueOf(fast));
    }
  }

  @Test
  void shouldTakeEveryLineAndReadTheSameHistoryWhenTheGoldenCorpusIsRead() throws Exception {
    // Given: the golden corpus, in the test language
    final Path corpus = Path.of(TextFastPathTest.class.getResource("/corpus").toURI());
    final List<Path> files;
    try (Stream<Path> s = Files.walk(corpus)) {
      files = s.filter(p -> p.toString().endsWith(".hist")).sorted().toList();
    }
    assertTrue(files.size() > 10, "the corpus is where it was");
    long lines = 0;
    long taken = 0;

    for (final Path file : files) {
      // When
      final String text = text(HistoryDsl.history(Files.readString(file)));
      final TextHistoryReader reader = new TextHistoryReader(InputLimits.BUILT_IN, true);
      final Object fast = outcome(reader, text);

      // Then
      assertEquals(outcome(new TextHistoryReader(InputLimits.BUILT_IN, false), text), fast, file.toString());
      lines += text.lines().count();
      taken += reader.scanned();
    }
    assertEquals(lines, taken);
    assertTrue(lines > 300, "lines " + lines);
  }

  @Test
  void shouldReadTheSameHistoryWhenTheSampleFilesAreRead() throws Exception {
    for (final String name : new String[] {"/formats/polysi.txt", "/formats/isovista.txt"}) {
      // Given
      final String text = new String(TextFastPathTest.class.getResourceAsStream(name).readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8);
      final TextHistoryReader reader = new TextHistoryReader(InputLimits.BUILT_IN, true);

      // When
      final Object fast = outcome(reader, text);

      // Then
      assertEquals(outcome(new TextHistoryReader(InputLimits.BUILT_IN, false), text), fast, name);
      assertTrue(reader.scanned() > 3, name);
    }
  }

  @Test
  void shouldGiveTheSameHistoryOrTheSameErrorWhenLinesAreMutated() throws Exception {
    // Given: written lines with random edits at the places a hostile or hand-made file differs
    final String[] lines = text(generated(GeneratorConfig.defaults().withTransactions(300).withSeed(21))).split("\n");
    final String[] pieces = {
        " ", "\t", "\u000B", "\f", ",", "\n", "\r", "\r\n", "(", ")", "#", "r", "w", "R", "0", "00", "-", "-1", "+1",
        "1.5", "\u00e9", "\u00a0", "\u2028", "\u0661", "99999999999999999999", "9223372036854775808",
        "-9223372036854775808", "123456789012345678", "1234567890123456789", "r(1,2,3,4)", "w(1,0,0,0)"};
    final SplittableRandom r = new SplittableRandom(21);
    long taken = 0;

    for (int round = 0; round < 6_000; round++) {
      // When: one to three lines, edited
      final StringBuilder sb = new StringBuilder();
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        sb.append(lines[r.nextInt(lines.length)]).append('\n');
      }
      ReadOutcomes.edit(sb, r, 1 + r.nextInt(3), pieces);
      final String text = sb.toString();
      final TextHistoryReader reader = new TextHistoryReader(InputLimits.BUILT_IN, true);
      final Object fast = outcome(reader, text);

      // Then
      assertEquals(outcome(new TextHistoryReader(InputLimits.BUILT_IN, false), text), fast, text);
      taken += reader.scanned();
    }
    assertTrue(taken > 1_000, "taken " + taken);
  }

  @Test
  void shouldGiveTheSameOutcomeWhenLimitsAreLow() throws Exception {
    // Given: each limit just at or below what the lines need
    final String text = "r(1,0,1,1)\nw(1,5,1,1)\nw(2,5,1,1)\nr(1,5,2,2)\nw(1,7,2,-1)\nw(2,7,2,-1)\n";
    final List<InputLimits> limits = new ArrayList<>();
    for (int n = 1; n <= 12; n++) {
      limits.add(new InputLimits(n, 1 << 20, 1 << 20, 1000, 100));
      limits.add(new InputLimits(256, n, 1 << 20, 1000, 100));
      limits.add(new InputLimits(256, 1 << 20, n, 1000, 100));
      limits.add(new InputLimits(256, 1 << 20, 1 << 20, n, 100));
      limits.add(new InputLimits(256, 1 << 20, 1 << 20, 1000, n));
    }

    for (final InputLimits l : limits) {
      // When / Then
      assertEquals(outcome(new TextHistoryReader(l, false), text), outcome(new TextHistoryReader(l, true), text),
          l.toString());
    }
  }

  @Test
  void shouldReadTheSameHistoryWhenLinesCrossTheBuffer() throws Exception {
    // Given: more than LineSource's 64K buffer, so that lines straddle each refill
    final String text = text(generated(GeneratorConfig.defaults().withTransactions(20_000).withSeed(8)));
    assertTrue(text.length() > 4 * (1 << 16));
    final TextHistoryReader reader = new TextHistoryReader(InputLimits.BUILT_IN, true);

    // When
    final Object fast = outcome(reader, text);

    // Then
    assertEquals(outcome(new TextHistoryReader(InputLimits.BUILT_IN, false), text), fast);
    assertEquals(text.lines().count(), reader.scanned());
    assertFalse(fast instanceof String, () -> String.valueOf(fast));
  }

  /** The history, or the error's message: what a user would see. */
  private static Object outcome(final TextHistoryReader reader, final String text) {
    try {
      return reader.read(new StringReader(text));
    } catch (final InvalidHistoryException e) {
      return e.getMessage();
    } catch (final java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static History generated(final GeneratorConfig config) {
    return MtHistoryGenerator.generateHistory(config);
  }

  /**
   * A history as text: keys numbered in order of appearance, sessions and transactions by their
   * index, null read as 0, aborted and unknown transactions with id -1 as Plume writes them.
   */
  static String text(final History h) {
    final Map<String, Integer> keys = new HashMap<>();
    final Map<String, Integer> sessions = new HashMap<>();
    final StringBuilder sb = new StringBuilder();
    int id = 0;
    for (final Transaction t : h.transactions()) {
      final int session = sessions.computeIfAbsent(t.session(), s -> sessions.size());
      final int txn = t.status() == TxnStatus.COMMITTED ? id++ : -1;
      for (final Op o : t.ops()) {
        final int key = keys.computeIfAbsent(o.key(), k -> keys.size());
        sb.append(o.type() == OpType.READ ? 'r' : 'w').append('(').append(key).append(',')
            .append(o.value() == null ? 0L : o.value()).append(',').append(session).append(',').append(txn)
            .append(")\n");
      }
    }
    return sb.toString();
  }
}
