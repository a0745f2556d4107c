package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.testkit.HistoryDsl;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JSON-lines op scanner of Elle histories ({@link ElleJsonFastPath}, through {@link ElleJsonLines})
 * against Jackson's reading of the whole input: the same history, or the same error, for every input;
 * and proof that the scanner takes the lines elle-cli's JSON form and converters write (else the
 * differential tests would compare Jackson with itself).
 */
class ElleJsonFastPathTest {
  private static final String LINE = "{\"index\":12,\"time\":1000500,\"type\":\"ok\",\"process\":3,\"f\":\"txn\","
      + "\"value\":[[\"r\",\"x\",null],[\"w\",\"k17\",-4],[\"append\",7,9],[\"r\",\"y\",5]]}";

  @Test
  void shouldTakeTheLineWhenItIsAsElleCliReadsIt() {
    // Given
    final ElleJsonFastPath fast = new ElleJsonFastPath(InputLimits.BUILT_IN, new StringInterner());

    // When
    final JepsenOp op = fast.parse(LINE.toCharArray(), 0, LINE.length(), 4, 2);

    // Then
    assertNotNull(op);
    assertEquals(List.of("ok", "txn", "3", 1000500L, 12L, 4, 2L),
        List.of(op.type(), op.f(), op.process(), op.time(), op.index(), op.line(), op.ordinal()));
    assertEquals(List.of(Op.read("x", null), Op.write("k17", -4), Op.append("7", 9), Op.read("y", 5L)),
        ((ElleHistoryAssembler.Mops) op.value()).ops(true));
    assertEquals(List.of(Op.write("k17", -4), Op.append("7", 9), Op.read("y", 5L)),
        ((ElleHistoryAssembler.Mops) op.value()).ops(false));
  }

