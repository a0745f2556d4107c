package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The EDN op scanner ({@link EdnFastPath}) against the general EDN reader it stands in front of: the
 * same history, or the same error, for every input; and proof that the scanner takes the forms Jepsen
 * and scripts/jsonl-to-formats.py write (else the differential tests would compare the reader with
 * itself).
 */
class EdnFastPathTest {
  private static final String FORM = "{:index 12, :time 1000500, :type :ok, :process 3, :f :txn, "
      + ":value [[:r :x nil] [:w :k17 -4] [:append 7 9] [:r \"y\" 5]]}";

  @Test
  void shouldTakeTheFormWhenItIsAsJepsenWritesIt() {
    // Given
    final EdnFastPath fast = new EdnFastPath(InputLimits.BUILT_IN, new StringInterner());
    final String text = FORM + "\n";

    // When
    final JepsenOp op = fast.parse(text.toCharArray(), 0, text.length(), 4, 2);

    // Then
    assertNotNull(op);
    assertEquals(FORM.length(), fast.consumed());
    assertEquals(List.of("ok", "txn", "3", 1000500L, 12L, 4, 2L),
        List.of(op.type(), op.f(), op.process(), op.time(), op.index(), op.line(), op.ordinal()));
    assertEquals(List.of(Op.read("x", null), Op.write("k17", -4), Op.append("7", 9), Op.read("y", 5L)),
        ((ElleHistoryAssembler.Mops) op.value()).ops(true));
    assertEquals(List.of(Op.write("k17", -4), Op.append("7", 9), Op.read("y", 5L)),
        ((ElleHistoryAssembler.Mops) op.value()).ops(false));
  }

