package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.OpType;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.testkit.HistoryDsl;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Aion scanner ({@link AionFastPath}) against the Jackson reader it stands in front of: the same
 * history, or the same error, for every input, whether the scanner takes all of it, part of it (Jackson
 * reading on from where it stopped) or none; and proof that it takes what writers write (else the
 * comparisons would compare Jackson with itself).
 */
class AionFastPathTest {
  private static final String PLAIN = "{\"tid\": 67, \"sid\": 19, \"sts\": {\"p\": 1691420095436341, \"l\": 61}, "
      + "\"cts\": {\"l\": 18, \"p\": 1691420095659914}, \"rtts\": 5, \"ops\": [{\"t\": \"w\", \"k\": 7, \"v\": 2}, "
      + "{\"t\": \"READ\", \"k\": -0, \"v\": null}, {\"k\": 8, \"t\": \"r\"}]}";
  private static final String PLAIN_68 = "{\"sid\": 19, \"tid\": 68, \"ops\": [{\"t\": \"write\", \"k\": 0, \"v\": 0}]}";

  @ParameterizedTest
  @ValueSource(strings = {
      "[" + PLAIN + "]",
      "[{\"tid\":\"t-1\",\"sid\":\"east\",\"sts\":null,\"cts\":null,\"ops\":[]}]",
      "\r\n [\r\n" + PLAIN + "\r\n,\t" + PLAIN_68 + "\n]\n",
      "[{\"tid\":1,\"sid\":1,\"ops\":[{\"t\":\"Write\",\"k\":1,\"v\":-9}],\"x\":\"y\",\"z\":true,\"n\":null}]",
  })
  void shouldTakeEveryTransactionAndReadThemAsJacksonDoesWhenTheyArePlain(final String text) throws Exception {
    // Given
    final AionHistoryReader reader = reader(InputLimits.BUILT_IN, true);

    // When
    final Object fast = outcome(reader, text);

    // Then
    assertTrue(fast instanceof History, () -> String.valueOf(fast));
    assertEquals(((History) fast).size(), reader.scanned());
    assertEquals(outcome(reader(InputLimits.BUILT_IN, false), text), fast);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "\"k\": \"7\"", "\"k\": 7.0", "\"k\": 007", "\"k\": 1234567890123456789", "\"v\": 99999999999999999999",
      "\"t\": \"x\"", "\"t\": \"r\\u0065ad\"", "\"tid\": 2, \"tid\": 3", "\"sts\": {\"p\": \"5\"}", "\"sts\": {\"l\": 1}",
      "\"sts\": 5", "\"x\": [1]", "\"x\": {}", "\"ops\": [{\"t\": \"w\", \"k\": 1}]", "\"ops\": 1",
      "\"x\": 1,", "\"x\" : tru", "\"x\": 1e3", "\"t\u00e9\": 1",
  })
  void shouldLeaveTheRestToJacksonAndReadItAlikeWhenATransactionIsNotPlain(final String field) throws Exception {
    // Given: a plain transaction, then one whose first op has an unusual field, then a plain one
    final String odd = PLAIN.replace("\"k\": 7, ", field + ", ").replace("67", "70");
    final String text = "[" + PLAIN + ",\n  " + odd + ",\n" + PLAIN.replace("67", "71") + "]";
    final AionHistoryReader reader = reader(InputLimits.BUILT_IN, true);

    // When
    final Object fast = outcome(reader, text);

    // Then: the first taken, Jackson on from the second, and the outcome Jackson's alone
    assertEquals(1, reader.scanned());
    assertEquals(outcome(reader(InputLimits.BUILT_IN, false), text), fast);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", ",", "]", "]]", "] x", "\n", ",]", ", 5]", ",{}]", ", {\"tid\": 9}]", ",,"})
  void shouldGiveJacksonsOutcomeWhenTheArrayEndsOddly(final String ending) throws Exception {
    // Given
    final String text = "\n [" + PLAIN + ",\n" + PLAIN.replace("67", "68") + ending;
    final AionHistoryReader reader = reader(InputLimits.BUILT_IN, true);

    // When
    final Object fast = outcome(reader, text);

    // Then
    assertEquals(2, reader.scanned());
    assertEquals(outcome(reader(InputLimits.BUILT_IN, false), text), fast);
  }

  @ParameterizedTest
  @ValueSource(strings = {", \"rtts\"", ", \"l\": 61", ", \"v\": 2", ", {\"t\": \"READ\""})
  void shouldLeaveTheRestToJacksonWhenASeparatorIsNotAComma(final String comma) throws Exception {
    // Given: a plain transaction, then one with a semicolon where a comma separates a transaction's
    // members, a clock's, an op's, or the ops
    final String odd = PLAIN.replace(comma, ";" + comma.substring(1)).replace("67", "70");
    assertNotEquals(PLAIN.replace("67", "70"), odd);
    final String text = "[" + PLAIN + ",\n  " + odd + "]";
    final AionHistoryReader reader = reader(InputLimits.BUILT_IN, true);

    // When
    final Object fast = outcome(reader, text);

    // Then: the scanner declines the second, and the outcome (Jackson's error) is Jackson's alone
    assertEquals(1, reader.scanned());
    assertEquals(outcome(reader(InputLimits.BUILT_IN, false), text), fast);
  }

  @Test
  void shouldTakeEveryTransactionAndReadTheSameHistoryWhenGeneratedHistoriesOfEveryKindAreRead() throws Exception {
    // Given: every simulated level, skewed keys, no times, every injectable anomaly; three layouts
    final List<History> histories = GeneratedKinds.everyKind(2_000, 300);

    for (final History h : histories) {
      for (final String layout : new String[] {"lines", "pretty", "one"}) {
        // When
        final String text = aion(h, layout);
        final AionHistoryReader reader = reader(InputLimits.BUILT_IN, true);
        final Object fast = outcome(reader, text);

        // Then
        assertEquals(outcome(reader(InputLimits.BUILT_IN, false), text), fast, layout);
        assertEquals(h.size(), reader.scanned(), layout);
      }
    }
  }

  @Test
  void shouldTakeEveryTransactionAndReadTheSameHistoryWhenTheGoldenCorpusIsRead() throws Exception {
    // Given: the golden corpus, in the test language
    final Path corpus = Path.of(AionFastPathTest.class.getResource("/corpus").toURI());
    final List<Path> files;
    try (Stream<Path> s = Files.walk(corpus)) {
      files = s.filter(p -> p.toString().endsWith(".hist")).sorted().toList();
    }
    assertTrue(files.size() > 10, "the corpus is where it was");
    long txns = 0;
    long taken = 0;

    for (final Path file : files) {
      // When
      final History h = HistoryDsl.history(Files.readString(file));
      final String text = aion(h, "pretty");
      final AionHistoryReader reader = reader(InputLimits.BUILT_IN, true);
      final Object fast = outcome(reader, text);

      // Then
      assertEquals(outcome(reader(InputLimits.BUILT_IN, false), text), fast, file.toString());
      txns += h.size();
      taken += reader.scanned();
    }
    assertEquals(txns, taken);
    assertTrue(txns > 200, "txns " + txns);
  }

  @Test
  void shouldReadTheSameHistoryWhenTheSampleFileIsRead() throws Exception {
    // Given
    final String text = new String(AionFastPathTest.class.getResourceAsStream("/formats/aion.json").readAllBytes(),
        java.nio.charset.StandardCharsets.UTF_8);
    final AionHistoryReader reader = reader(InputLimits.BUILT_IN, true);

    // When
    final Object fast = outcome(reader, text);

    // Then: the sample's clocks are decimal strings, which the scanner leaves to Jackson
    assertEquals(outcome(reader(InputLimits.BUILT_IN, false), text), fast);
  }

  @Test
  void shouldGiveTheSameHistoryOrTheSameErrorWhenTransactionsAreMutated() throws Exception {
    // Given: written transactions with random edits at the places a hostile or hand-made file differs
    final String[] txns = aion(generated(GeneratorConfig.defaults().withTransactions(300).withSeed(21)), "lines")
        .split("\n");
    final String[] pieces = {
        " ", "\t", "\n", "\r", "\r\n", ",", ":", "{", "}", "[", "]", "\"", "\\", "0", "-", "-0", "01", "1.5", "1e2",
        "null", "true", "\"x\"", "\"tid\"", "\"sid\"", "\"sts\"", "\"cts\"", "\"ops\"", "\"p\"", "\"l\"", "\"t\"",
        "\"k\"", "\"v\"", "\"r\"", "\"W\"", "\"read\"", "\u00e9", "\u00a0", "\u0001", "99999999999999999999",
        "9223372036854775807", "123456789012345678", "{\"t\": \"r\", \"k\": 1}", ", \"rtts\": 3", "/*", "//"};
    final SplittableRandom r = new SplittableRandom(21);
    long taken = 0;

    for (int round = 0; round < 4_000; round++) {
      // When: two to four transactions of the array, edited
      final StringBuilder sb = new StringBuilder("[\n");
      final int n = 2 + r.nextInt(3);
      for (int k = 1; k < n + 1; k++) {
        final String t = txns[1 + r.nextInt(txns.length - 2)];
        sb.append(k == 1 ? t.substring(1) : t).append('\n');
      }
      sb.append("]\n");
      ReadOutcomes.edit(sb, r, 1 + r.nextInt(3), pieces);
      final String text = sb.toString();
      final AionHistoryReader reader = reader(InputLimits.BUILT_IN, true);
      final Object fast = outcome(reader, text);

      // Then
      assertEquals(outcome(reader(InputLimits.BUILT_IN, false), text), fast, text);
      taken += reader.scanned();
    }
    assertTrue(taken > 2_000, "taken " + taken);
  }

  @Test
  void shouldGiveTheSameOutcomeWhenLimitsAreLow() throws Exception {
    // Given: each limit just at or below what the transactions need
    final String text = "[" + PLAIN + ",\n" + PLAIN.replace("67", "68") + "]";
    final List<InputLimits> limits = new ArrayList<>();
    for (int n = 1; n <= 20; n++) {
      limits.add(new InputLimits(n, 1 << 20, 1 << 20, 1000, 100));
      limits.add(new InputLimits(256, 1 << 20, n, 1000, 100));
      limits.add(new InputLimits(256, 1 << 20, 1 << 20, n, 100));
      limits.add(new InputLimits(256, 1 << 20, 1 << 20, 1000, n));
    }

    for (final InputLimits l : limits) {
      // When / Then
      assertEquals(outcome(reader(l, false), text), outcome(reader(l, true), text), l.toString());
    }
  }

  @Test
  void shouldReadTheSameHistoryWhenTransactionsCrossTheBuffer() throws Exception {
    // Given: more than the scanner's 64K buffer, one line and pretty-printed; an odd one near the end
    final History h = generated(GeneratorConfig.defaults().withTransactions(5_000).withSeed(8));
    for (final String layout : new String[] {"one", "pretty"}) {
      final String text = aion(h, layout);
      assertTrue(text.length() > 4 * (1 << 16));
      final int odd = text.lastIndexOf("\"k\": ");
      final String mixed = text.substring(0, odd) + "\"k\": \"" + text.substring(odd + 5).replaceFirst(",", "\",");
      for (final String t : new String[] {text, mixed}) {
        final AionHistoryReader reader = reader(InputLimits.BUILT_IN, true);

        // When
        final Object fast = outcome(reader, t);

        // Then
        assertEquals(outcome(reader(InputLimits.BUILT_IN, false), t), fast, layout);
        assertTrue(fast instanceof History, () -> String.valueOf(fast));
        assertEquals(t == text ? h.size() : h.size() - 1, reader.scanned(), layout);
      }
    }
  }

  private static AionHistoryReader reader(final InputLimits limits, final boolean fast) {
    return new AionHistoryReader(TimeUnit.MICROSECONDS, limits, fast);
  }

  /** The history, or the error's message: what a user would see. */
  private static Object outcome(final AionHistoryReader reader, final String text) {
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
   * A history as Aion JSON: keys numbered in order of appearance, ids and sessions as integers when
   * they are, else strings; "lines" one transaction a line as scripts/jsonl-to-formats.py writes,
   * "pretty" as TimeKiller's sample, "one" all on one line.
   */
  static String aion(final History h, final String layout) {
    final Map<String, Integer> keys = new HashMap<>();
    final String nl = layout.equals("one") ? "" : "\n";
    final String in = layout.equals("pretty") ? "    " : "";
    final StringBuilder sb = new StringBuilder("[").append(nl);
    boolean first = true;
    for (final Transaction t : h.transactions()) {
      sb.append(first ? "" : ",").append(in).append("{\"tid\": ").append(id(t.id())).append(", \"sid\": ")
          .append(id(t.session()));
      if (t.start() != Transaction.NO_TIME) {
        sb.append(",").append(layout.equals("pretty") ? "\n" + in + in : " ")
            .append("\"sts\": {\"p\": ").append(t.start()).append(", \"l\": 0}");
      }
      if (t.end() != Transaction.NO_TIME) {
        sb.append(", \"cts\": {\"l\": 2, \"p\": ").append(t.end()).append("}");
      }
      sb.append(", \"ops\": [");
      boolean firstOp = true;
      for (final Op o : t.ops()) {
        final int key = keys.computeIfAbsent(o.key(), k -> keys.size());
        sb.append(firstOp ? "" : ", ").append(layout.equals("pretty") ? "\n" + in + in : "")
            .append("{\"t\": \"").append(o.type() == OpType.READ ? "r" : "w").append("\", \"k\": ").append(key)
            .append(", \"v\": ").append(o.value()).append("}");
        firstOp = false;
      }
      sb.append("]}").append(nl);
      first = false;
    }
    return sb.append("]").append(nl).toString();
  }

  private static String id(final String s) {
    return s.matches("-?(0|[1-9][0-9]{0,17})") ? s : "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
