package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.ReadingSplit;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.RandomHistories;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link TimelessWindow} gives a history without times in exactly {@link TimelessOrder}'s order of
 * the whole history, or loses its bet; and {@link InOrderFeed}, feeding the engine in that order
 * while the history is read, gives exactly the result of {@link WholeHistoryCheck}.
 */
class TimelessWindowTest {
  @Test
  void shouldGiveTimelessOrdersOrderOfTheWholeHistoryWhileReading() {
    // Given: generated histories without times (every injectable anomaly, every simulated level,
    // and long ones of many sessions, so that transactions are given long before the end)
    int held = 0;
    final List<History> histories = generated();
    final List<Boolean> keptEach = new ArrayList<>();
    for (final History h : histories) {
      final List<Transaction> txns = h.transactions();
      // When
      final List<String> given = new ArrayList<>();
      final TimelessWindow window = new TimelessWindow();
      boolean kept = true;
      for (final Transaction t : txns) {
        kept &= window.read(t, (x, rank) -> given.add(x.id()));
      }
      kept = kept && window.end(txns, (x, rank) -> given.add(x.id()));

      // Then: while the bet holds, the order is the whole history's
      if (kept) {
        assertEquals(wholeOrder(txns), given);
        held++;
      }
      keptEach.add(kept);
    }
    // The long valid histories kept the bet, and most others (they may lose it: values written
    // twice, two read-modify-writers of a value, cycles of arcs).
    assertTrue(keptEach.get(histories.size() - 1) && keptEach.get(histories.size() - 2), keptEach.toString());
    assertTrue(held > histories.size() / 2, held + " kept of " + histories.size() + ": " + keptEach);
  }

  @Test
  void shouldGiveTransactionsBeforeTheEndOfALongHistory() {
    // Given: a valid history of 64 sessions without times, 20,000 transactions
    final List<Transaction> txns = withoutTimes(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults()
        .withSeed(5).withTransactions(20_000).withSessions(64).withKeys(2_000))).transactions();

    // When
    final TimelessWindow window = new TimelessWindow();
    final int[] givenWhileReading = new int[1];
    for (final Transaction t : txns) {
      assertTrue(window.read(t, (x, rank) -> givenWhileReading[0]++));
    }
    final List<String> atEnd = new ArrayList<>();
    assertTrue(window.end(txns, (x, rank) -> atEnd.add(x.id())));

