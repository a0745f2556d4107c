package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.testkit.HistoryDsl;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JSONL scanner ({@link JsonlFastPath}) against the Jackson parser it stands in front of: the
 * same history, or the same error, for every input; and proof that the scanner takes the lines
 * writers produce (else the differential tests would compare Jackson with itself).
 */
class JsonlFastPathTest {
  private static final String LINE = "{\"session\":\"s1\",\"txn\":\"s1-7\",\"seq\":3,\"status\":\"committed\","
      + "\"start\":1732180000000123,\"end\":1732180000000456,\"ops\":[{\"t\":\"r\",\"k\":\"x\",\"v\":0},"
      + "{\"t\":\"w\",\"k\":\"x\",\"v\":1017},{\"t\":\"r\",\"k\":\"y\",\"v\":null}]}";

  @Test
  void shouldTakeTheLineWhenItIsAsWritersProduceIt() {
    // Given
    final JsonlFastPath fast = new JsonlFastPath(InputLimits.BUILT_IN, new StringInterner());

    // When
    final Transaction t = fast.parse(LINE.toCharArray(), 0, LINE.length(), 9);

    // Then
    assertEquals(new Transaction("s1-7", "s1", 3, TxnStatus.COMMITTED, 1732180000000123L, 1732180000000456L,
        List.of(Op.read("x", 0L), Op.write("x", 1017), Op.read("y", null)), null, null, 9), t);
  }

