package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.format.TextHistoryReader;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.OpType;
import io.isowatch.core.history.ReadingSplit;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A text history read on the reader thread and checked while read ({@link InOrderFeed} with a
 * {@link TimelessWindow}): the same history as {@link TextHistoryReader#read(java.io.Reader)}, or
 * the same error, and the result of {@link WholeHistoryCheck} on it; transactions whose lines are
 * not consecutive, and an explicit initial transaction, lose the bet.
 */
class TextFeedTest {
  private static final CheckOptions SER_SI = CheckOptions.defaults().withLevels(EnumSet.of(Level.SER, Level.SI))
      .withMaxAnomalies(10_000);

  @Test
  void shouldGiveTheWholeHistoryResultWhileFeedingTheEngineFromAText() throws Exception {
    // Given: generated histories of every kind written as text (aborted ones as Plume writes them)
    int fed = 0;
    final List<History> histories = generated();
    for (final History h : histories) {
      final String text = text(h);
      // When
      final InOrderFeed feed = new InOrderFeed(SER_SI, 16);
      final History read = read(text, feed);
      final boolean held = feed.inOrderSoFar();
      final CheckResult split = Results.withoutTime(feed.finish(read));

      // Then
      final History plain = new TextHistoryReader().read(new StringReader(text));
      assertEquals(plain.transactions(), read.transactions());
      assertEquals(Results.withoutTime(WholeHistoryCheck.check(plain, SER_SI)), split);
      fed += held ? 1 : 0;
    }
    // The valid ones at least were fed while read (the simulated levels, the two long ones).
    assertTrue(fed >= SimulatedLevel.values().length + 2, fed + " of " + histories.size() + " fed");
  }

  @Test
  void shouldLoseTheBetWhenATransactionsLinesAreNotConsecutiveOrTheFirstIsAnExplicitInitialOne() throws Exception {
    // Given: a long valid text; the same with one transaction's first line moved to after the next
    // transaction's; and the same after an explicit initial transaction (writes of 0, dropped)
    final String valid = text(generated().get(generated().size() - 1));
    final String[] lines = valid.split("\n", -1);
    int at = 1000;
    while (sameTxn(lines[at], lines[at + 1]) || !sameTxn(lines[at + 1], lines[at + 2])) {
      at++;
    }
    final List<String> moved = new ArrayList<>(List.of(lines));
    moved.add(at + 2, moved.remove(at)); // txn A: line at; B: at+1, at+2 -> B, A, B: B's lines apart
    final String split = String.join("\n", moved);
    final String initial = "w(0,0,900,999999)\nw(1,0,900,999999)\n" + valid;

    for (final String text : List.of(split, initial)) {
      // When
      final InOrderFeed feed = new InOrderFeed(SER_SI, 16);
      final History read = read(text, feed);
      final boolean held = feed.inOrderSoFar();
      final CheckResult r = Results.withoutTime(feed.finish(read));

      // Then
      final History plain = new TextHistoryReader().read(new StringReader(text));
      assertEquals(plain.transactions(), read.transactions());
      assertEquals(Results.withoutTime(WholeHistoryCheck.check(plain, SER_SI)), r);
      assertFalse(held);
    }
  }

  @Test
  void shouldGiveTheSameHistoryOrTheSameErrorWhenTextsAreEdited() throws Exception {
    // Given: a valid text, cut, edited and with lines repeated or swapped at random
    final String[] lines = text(generated().get(0)).split("\n");
    final String[] pieces = {"r(", "w(", ",", ")", "-1", "7", "x", "\n", " ", "#", "w(3,0,1,-1)\n", "r(1,5,0,12)\n"};
    final SplittableRandom random = new SplittableRandom(31);
    int failed = 0;
    int checked = 0;
    for (int round = 0; round < 400; round++) {
      final List<String> edited = new ArrayList<>(List.of(lines));
      for (int e = 1 + random.nextInt(4); e > 0; e--) {
        final int i = random.nextInt(edited.size());
        switch (random.nextInt(4)) {
          case 0 -> edited.set(i, edited.get(i).substring(0, random.nextInt(edited.get(i).length() + 1))
              + pieces[random.nextInt(pieces.length)]);
          case 1 -> edited.add(random.nextInt(edited.size() + 1), edited.get(i));
          case 2 -> edited.add(random.nextInt(edited.size() + 1), edited.remove(i));
          default -> edited.subList(i, Math.min(edited.size(), i + 1 + random.nextInt(30))).clear();
        }
      }
      final String text = String.join("\n", edited);
      // When
      Object viaFeed;
      final InOrderFeed feed = new InOrderFeed(SER_SI, 16);
      try {
        final History read = read(text, feed);
        viaFeed = List.of(read.transactions(), Results.withoutTime(feed.finish(read)));
      } catch (final InvalidHistoryException ex) {
        viaFeed = ex.getMessage();
      }

      // Then
      Object plain;
      try {
        final History h = new TextHistoryReader().read(new StringReader(text));
        plain = List.of(h.transactions(), Results.withoutTime(WholeHistoryCheck.check(h, SER_SI)));
        checked++;
      } catch (final InvalidHistoryException ex) {
        plain = ex.getMessage();
        failed++;
      }
      assertEquals(plain, viaFeed, "round " + round);
    }
    assertTrue(failed > 50 && checked > 50, failed + " failed, " + checked + " checked");
  }

  private static boolean sameTxn(final String a, final String b) {
    return a.substring(a.lastIndexOf(',')).equals(b.substring(b.lastIndexOf(',')));
  }

  private static History read(final String text, final InOrderFeed feed) throws Exception {
    return HistoryIO.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), HistoryFormat.TEXT,
        (ReadingSplit) feed);
  }

  private static List<History> generated() {
    final List<History> histories = new ArrayList<>();
    for (final SimulatedLevel level : SimulatedLevel.values()) {
      histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(1_000)
          .withKeys(30).withDistribution(new KeyDistribution.Zipf(0.99)).withLevel(level).withSeed(19)));
    }
    for (final InjectedKind kind : InjectedKind.values()) {
      histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(600)
          .withSeed(17).withInjections(List.of(new Injection(kind, 3)))));
    }
    histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(8)
        .withTransactions(12_000).withSessions(16).withKeys(300)));
    histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(7)
        .withTransactions(12_000).withSessions(64).withKeys(1_000)));
    return histories;
  }

  /** {@code h} as text: keys and sessions numbered by first use, aborted transactions with id -1. */
  private static String text(final History h) {
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