    // Then: all but the last few thousand were given while reading
    assertTrue(givenWhileReading[0] > txns.size() - 3 * TimelessWindow.AGE,
        givenWhileReading[0] + " of " + txns.size() + " given while reading");
  }

  @Test
  void shouldGiveTimelessOrdersOrderOrLoseOnRandomAndShuffledHistories() {
    // Given: random small histories without times, and generated ones shuffled and reversed
    final List<List<Transaction>> inputs = new ArrayList<>();
    for (long seed = 0; seed < 600; seed++) {
      inputs.add(withoutTimes(RandomHistories.generate(seed).history()).transactions());
    }
    final Random random = new Random(3);
    for (final History h : generated()) {
      final List<Transaction> shuffled = new ArrayList<>(h.transactions());
      Collections.shuffle(shuffled, random);
      inputs.add(shuffled);
      final List<Transaction> reversed = new ArrayList<>(h.transactions());
      Collections.reverse(reversed);
      inputs.add(reversed);
    }
    int held = 0;
    for (final List<Transaction> txns : inputs) {
      // When
      final List<String> given = new ArrayList<>();
      final TimelessWindow window = new TimelessWindow();
      boolean kept = true;
      for (final Transaction t : txns) {
        kept &= window.read(t, (x, rank) -> given.add(x.id()));
      }
      kept = kept && window.end(txns, (x, rank) -> given.add(x.id()));

      // Then
      if (kept) {
        assertEquals(wholeOrder(txns), given, () -> txns.stream().map(t -> t.id() + "@" + t.session() + "#" + t.seq() + " " + t.status() + t.ops()).toList().toString());
        held++;
      }
    }
    assertTrue(held > inputs.size() / 2, held + " of " + inputs.size());
  }

  @Test
  void shouldGiveTheWholeHistoryResultWhileFeedingTheEngineWithoutTimes() {
    // Given: generated histories without times, every kind
    int fed = 0;
    for (final History h : generated()) {
      for (final Set<Level> levels : List.of(EnumSet.of(Level.SER, Level.SI), Level.CLASSIC,
          EnumSet.of(Level.RC, Level.RA, Level.CC, Level.SER))) {
        final CheckOptions options = CheckOptions.defaults().withLevels(levels).withMaxAnomalies(10_000);
        // When
        final InOrderFeed feed = new InOrderFeed(options, 16);
        h.transactions().forEach(feed);
        final boolean held = feed.inOrderSoFar();
        final CheckResult pipelined = Results.withoutTime(feed.finish(h));

        // Then
        assertEquals(Results.withoutTime(WholeHistoryCheck.check(h, options)), pipelined, levels.toString());
        fed += held ? 1 : 0;
      }
    }
    assertTrue(fed >= 3 * (SimulatedLevel.values().length + 2), fed + " fed");
  }

  @Test
  void shouldGiveTheWholeHistoryResultWhenReadAsJsonlWithoutTimes() throws Exception {
    // Given: generated histories without times written as JSONL
    int fed = 0;
    for (final History h : generated()) {
      final StringWriter text = new StringWriter();
      HistoryIO.write(h, HistoryFormat.JSONL, text);
      final CheckOptions options = CheckOptions.defaults().withLevels(EnumSet.of(Level.SER, Level.SI));
      // When: the reader thread reads and orders, this one runs the engine
      final InOrderFeed feed = new InOrderFeed(options, 16);
      final History read = HistoryIO.read(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)),
          HistoryFormat.JSONL, (ReadingSplit) feed);
      final boolean held = feed.inOrderSoFar();
      final CheckResult split = Results.withoutTime(feed.finish(read));

      // Then
      assertEquals(Results.withoutTime(WholeHistoryCheck.check(read, options)), split);
      fed += held ? 1 : 0;
    }
    assertTrue(fed >= SimulatedLevel.values().length + 2, fed + " fed");
  }

  @Test
  void shouldCheckTheWholeHistoryAfterReadingWhenSwitchedOff() {
    // Given: a valid history without times, and the switch off
    final History h = generated().get(generated().size() - 1);
    System.setProperty("isowatch.check.timeless-while-reading", "false");
    try {
      // When
      final InOrderFeed feed = new InOrderFeed(CheckOptions.defaults(), 16);
      h.transactions().forEach(feed);

      // Then: the bet is lost at the first transaction, and the result is the whole check's
      assertFalse(feed.inOrderSoFar());
      assertEquals(Results.withoutTime(WholeHistoryCheck.check(h, CheckOptions.defaults())),
          Results.withoutTime(feed.finish(h)));
    } finally {
      System.clearProperty("isowatch.check.timeless-while-reading");
    }
  }

  @Test
  void shouldLoseTheBetWhenAValueIsWrittenTwiceOrReadModifiedTwice() {
    // Given: a valid history without times where one write repeats an earlier value of its key
    final List<Transaction> txns = new ArrayList<>(generated().get(generated().size() - 1).transactions());
    final Map<String, Long> firstWrite = new HashMap<>();
    boolean repeated = false;
    for (int i = 0; i < txns.size() && !repeated; i++) {
      final Transaction t = txns.get(i);
      for (int j = 0; j < t.ops().size() && !repeated; j++) {
        final Op op = t.ops().get(j);
        if (!op.isWrite()) {
          continue;
        }
        final Long earlier = firstWrite.putIfAbsent(op.key(), op.value());
        if (earlier != null) {
          final List<Op> ops = new ArrayList<>(t.ops());
          ops.set(j, Op.write(op.key(), earlier));
          txns.set(i, new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), ops, t.tenant(),
              t.level(), t.line()));
          repeated = true;
        }
      }
    }
    assertTrue(repeated);

    // When
    final TimelessWindow window = new TimelessWindow();
    boolean kept = true;
    for (final Transaction t : txns) {
      kept &= window.read(t, (x, rank) -> { });
    }

    // Then
    assertFalse(kept);
    final InOrderFeed feed = new InOrderFeed(CheckOptions.defaults(), 16);
    txns.forEach(feed);
    assertEquals(Results.withoutTime(WholeHistoryCheck.check(new History(txns), CheckOptions.defaults())),
        Results.withoutTime(feed.finish(new History(txns))));
  }

  /** The order of the whole-history check: π, then {@link TimelessOrder} over all of them. */
  private static List<String> wholeOrder(final List<Transaction> txns) {
    final long[] rank = WholeHistoryCheck.ranks(txns);
    final int[] pi = WholeHistoryCheck.piOrder(txns, rank);
    final TxnIndex index = new TxnIndex(txns.size());
    final Map<String, Integer> sessions = new HashMap<>();
    final int[] slots = new int[pi.length];
    for (int k = 0; k < pi.length; k++) {
      final Transaction t = txns.get(pi[k]);
      slots[k] = index.add(t, rank[pi[k]], sessions.computeIfAbsent(t.session(), s -> sessions.size()), false);
    }
    final List<String> out = new ArrayList<>();
    for (final int slot : TimelessOrder.order(slots, index)) {
      out.add(index.txn(slot).id());
    }
    return out;
  }

  private static List<History> generated() {
    final List<History> histories = new ArrayList<>();
    for (final InjectedKind kind : InjectedKind.values()) {
      histories.add(withoutTimes(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(600)
          .withSeed(17).withInjections(List.of(new Injection(kind, 3))))));
    }
    for (final SimulatedLevel level : SimulatedLevel.values()) {
      histories.add(withoutTimes(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(1_000)
          .withKeys(30).withDistribution(new KeyDistribution.Zipf(0.99)).withLevel(level).withSeed(19))));
    }
    histories.add(withoutTimes(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(7)
        .withTransactions(12_000).withSessions(64).withKeys(1_000))));
    histories.add(withoutTimes(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(8)
        .withTransactions(12_000).withSessions(16).withKeys(300))));
    return histories;
  }

  private static History withoutTimes(final History h) {
    return new History(h.transactions().stream().map(t -> new Transaction(t.id(), t.session(), t.seq(), t.status(),
        Transaction.NO_TIME, Transaction.NO_TIME, t.ops(), t.tenant(), t.level(), t.line())).toList());
  }
}