  @Test
  void shouldTakeEveryLineWhenJsonlHistoryWriterWroteIt() throws Exception {
    // Given: every field the writer emits (tenant, level, null reads, negative values, no times)
    final History h = generated(GeneratorConfig.defaults().withTransactions(2_000).withSeed(4));
    final List<Transaction> extra = new ArrayList<>(h.transactions());
    extra.add(new Transaction("x-1", "s-x", Transaction.NO_SEQ, TxnStatus.UNKNOWN, Transaction.NO_TIME, 5,
        List.of(Op.read("k\u00e9y", null), Op.write("k", Long.MIN_VALUE + 1)), "acme", "SERIALIZABLE", 0));
    extra.add(new Transaction("x-2", "s-x", 0, TxnStatus.ABORTED, -17, Transaction.NO_TIME, List.of(), null, null, 0));
    final String text = jsonl(new History(extra));
    final JsonlFastPath fast = new JsonlFastPath(InputLimits.BUILT_IN, new StringInterner());

    // When / Then: no line needs the Jackson parser (Long.MIN_VALUE + 1 has 19 digits: not this one)
    final String[] lines = text.split("\n");
    int taken = 0;
    for (final String line : lines) {
      if (fast.parse(line.toCharArray(), 0, line.length(), 1) != null) {
        taken++;
      }
    }
    assertEquals(lines.length - 1, taken);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"session\":\"s\\u0031\",\"txn\":\"a\",\"status\":\"committed\",\"ops\":[]}",
      "{\"session\":\"s1\",\"txn\":\"a\",\"status\":\"committed\",\"ops\":[],\"client\":{\"pid\":[1,2]}}",
      "{\"session\":\"s1\",\"txn\":\"a\",\"status\":\"committed\",\"ops\":[{\"t\":\"w\",\"k\":\"x\",\"v\":9223372036854775807}]}",
      "{\"session\":\"s1\",\"txn\":\"a\",\"status\":\"committed\",\"ops\":[{\"t\":\"w\",\"k\":\"x\",\"v\":1,\"note\":\"n\"}]}",
      "{\"session\":\"s1\",\"session\":\"s2\",\"txn\":\"a\",\"status\":\"committed\",\"ops\":[]}",
      "{\"session\":\"s1\",\"txn\":\"a\",\"status\":\"committed\",\"ops\":[{\"t\":\"r\",\"k\":\"a\\/b\",\"v\":null}]}",
      "{\"session\":\"s1\",\"txn\":\"a\\\"b\",\"status\":\"committed\",\"ops\":[]}",
  })
  void shouldLeaveTheLineToJacksonAndReadItAlikeWhenTheScannerCannotTakeIt(final String line) throws Exception {
    // Given
    final JsonlFastPath fast = new JsonlFastPath(InputLimits.BUILT_IN, new StringInterner());

    // When
    final Transaction scanned = fast.parse(line.toCharArray(), 0, line.length(), 1);
    final Transaction read = new JsonlHistoryReader(InputLimits.BUILT_IN, true).parseLine(line, 1);

    // Then: the fallback is taken, and gives what the Jackson parser alone gives
    assertNull(scanned);
    assertNotNull(read);
    assertEquals(new JsonlHistoryReader(InputLimits.BUILT_IN, false).parseLine(line, 1), read);
  }

  @Test
  void shouldShareStringsBetweenScannerAndJacksonWhenBothReadOneFile() throws Exception {
    // Given: line 1 through the scanner, line 2 through Jackson (an unknown field)
    final String text = "{\"session\":\"s1\",\"txn\":\"a\",\"status\":\"committed\",\"ops\":[{\"t\":\"w\",\"k\":\"key\",\"v\":1}]}\n"
        + "{\"session\":\"s1\",\"txn\":\"b\",\"status\":\"committed\",\"x\":1,\"ops\":[{\"t\":\"r\",\"k\":\"key\",\"v\":1}]}\n";

    // When
    final History h = new JsonlHistoryReader(InputLimits.BUILT_IN, true).read(new StringReader(text));

    // Then
    assertSame(h.transactions().get(0).ops().get(0).key(), h.transactions().get(1).ops().get(0).key());
    assertSame(h.transactions().get(0).session(), h.transactions().get(1).session());
  }

  @Test
  void shouldReadTheSameHistoryWhenGeneratedHistoriesOfEveryKindAreRead() throws Exception {
    // Given: every simulated level, uniform and skewed keys, every injectable anomaly
    final List<History> histories = GeneratedKinds.everyKind(3_000, 500);

    for (final History h : histories) {
      // When
      final String text = jsonl(h);

      // Then
      assertSameOutcome(text);
      assertEquals(h.size(), read(text, true).size());
    }
  }

  @Test
  void shouldReadTheSameHistoryWhenTheGoldenCorpusIsRead() throws Exception {
    // Given
    final Path corpus = Path.of(JsonlFastPathTest.class.getResource("/corpus").toURI());
    final List<Path> files;
    try (Stream<Path> s = Files.walk(corpus)) {
      files = s.filter(p -> p.toString().endsWith(".hist")).sorted().toList();
    }
    assertTrue(files.size() > 10, "the corpus is where it was");
    int compared = 0;

    for (final Path file : files) {
      // When: the case, written in the test language, written out as JSONL
      final History h = HistoryDsl.history(Files.readString(file));

      // Then
      assertSameOutcome(jsonl(h));
      compared++;
    }
    // The corpus files are in the test language, not a file format: reading them as TEXT threw for
    // every one, and this test compared nothing.
    assertTrue(compared > 70, "compared " + compared);
  }

  @Test
  void shouldGiveTheSameHistoryOrTheSameErrorWhenLinesAreMutated() throws Exception {
    // Given: writer lines with random edits at the places a hostile or hand-made file differs
    final String[] lines = jsonl(generated(GeneratorConfig.defaults().withTransactions(300).withSeed(21))).split("\n");
    final String[] pieces = {
        " ", "\t", "\\", "\\n", "\\u0041", "\"", ",", ":", "{", "}", "[", "]", "0", "-", "01", "1.5", "1e3", "null",
        "true", "\"x\"", "\u00e9", "\ud83d\ude00", "\ud800", "\u0001", "\u00a0", "99999999999999999999", "9223372036854775808",
        ",\"extra\":1", ",\"seq\":-1", ",\"status\":\"aborted\"", "\"t\":\"w\",", "\"v\":null", ",\"tenant\":null",
        ",\"level\":\"SI\"", ",\"end\":null", ",{\"t\":\"r\",\"k\":\"q\"}", ",{}", "/*c*/", "'", "\u2028"};
    final SplittableRandom r = new SplittableRandom(21);

    for (int round = 0; round < 6_000; round++) {
      // When
      final String base = lines[r.nextInt(lines.length)];
      final StringBuilder sb = new StringBuilder(base);
      ReadOutcomes.edit(sb, r, 1 + r.nextInt(3), pieces);

      // Then
      assertSameOutcome(sb + "\n");
    }
  }

  @Test
  void shouldGiveTheSameErrorWhenLimitsAreLow() throws Exception {
    // Given: each limit just at or below what a plain line needs
    final String line = "{\"session\":\"sess\",\"txn\":\"t1\",\"status\":\"committed\",\"ops\":["
        + "{\"t\":\"w\",\"k\":\"key-1\",\"v\":123456},{\"t\":\"r\",\"k\":\"key-2\",\"v\":7}]}\n";
    final List<InputLimits> limits = new ArrayList<>();
    for (int n = 1; n <= 8; n++) {
      limits.add(new InputLimits(n, 1 << 20, 1 << 20, 1000, 100));
      limits.add(new InputLimits(256, 1 << 20, n, 1000, 100));
      limits.add(new InputLimits(256, 1 << 20, 1 << 20, n, 100));
      limits.add(new InputLimits(256, 1 << 20, 1 << 20, 1000, n % 3 + 1));
      limits.add(new InputLimits(256, line.length() - 5 + n, 1 << 20, 1000, 100));
    }

    for (final InputLimits l : limits) {
      // When / Then
      assertEquals(outcome(line, l, false), outcome(line, l, true), l.toString());
    }
  }

  private static void assertSameOutcome(final String text) {
    assertEquals(outcome(text, InputLimits.BUILT_IN, false), outcome(text, InputLimits.BUILT_IN, true), text);
  }

  /** The history, or the error's message: what a user would see. */
  private static Object outcome(final String text, final InputLimits limits, final boolean fast) {
    try {
      return new JsonlHistoryReader(limits, fast).read(new StringReader(text));
    } catch (final InvalidHistoryException e) {
      return e.getMessage();
    } catch (final java.io.IOException e) {
      throw new AssertionError(e);
    }
  }

  private static History read(final String text, final boolean fast) throws Exception {
    return new JsonlHistoryReader(InputLimits.BUILT_IN, fast).read(new StringReader(text));
  }

  private static History generated(final GeneratorConfig config) {
    return MtHistoryGenerator.generateHistory(config);
  }

  private static String jsonl(final History h) throws Exception {
    final StringWriter out = new StringWriter();
    HistoryIO.write(h, HistoryFormat.JSONL, out);
    return out.toString();
  }
}