  @Test
  void shouldTakeEveryLineWhenWrittenAsConvertersWriteThem() {
    // Given: the generated lines, spaced lines, and other annotations
    final String text = json(EdnFastPathTest.edn(generated(GeneratorConfig.defaults().withTransactions(2_000).withSeed(4))))
        + "{ \"index\": 4, \"time\": 3000001, \"type\": \"fail\", \"process\": 1, \"f\": \"txn\", "
        + "\"value\": [ [\"r\", \"x\", null], [\"w\", \"x\", 2] ], \"error\": \"timeout\", \"ok\": true }\n"
        + "{\"type\":\"info\",\"f\":\"start\",\"process\":\"nemesis\",\"value\":null}\n"
        + "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"w\",\"x\",-9223372036854775808],"
        + "[\"w\",\"y\",9223372036854775807]]}\n";
    final ElleJsonFastPath fast = new ElleJsonFastPath(InputLimits.BUILT_IN, new StringInterner());

    // When / Then
    final String[] lines = text.split("\n");
    int taken = 0;
    for (final String line : lines) {
      if (fast.parse(line.toCharArray(), 0, line.length(), 1, 0) != null) {
        taken++;
      }
    }
    assertEquals(lines.length, taken);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",\"x\",[1,2]]]}",
      "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",\"x\",1]],\"type\":\"fail\"}",
      "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",\"x\",1]],\"node\":\"n\\\"1\"}",
      "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",\"a\\u0041\",1]]}",
      "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"error\":{\"x\":1},\"value\":[[\"r\",\"x\",1]]}",
      "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"error\":[1],\"value\":[[\"r\",\"x\",1]]}",
      "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\n\"value\":[[\"r\",\"x\",1]]}",
      "{\"type\":\"ok\",\":process\":0,\"f\":\"txn\",\"value\":[[\"r\",\"x\",1]]}",
      "{\"type\":\":ok\",\"process\":0,\"f\":\":txn\",\"value\":[[\":r\",\":x\",1]]}",
      "{\"type\":\"ok\",\"process\":-0,\"f\":\"txn\",\"value\":[[\"r\",\"x\",1]]}",
      "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",\"x\",1]],\"weight\":1.5}",
      "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",\"x\",1]]} {\"type\":\"ok\",\"process\":1,\"value\":[]}",
      "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",\"x\",1]]}\r\r",
      "{\"type\":\"ok\",\"process\":\"p\u00e9\",\"f\":\"txn\",\"value\":[[\"r\",\"x\",1]]}",
      "[{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",\"x\",1]]}]",
  })
  void shouldLeaveTheLineToJacksonAndReadItAlikeWhenTheScannerCannotTakeIt(final String line) throws Exception {
    // Given
    final ElleJsonFastPath fast = new ElleJsonFastPath(InputLimits.BUILT_IN, new StringInterner());
    final String text = "{\"type\":\"ok\",\"process\":5,\"f\":\"txn\",\"value\":[[\"w\",\"z\",1]]}\n\n" + line + "\n";

    // When
    final JepsenOp scanned = fast.parse(line.toCharArray(), 0, line.length(), 1, 0);

    // Then: the fallback is taken, and gives what Jackson alone gives, after a line taken or from the start
    assertNull(scanned);
    assertEquals(outcome(text, InputLimits.BUILT_IN, false), outcome(text, InputLimits.BUILT_IN, true));
    assertEquals(outcome(line, InputLimits.BUILT_IN, false), outcome(line, InputLimits.BUILT_IN, true));
  }

  @Test
  void shouldReportTheSameLineWhenJacksonFailsAfterLinesTheScannerTook() {
    // Given: taken lines, blank lines and CRLF, then an object Jackson refuses
    final String text = "{\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"w\",\"x\",1]]}\r\n\n \t\n"
        + "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"w\",\"x\",1]]}\n"
        + "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"w\",\"x\",1]],}\n";

    // When
    final Object fast = outcome(text, InputLimits.BUILT_IN, true);

    // Then
    assertEquals(outcome(text, InputLimits.BUILT_IN, false), fast);
    assertTrue(String.valueOf(fast).startsWith("line 5:"), String.valueOf(fast));
  }

  @Test
  void shouldReportTheLastOpsLineWhenJacksonBreaksALimitWithoutPlacingItAfterLinesTheScannerTook() {
    // Given: ops on lines 1 and 3, then a number beyond max-number-chars (Jackson's constraint
    // failure may carry no location: the reader then names the line of the last op it read)
    final String op = "{\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"w\",\"x\",1]]}\n";
    final String text = op + "\n" + op.replace("\"x\",1", "\"y\",2") + "1".repeat(40) + "\n";
    final InputLimits limits = new InputLimits(256, 1 << 20, 1 << 20, 30, 100);

    // When
    final Object fast = outcome(text, limits, true);

    // Then
    assertEquals(outcome(text, limits, false), fast);
    assertTrue(String.valueOf(fast).contains("number"), String.valueOf(fast));
  }

  @Test
  void shouldReadTheSameHistoryWhenGeneratedHistoriesOfEveryKindAreRead() throws Exception {
    // Given: every simulated level, uniform and skewed keys, no times, every injectable anomaly
    final List<History> histories = GeneratedKinds.everyKind(3_000, 500);

    for (final History h : histories) {
      // When
      final String text = json(EdnFastPathTest.edn(h));

      // Then: the same history, as many transactions as written, and the lines taken by the scanner
      assertSameOutcome(text);
      assertEquals(h.size(), read(text, true).size());
      assertSameOutcome("[" + text.replace("}\n{", "},\n{") + "]");
      assertEquals(text.split("\n").length, taken(text));
    }
  }

  @Test
  void shouldReadTheSameHistoryWhenTheGoldenCorpusIsRead() throws Exception {
    // Given: the golden corpus, register and list-append histories, in the test language
    final Path corpus = Path.of(ElleJsonFastPathTest.class.getResource("/corpus").toURI());
    final List<Path> files;
    try (Stream<Path> s = Files.walk(corpus)) {
      files = s.filter(p -> p.toString().endsWith(".hist")).sorted().toList();
    }
    assertTrue(files.size() > 10, "the corpus is where it was");
    int compared = 0;

    for (final Path file : files) {
      // When
      final History h = HistoryDsl.history(Files.readString(file));

      // Then
      assertSameOutcome(json(EdnFastPathTest.edn(h)));
      compared++;
    }
    assertTrue(compared > 70, "compared " + compared);
  }

  @Test
  void shouldReadTheSameHistoryWhenTheSampleFilesAreRead() throws Exception {
    for (final String name : new String[] {"/formats/rw-register.json", "/formats/rw-register-lines.json"}) {
      assertSameOutcome(new String(ElleJsonFastPathTest.class.getResourceAsStream(name).readAllBytes(),
          StandardCharsets.UTF_8));
    }
  }

  @Test
  void shouldGiveTheSameHistoryOrTheSameErrorWhenLinesAreMutated() throws Exception {
    // Given: written lines with random edits at the places a hostile or hand-made file differs
    final String[] lines = json(EdnFastPathTest.edn(generated(GeneratorConfig.defaults().withTransactions(300)
        .withSeed(21)))).split("\n");
    final String[] pieces = {
        " ", "\t", ",", "\n", "\r", "\r\n", "\\", "\"", ":", "{", "}", "[", "]", "0", "-", "+1", "01", "-0", "1.5", "1e3",
        "null", "true", "false", "\"x\"", "\":x\"", "\"type\"", "\"ok\"", "\"fail\"", "\"info\"", "\"invoke\"",
        "\"process\"", "\"f\"", "\"txn\"", "\"value\"", "\"time\"", "\"index\"", "\u00e9", "\u00a0", "\u2028",
        "99999999999999999999", "9223372036854775808", "[\"r\",\"x\",null]", "[\"w\",\"x\",null]",
        "[\"append\",\"x\",1]", "[\"r\",\"x\",[1]]", ",\"error\":\"timeout\"", ",\"index\":3", ",\"process\":1", "\\u0041"};
    final SplittableRandom r = new SplittableRandom(21);

    for (int round = 0; round < 6_000; round++) {
      // When: one to three lines, edited
      final StringBuilder sb = new StringBuilder();
      for (int k = 1 + r.nextInt(3); k > 0; k--) {
        sb.append(lines[r.nextInt(lines.length)]).append('\n');
      }
      ReadOutcomes.edit(sb, r, 1 + r.nextInt(3), pieces);

      // Then
      assertSameOutcome(sb.toString());
    }
  }

  @Test
  void shouldGiveTheSameOutcomeWhenLimitsAreLow() throws Exception {
    // Given: each limit just at or below what a plain line needs
    final String text = "{\"index\":1,\"time\":123456,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\","
        + "\"value\":[[\"r\",\"key-1\",null],[\"w\",\"k\",5]]}\n"
        + "{\"index\":2,\"time\":123457,\"type\":\"ok\",\"process\":0,\"f\":\"txn\","
        + "\"value\":[[\"r\",\"key-1\",7],[\"w\",\"k\",5]]}\n";
    final List<InputLimits> limits = new ArrayList<>();
    for (int n = 1; n <= 8; n++) {
      limits.add(new InputLimits(n, 1 << 20, 1 << 20, 1000, 100));
      limits.add(new InputLimits(256, 1 << 20, n, 1000, 100));
      limits.add(new InputLimits(256, 1 << 20, 1 << 20, n, 100));
      limits.add(new InputLimits(256, 1 << 20, 1 << 20, 1000, n % 3 + 1));
    }

    for (final InputLimits l : limits) {
      // When / Then
      assertEquals(outcome(text, l, false), outcome(text, l, true), l.toString());
    }
  }

  @Test
  void shouldReadTheSameHistoryWhenLinesCrossTheBufferOrExceedTheLineBound() throws Exception {
    // Given: more than the 64K buffer, so that lines straddle each refill; then a line longer than the bound
    final String text = json(EdnFastPathTest.edn(generated(GeneratorConfig.defaults().withTransactions(5_000)
        .withSeed(8))));
    assertTrue(text.length() > 4 * (1 << 16));
    final String padded = "{\"type\":\"ok\",\"process\":9,\"f\":\"txn\",\"value\":[[\"w\",\"long\",1]],\"pad\":\""
        + "p".repeat(ElleJsonLines.MAX_LINE_CHARS) + "\"}\n";

    // When / Then
    assertSameOutcome(text);
    assertSameOutcome(text + padded + text.substring(0, text.indexOf('\n') + 1).replace("\"index\":0", "\"index\":-1"));
    assertEquals(text.split("\n").length, taken(text));
  }

  private static void assertSameOutcome(final String text) {
    final Object slow = outcome(text, InputLimits.BUILT_IN, false);
    final Object fast = outcome(text, InputLimits.BUILT_IN, true);
    assertEquals(slow, fast, text.length() > 2_000 ? text.substring(0, 2_000) : text);
  }

  /** The history, or the error's message: what a user would see. */
  private static Object outcome(final String text, final InputLimits limits, final boolean fast) {
    try {
      return new ElleHistoryReader(limits, fast).read(new StringReader(text));
    } catch (final InvalidHistoryException e) {
      return e.getMessage();
    } catch (final java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  /** How many lines of {@code text} the scanner takes, reading them in turn as the reader does. */
  private static int taken(final String text) throws Exception {
    final ElleJsonLines lines = new ElleJsonLines(new StringReader(text),
        new ElleJsonFastPath(InputLimits.BUILT_IN, new StringInterner()));
    int n = 0;
    while (lines.next(n) != null) {
      n++;
    }
    return n;
  }

  private static History read(final String text, final boolean fast) throws Exception {
    return new ElleHistoryReader(InputLimits.BUILT_IN, fast).read(new StringReader(text));
  }

  private static History generated(final GeneratorConfig config) {
    return MtHistoryGenerator.generateHistory(config);
  }

  private static final Pattern FORM = Pattern.compile(
      "\\{:index (-?\\d+), :time (-?\\d+), :type :(\\w+), :process (\\d+), :f :txn, :value \\[(.*)\\]\\}");
  private static final Pattern MOP = Pattern.compile("\\[:(\\w+) (:[^ \\]]+|\"[^\"]*\") ([^\\]]+)\\]");

  /**
   * The EDN of {@link EdnFastPathTest#edn} as Elle's JSON lines, field for field: keywords become
   * strings, nil null, keys their names as strings.
   */
  static String json(final String edn) {
    final StringBuilder sb = new StringBuilder();
    for (final String line : edn.split("\n")) {
      final Matcher m = FORM.matcher(line);
      if (!m.matches()) {
        throw new IllegalArgumentException("not a form of EdnFastPathTest.edn: " + line);
      }
      sb.append("{\"index\":").append(m.group(1)).append(",\"time\":").append(m.group(2))
          .append(",\"type\":\"").append(m.group(3)).append("\",\"process\":").append(m.group(4))
          .append(",\"f\":\"txn\",\"value\":[");
      final Matcher mop = MOP.matcher(m.group(5));
      boolean first = true;
      while (mop.find()) {
        final String key = mop.group(2).startsWith(":") ? mop.group(2).substring(1) : mop.group(2).replace("\"", "");
        sb.append(first ? "" : ",").append("[\"").append(mop.group(1)).append("\",\"").append(key).append("\",")
            .append(mop.group(3).equals("nil") ? "null" : mop.group(3)).append(']');
        first = false;
      }
      sb.append("]}\n");
    }
    return sb.toString();
  }
}