  @Test
  void shouldTakeEveryFormWhenWrittenAsJsonlToFormatsWritesThem() {
    // Given: the forms of scripts/jsonl-to-formats.py, and Jepsen's own spellings
    final String text = edn(generated(GeneratorConfig.defaults().withTransactions(2_000).withSeed(4)))
        + "{:index 4 :time 3000001 :type :fail :process 1 :f :txn :value [[:r :x nil] [:w :x 2]] :error :timeout}\n"
        + "{:type :info, :f :start, :process :nemesis, :value nil}\n"
        + "{:type :ok, :process 0, :f :txn, :value [[:w :x -9223372036854775808] [:w :y 9223372036854775807]]}\n";
    final EdnFastPath fast = new EdnFastPath(InputLimits.BUILT_IN, new StringInterner());

    // When / Then
    final String[] forms = text.split("\n");
    int taken = 0;
    for (final String form : forms) {
      final String withEnd = form + "\n";
      if (fast.parse(withEnd.toCharArray(), 0, withEnd.length(), 1, 0) != null) {
        taken++;
      }
    }
    assertEquals(forms.length, taken);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "{:type :ok, :process 0, :f :txn, :value [[:r :x [1 2]]]}",
      "{:type :ok, :process 0, :f :txn, :value [[:r :x 1]], :type :fail}",
      "{:type :ok, :process 0, :f :txn, :value [[:r :x 1]], :node \"n\\\"1\"}",
      "{:type :ok, :process 007, :f :txn, :value [[:r :x 1]]}",
      "{:type :ok, :process 0, :f :txn, :value [[:r \"a\\\"b\" 1]]}",
      "{:type :ok, :process 0, :f :txn, :value [[:r :x 1] #_[:w :x 2]]}",
      "{:type :ok, :process 0, :f :txn, :error {:x 1}, :value [[:r :x 1]]}",
      "{:type :ok, :process 0, :f :txn,\n :value [[:r :x 1]]}",
      "{:type :ok, \"process\" 0, :f :txn, :value [[:r :x 1]]}",
      "{:type :ok, :process 0, :f :txn, :value ([:r :x 1])}",
      "{:type :ok, :process -0, :f :txn, :value [[:r :x 1]]}",
  })
  void shouldLeaveTheFormToTheReaderAndReadItAlikeWhenTheScannerCannotTakeIt(final String form) throws Exception {
    // Given
    final EdnFastPath fast = new EdnFastPath(InputLimits.BUILT_IN, new StringInterner());
    final String text = form + "\n";

    // When
    final JepsenOp scanned = fast.parse(text.toCharArray(), 0, text.length(), 1, 0);

    // Then: the fallback is taken, and gives what the reader alone gives
    assertNull(scanned);
    assertEquals(outcome(text, InputLimits.BUILT_IN, false), outcome(text, InputLimits.BUILT_IN, true));
    assertTrue(outcome(text, InputLimits.BUILT_IN, true) instanceof History, () -> form + " is a valid history");
  }

  @Test
  void shouldReadTheSameHistoryWhenGeneratedHistoriesOfEveryKindAreRead() throws Exception {
    // Given: every simulated level, uniform and skewed keys, no times, every injectable anomaly
    final List<History> histories = GeneratedKinds.everyKind(3_000, 500);

    for (final History h : histories) {
      // When
      final String text = edn(h);

      // Then: the same history, and as many transactions as written
      assertSameOutcome(text);
      assertEquals(h.size(), read(text, true).size());
      assertSameOutcome("[" + text + "]");
    }
  }

  @Test
  void shouldReadTheSameHistoryWhenTheGoldenCorpusIsRead() throws Exception {
    // Given: the golden corpus, register and list-append histories, in the test language
    final Path corpus = Path.of(EdnFastPathTest.class.getResource("/corpus").toURI());
    final List<Path> files;
    try (Stream<Path> s = Files.walk(corpus)) {
      files = s.filter(p -> p.toString().endsWith(".hist")).sorted().toList();
    }
    assertTrue(files.size() > 10, "the corpus is where it was");
    int compared = 0;

    for (final Path file : files) {
      // When
      final History h = HistoryDsl.history(Files.readString(file));

      // Then: taken by the scanner (list reads excepted), read alike
      final String text = edn(h);
      assertSameOutcome(text);
      compared++;
    }
    assertTrue(compared > 70, "compared " + compared);
  }

  @Test
  void shouldReadTheSameHistoryWhenTheSampleFilesAreRead() throws Exception {
    for (final String name : new String[] {"/formats/rw-register.edn", "/formats/completions.edn"}) {
      assertSameOutcome(new String(EdnFastPathTest.class.getResourceAsStream(name).readAllBytes(),
          java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  @Test
  void shouldGiveTheSameHistoryOrTheSameErrorWhenFormsAreMutated() throws Exception {
    // Given: written forms with random edits at the places a hostile or hand-made file differs
    final String[] forms = edn(generated(GeneratorConfig.defaults().withTransactions(300).withSeed(21))).split("\n");
    final String[] pieces = {
        " ", "\t", ",", "\n", "\r", "\\", "\"", ":", "{", "}", "[", "]", "(", ")", "#", "#_", ";", "0", "-", "+1", "01",
        "1.5", "1N", "nil", "true", "\"x\"", ":x", ":type", ":ok", ":fail", ":info", ":invoke", ":process", ":f", ":txn",
        ":value", ":time", ":index", "\u00e9", "\u00a0", "\u2028", "99999999999999999999", "9223372036854775808",
        "[:r :x nil]", "[:w :x nil]", "[:append :x 1]", "[:r :x [1]]", ":error :timeout", ", :index 3", ", :process 1"};
    final SplittableRandom r = new SplittableRandom(21);

    for (int round = 0; round < 6_000; round++) {
      // When: one or two forms, edited
      final StringBuilder sb = new StringBuilder();
      for (int k = 1 + r.nextInt(2); k > 0; k--) {
        sb.append(forms[r.nextInt(forms.length)]).append('\n');
      }
      ReadOutcomes.edit(sb, r, 1 + r.nextInt(3), pieces);

      // Then
      assertSameOutcome(sb.toString());
    }
  }

  @Test
  void shouldGiveTheSameOutcomeWhenLimitsAreLow() throws Exception {
    // Given: each limit just at or below what a plain form needs
    final String text = "{:index 1, :time 123456, :type :invoke, :process 0, :f :txn, :value [[:r :key-1 nil] [:w :k 5]]}\n"
        + "{:index 2, :time 123457, :type :ok, :process 0, :f :txn, :value [[:r :key-1 7] [:w :k 5]]}\n";
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
  void shouldReadTheSameHistoryWhenAFormCrossesTheReadersBuffer() throws Exception {
    // Given: more than the reader's 64K buffer, so that forms straddle each refill
    final String text = edn(generated(GeneratorConfig.defaults().withTransactions(5_000).withSeed(8)));
    assertTrue(text.length() > 4 * (1 << 16));

    // When / Then
    assertSameOutcome(text);
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

  private static History read(final String text, final boolean fast) throws Exception {
    return new ElleHistoryReader(InputLimits.BUILT_IN, fast).read(new StringReader(text));
  }

  private static History generated(final GeneratorConfig config) {
    return MtHistoryGenerator.generateHistory(config);
  }

  /**
   * A history as Elle EDN, as scripts/jsonl-to-formats.py writes it: an invoke at each start (reads
   * nil) and a completion at each end (ok, fail; info for an unknown outcome), in time order (file
   * order among equal times); transactions without times invoke and complete in file order.
   */
  static String edn(final History h) {
    record Event(long time, long order, String text) {}
    final List<Event> events = new ArrayList<>();
    final java.util.Map<String, Integer> processes = new java.util.HashMap<>();
    long order = 0;
    for (final Transaction t : h.transactions()) {
      final int process = processes.computeIfAbsent(t.session(), s -> processes.size());
      final long start = t.start() == Transaction.NO_TIME ? order : t.start();
      final long end = t.end() == Transaction.NO_TIME ? Math.max(start, order) : t.end();
      final StringBuilder invoke = new StringBuilder();
      final StringBuilder done = new StringBuilder();
      for (final Op o : t.ops()) {
        final String k = o.key().matches("[A-Za-z][A-Za-z0-9_.-]*") ? ":" + o.key() : "\"" + o.key() + "\"";
        final String f = o.type() == OpType.READ ? ":r" : o.type() == OpType.APPEND ? ":append" : ":w";
        invoke.append(invoke.isEmpty() ? "" : " ").append('[').append(f).append(' ').append(k).append(' ')
            .append(o.type() == OpType.READ ? "nil" : String.valueOf(o.value())).append(']');
        done.append(done.isEmpty() ? "" : " ").append('[').append(f).append(' ').append(k).append(' ')
            .append(o.value() == null ? "nil" : String.valueOf(o.value())).append(']');
      }
      final String type = switch (t.status()) {
        case COMMITTED -> "ok";
        case ABORTED -> "fail";
        default -> "info";
      };
      events.add(new Event(start, order++, "{:time %d, :type :invoke, :process %d, :f :txn, :value [%s]}"
          .formatted(start * 1000, process, invoke)));
      events.add(new Event(end, order++, "{:time %d, :type :%s, :process %d, :f :txn, :value [%s]}"
          .formatted(end * 1000, type, process, done)));
    }
    events.sort(Comparator.comparingLong(Event::time).thenComparingLong(Event::order));
    final StringBuilder sb = new StringBuilder();
    int index = 0;
    for (final Event e : events) {
      sb.append("{:index ").append(index++).append(", ").append(e.text().substring(1)).append('\n');
    }
    return sb.toString();
  }
}
