package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.ReadingSplit;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.testkit.HistoryDsl;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Elle histories (EDN and JSON) read on a reader thread, each transaction given as soon as it and
 * the ones before it are complete ({@link HistoryIO#read(java.io.InputStream, HistoryFormat,
 * ReadingSplit)}), against the reader that makes every transaction once the input is read ({@link
 * ElleHistoryReader#read(Reader)}): the same history, given in its order, or the same error.
 */
class ElleReadAheadTest {
  @Test
  void shouldReadTheSameHistoryWhenGeneratedHistoriesOfEveryKindAreRead() throws Exception {
    // Given: every simulated level, skewed keys without times, every injectable anomaly
    int compared = 0;
    for (final History h : GeneratedKinds.everyKind(2_000, 400)) {
      final String edn = EdnFastPathTest.edn(h);
      for (final String text : List.of(edn, "[" + edn + "]", ElleJsonFastPathTest.json(edn))) {
        // When / Then
        final Object read = assertSameOutcome(text);
        assertEquals(h.size(), ((History) read).size());
        compared++;
      }
    }
    assertEquals(3 * GeneratedKinds.everyKind(20, 20).size(), compared);
  }

  @Test
  void shouldReadTheSameHistoryWhenTheGoldenCorpusAndTheSamplesAreRead() throws Exception {
    // Given
    final Path corpus = Path.of(ElleReadAheadTest.class.getResource("/corpus").toURI());
    final List<Path> files;
    try (Stream<Path> s = Files.walk(corpus)) {
      files = s.filter(p -> p.toString().endsWith(".hist")).sorted().toList();
    }
    assertTrue(files.size() > 10, "the corpus is where it was");

    // When / Then
    for (final Path file : files) {
      final String edn = EdnFastPathTest.edn(HistoryDsl.history(Files.readString(file)));
      assertSameOutcome(edn);
      assertSameOutcome(ElleJsonFastPathTest.json(edn));
    }
    for (final String name : new String[] {"/formats/rw-register.edn", "/formats/completions.edn",
        "/formats/rw-register.json", "/formats/rw-register-lines.json"}) {
      assertSameOutcome(new String(ElleReadAheadTest.class.getResourceAsStream(name).readAllBytes(),
          StandardCharsets.UTF_8));
    }
  }

  @Test
  void shouldGiveTheSameHistoryOrTheSameErrorWhenOpsAreMutated() throws Exception {
    // Given: written ops, shuffled in small ways and edited where a hand-made file differs
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(200).withSeed(23));
    final String[] edn = EdnFastPathTest.edn(h).split("\n");
    final String[] json = ElleJsonFastPathTest.json(EdnFastPathTest.edn(h)).split("\n");
    final String[] pieces = {" ", "\n", ",", "\"", ":", "{", "}", "[", "]", "0", "-", "nil", "null", ":invoke", ":ok",
        ":fail", ":info", "\"invoke\"", "\"ok\"", "\"info\"", ":process", ":value", ":index 3", ", :index 3",
        ",\"index\":3", ":f :read", "[:w :x nil]", "[:r :x [1]]", "9223372036854775808"};
    final SplittableRandom r = new SplittableRandom(23);
    int histories = 0;
    int errors = 0;

    for (int round = 0; round < 1_500; round++) {
      // When: a run of consecutive ops, some dropped or repeated, and edited
      final String[] ops = r.nextBoolean() ? edn : json;
      final int from = r.nextInt(ops.length);
      final StringBuilder sb = new StringBuilder();
      for (int i = from; i < Math.min(ops.length, from + 1 + r.nextInt(40)); i++) {
        final int what = r.nextInt(20);
        if (what != 0) {
          sb.append(ops[i]).append('\n');
        }
        if (what == 1) {
          sb.append(ops[i]).append('\n');
        }
      }
      ReadOutcomes.edit(sb, r, r.nextInt(3), pieces);

      // Then
      if (assertSameOutcome(sb.toString()) instanceof History) {
        histories++;
      } else {
        errors++;
      }
    }
    // Both kinds of outcome were compared, not only one.
    assertTrue(histories > 100 && errors > 100, histories + " histories, " + errors + " errors");
  }

  @Test
  void shouldThrowTheErrorOfALaterOpBeforeTheErrorOfAnEarlierTransaction() throws Exception {
    // Given: a transaction without :value first (its error is the history's), then an op of an unknown type
    final String text = "{:type :invoke, :process 0, :f :txn}\n"
        + "{:type :ok, :process 0, :f :txn}\n"
        + "{:type :ok, :process 1, :f :txn, :value [[:w :x 1]]}\n"
        + "{:type :wat, :process 2, :f :txn, :value [[:w :x 2]]}\n";

    // When / Then: the op's error, as when every transaction is made at the end
    assertEquals("line 4: unknown :type :wat (expected :invoke, :ok, :fail or :info)", assertSameOutcome(text));
    assertEquals("line 1: op has no :value", assertSameOutcome(text.substring(0, text.lastIndexOf("{:type :wat"))));
  }

  @Test
  void shouldRejectARepeatedIdAtItsTransactionWhenItsCompletionComesFirst() throws Exception {
    // Given: p0-5 twice, the second completed before an earlier transaction that never completes
    final String text = "{:index 5, :type :ok, :process 0, :f :txn, :value [[:w :x 1]]}\n"
        + "{:index 6, :type :invoke, :process 1, :f :txn, :value [[:w :y 1]]}\n"
        + "{:index 5, :type :ok, :process 0, :f :txn, :value [[:w :x 2]]}\n"
        + "{:index 9, :type :ok, :process 2, :f :txn, :value [[:w :z 1]]}\n";

    // When / Then
    assertEquals("line 3: duplicate transaction id 'p0-5' (first used at line 1)", assertSameOutcome(text));
  }

  @Test
  void shouldGiveTransactionsBeforeTheInputIsReadWhenTheyComplete() throws Exception {
    // Given: more than the reader's buffers, in EDN and in JSON
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(5_000).withSeed(8));
    final String edn = EdnFastPathTest.edn(h);
    for (final String text : List.of(edn, ElleJsonFastPathTest.json(edn))) {
      final long[] readWhenFirstGiven = {-1};
      final long[] read = {0};
      final Reader counting = new StringReader(text) {
        @Override
        public int read(final char[] buf, final int off, final int len) throws IOException {
          final int n = super.read(buf, off, len);
          read[0] += Math.max(0, n);
          return n;
        }
      };

      // When
      final List<Transaction> given = new ArrayList<>();
      new ElleHistoryReader().read(counting, t -> {
        if (given.isEmpty()) {
          readWhenFirstGiven[0] = read[0];
        }
        given.add(t);
        return true;
      });

      // Then: the first transaction went out when a small part of the input had been read
      assertEquals(h.size(), given.size());
      assertTrue(readWhenFirstGiven[0] > 0 && readWhenFirstGiven[0] < text.length() / 4,
          readWhenFirstGiven[0] + " of " + text.length());
      assertEquals(new ElleHistoryReader().read(new StringReader(text)).transactions(), given);
    }
  }

  /**
   * Asserts that the reader thread gives what the reader at the end gives, and that the split was
   * given the history's transactions in its order; returns the history, or the error's message.
   */
  private static Object assertSameOutcome(final String text) throws IOException {
    return ReadOutcomes.assertSameOutcome(text, HistoryFormat.ELLE, t -> new ElleHistoryReader().read(new StringReader(t)));
  }
}
