package io.isowatch.core.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.ReadingSplit;
import io.isowatch.core.testkit.HistoryDsl;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Aion histories read on a reader thread, each transaction given as it is read ({@link
 * HistoryIO#read(java.io.InputStream, HistoryFormat, ReadingSplit)}), against {@link
 * AionHistoryReader#read(Reader)} on this thread: the same history, given in its order, or the same
 * error.
 */
class AionReadAheadTest {
  @Test
  void shouldReadTheSameHistoryWhenGeneratedHistoriesOfEveryKindAreRead() throws Exception {
    int compared = 0;
    for (final History h : GeneratedKinds.everyKind(2_000, 300)) {
      for (final String layout : new String[] {"lines", "pretty", "one"}) {
        // When / Then
        assertEquals(h.size(), ((History) assertSameOutcome(AionFastPathTest.aion(h, layout))).size());
        compared++;
      }
    }
    assertEquals(3 * GeneratedKinds.everyKind(20, 20).size(), compared);
  }

  @Test
  void shouldReadTheSameHistoryWhenTheGoldenCorpusAndTheSampleAreRead() throws Exception {
    final Path corpus = Path.of(AionReadAheadTest.class.getResource("/corpus").toURI());
    final List<Path> files;
    try (Stream<Path> s = Files.walk(corpus)) {
      files = s.filter(p -> p.toString().endsWith(".hist")).sorted().toList();
    }
    assertTrue(files.size() > 10, "the corpus is where it was");
    for (final Path file : files) {
      assertSameOutcome(AionFastPathTest.aion(HistoryDsl.history(Files.readString(file)), "pretty"));
    }
    assertSameOutcome(new String(AionReadAheadTest.class.getResourceAsStream("/formats/aion.json").readAllBytes(),
        StandardCharsets.UTF_8));
  }

  @Test
  void shouldGiveTheSameHistoryOrTheSameErrorWhenTransactionsAreMutated() throws Exception {
    // Given: runs of written transactions, some repeated (a repeated id), edited
    final String[] txns = AionFastPathTest.aion(
        MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(300).withSeed(29)), "lines")
        .split("\n");
    final String[] pieces = {" ", "\n", ",", ":", "{", "}", "[", "]", "\"", "0", "-", "01", "1.5", "null", "\"x\"",
        "\"tid\"", "\"sid\"", "\"sts\"", "\"cts\"", "\"ops\"", "\"p\"", "\"t\"", "\"k\"", "\"v\"", "\"r\"", "\"W\"",
        "99999999999999999999", "{\"t\": \"r\", \"k\": 1}", ", \"rtts\": 3"};
    final SplittableRandom r = new SplittableRandom(29);
    int histories = 0;
    int errors = 0;

    for (int round = 0; round < 1_500; round++) {
      final StringBuilder sb = new StringBuilder("[\n");
      final int from = 1 + r.nextInt(txns.length - 2);
      boolean first = true;
      for (int i = from; i < Math.min(txns.length - 1, from + 1 + r.nextInt(30)); i++) {
        final int times = r.nextInt(15) == 0 ? 2 : 1;
        for (int k = 0; k < times; k++) {
          sb.append(first ? txns[i].substring(1) : txns[i].startsWith(",") ? txns[i] : "," + txns[i]).append('\n');
          first = false;
        }
      }
      sb.append("]\n");
      ReadOutcomes.edit(sb, r, r.nextInt(3), pieces);

      // When / Then
      if (assertSameOutcome(sb.toString()) instanceof History) {
        histories++;
      } else {
        errors++;
      }
    }
    assertTrue(histories > 100 && errors > 100, histories + " histories, " + errors + " errors");
  }

  private static Object assertSameOutcome(final String text) throws IOException {
    return ReadOutcomes.assertSameOutcome(text, HistoryFormat.AION, t -> new AionHistoryReader().read(new StringReader(t)));
  }
}
