package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.history.ReadingSplit;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.oracle.RandomHistories;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link InOrderFeed}, the whole-history check done while the history is read, gives exactly the
 * result of {@link WholeHistoryCheck#check(History, CheckOptions)}: fed while the bet holds
 * (generated files, by start time; the same sorted by end time), and after losing it (shuffled,
 * reversed, seqs out of order, no times).
 */
class InOrderFeedTest {
  private static final List<Set<Level>> LEVEL_SETS =
      List.of(Level.CLASSIC, EnumSet.of(Level.SER, Level.SI), EnumSet.of(Level.SER), EnumSet.of(Level.PC, Level.SER));

  @Test
  void shouldGiveTheWholeHistoryResultWhileFeedingTheEngineOnGeneratedHistories() {
    // Given: generated histories with every injectable anomaly, and skewed ones of every simulated level
    final List<History> histories = generated();

    int fed = 0;
    for (final History h : histories) {
      for (final List<Transaction> order : List.of(h.transactions(), byEnd(h))) {
        for (final Set<Level> levels : LEVEL_SETS) {
          final CheckOptions options = CheckOptions.defaults().withLevels(levels);
          // When
          final InOrderFeed feed = new InOrderFeed(options, 16);
          order.forEach(feed);
          final boolean held = feed.inOrderSoFar();
          final CheckResult pipelined = Results.withoutTime(feed.finish(historyOf(order)));

          // Then
          assertEquals(Results.withoutTime(WholeHistoryCheck.check(historyOf(order), options)), pipelined,
              levels + " on " + order.size() + " transactions");
          fed += held ? 1 : 0;
        }
      }
    }
    // Generated files are nearly in π: the bet holds on them, so the feed, not the fallback, was compared.
    assertEquals(histories.size() * 2 * LEVEL_SETS.size(), fed);
  }

  @Test
  void shouldGiveTheWholeHistoryResultWhenSplitOverTheReaderThreadAndThisOne() throws Exception {
    // Given: generated histories written as JSONL, in file order and by end time, and shuffled (the bet lost)
    final Random random = new Random(5);
    int fed = 0;
    for (final History h : generated()) {
      final List<Transaction> shuffled = new ArrayList<>(h.transactions());
      Collections.shuffle(shuffled, random);
      for (final List<Transaction> order : List.of(h.transactions(), byEnd(h), shuffled)) {
        final java.io.StringWriter text = new java.io.StringWriter();
        HistoryIO.write(historyOf(order), HistoryFormat.JSONL, text);
        final CheckOptions options = CheckOptions.defaults().withLevels(Level.CLASSIC);
        // When: the reader thread keeps the bet and the window, this one runs the engine
        final InOrderFeed feed = new InOrderFeed(options, 16);
        final History read = HistoryIO.read(new java.io.ByteArrayInputStream(
            text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)), HistoryFormat.JSONL, (ReadingSplit) feed);
        final boolean held = feed.inOrderSoFar();
        final CheckResult split = Results.withoutTime(feed.finish(read));

        // Then: the whole-history check's result on what was read, its keys looked up by name
        assertEquals(order.stream().map(Transaction::id).toList(), read.transactions().stream().map(Transaction::id).toList());
        assertTrue(read.transactions().stream().allMatch(t -> t.ops().isEmpty()
            || t.ops() instanceof io.isowatch.core.history.InternedOps));
        assertEquals(Results.withoutTime(WholeHistoryCheck.check(withPlainOps(read), options)), split);
        fed += held ? 1 : 0;
      }
    }
    assertEquals(2 * generated().size(), fed);
  }

  @Test
  void shouldGiveTheWholeHistoryResultWhenElleHistoriesAreSplitOverTheReaderThreadAndThisOne() throws Exception {
    // Given: generated histories written as Elle EDN and Elle JSON lines (invokes and completions by time)
    int fed = 0;
    int compared = 0;
    for (final History h : generated()) {
      for (final String text : List.of(io.isowatch.core.format.FormatTexts.edn(h),
          io.isowatch.core.format.FormatTexts.json(h))) {
        for (final Set<Level> levels : List.of(Level.CLASSIC, EnumSet.of(Level.SER, Level.SI))) {
          final CheckOptions options = CheckOptions.defaults().withLevels(levels);
          // When: the reader thread reads, pairs and orders, this one runs the engine
          final InOrderFeed feed = new InOrderFeed(options, 16);
          final History read = HistoryIO.read(new java.io.ByteArrayInputStream(
              text.getBytes(java.nio.charset.StandardCharsets.UTF_8)), HistoryFormat.ELLE, (ReadingSplit) feed);
          final boolean held = feed.inOrderSoFar();
          final CheckResult split = Results.withoutTime(feed.finish(read));

          // Then: the whole-history check's result on the history read once the input is read
          final History atEnd = new io.isowatch.core.format.ElleHistoryReader().read(new java.io.StringReader(text));
          assertEquals(atEnd.transactions(), read.transactions());
          assertEquals(Results.withoutTime(WholeHistoryCheck.check(atEnd, options)), split, levels.toString());
          fed += held ? 1 : 0;
          compared++;
        }
      }
    }
    // Written by time, the generated histories keep the bet: the feed, not the fallback, was compared.
    assertEquals(generated().size() * 4, compared);
    assertEquals(compared, fed);
  }

  @Test
  void shouldGiveTheWholeHistoryResultWhenAionHistoriesAreSplitOverTheReaderThreadAndThisOne() throws Exception {
    // Given: generated histories written as Aion, a transaction a line, in file order
    int fed = 0;
    for (final History h : generated()) {
      final String text = io.isowatch.core.format.FormatTexts.aion(h);
      final CheckOptions options = CheckOptions.defaults().withLevels(Level.CLASSIC);
      // When
      final InOrderFeed feed = new InOrderFeed(options, 16);
      final History read = HistoryIO.read(new java.io.ByteArrayInputStream(
          text.getBytes(java.nio.charset.StandardCharsets.UTF_8)), HistoryFormat.AION, (ReadingSplit) feed);
      final boolean held = feed.inOrderSoFar();
      final CheckResult split = Results.withoutTime(feed.finish(read));

      // Then
      final History atEnd = new io.isowatch.core.format.AionHistoryReader().read(new java.io.StringReader(text));
      assertEquals(atEnd.transactions(), read.transactions());
      assertEquals(Results.withoutTime(WholeHistoryCheck.check(atEnd, options)), split);
      fed += held ? 1 : 0;
    }
    assertEquals(generated().size(), fed);
  }

  @Test
  void shouldGiveTheWholeHistoryResultWhenTheBetIsLost() {
    // Given: the same histories shuffled, reversed, and with seqs listed out of order in a session
    final Random random = new Random(11);
    int lost = 0;
    for (final History h : generated()) {
      final List<Transaction> shuffled = new ArrayList<>(h.transactions());
      Collections.shuffle(shuffled, random);
      final List<Transaction> reversed = new ArrayList<>(h.transactions());
      Collections.reverse(reversed);
      for (final List<Transaction> order : List.of(shuffled, reversed, seqsSwapped(h))) {
        final CheckOptions options = CheckOptions.defaults().withLevels(Level.CLASSIC);
        // When
        final InOrderFeed feed = new InOrderFeed(options, 16);
        order.forEach(feed);
        lost += feed.inOrderSoFar() ? 0 : 1;
        final CheckResult pipelined = Results.withoutTime(feed.finish(historyOf(order)));

        // Then
        assertEquals(Results.withoutTime(WholeHistoryCheck.check(historyOf(order), options)), pipelined);
      }
    }
    assertEquals(3 * generated().size(), lost);
  }

  @Test
  void shouldGiveTheWholeHistoryResultWhenAValueIsWrittenTwice() {
    // Given: a valid generated history where a later write repeats the value of an earlier one of its key
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(800).withKeys(20)
        .withSeed(23));
    final List<Transaction> txns = new ArrayList<>(h.transactions());
    final java.util.Map<String, Long> firstWrite = new java.util.HashMap<>();
    boolean repeated = false;
    for (int i = 0; i < txns.size() && !repeated; i++) {
      final Transaction t = txns.get(i);
      for (int j = 0; j < t.ops().size() && !repeated; j++) {
        final io.isowatch.core.history.Op op = t.ops().get(j);
        if (op.type() != io.isowatch.core.history.OpType.WRITE) {
          continue;
        }
        final Long earlier = firstWrite.putIfAbsent(op.key(), op.value());
        if (earlier != null) {
          final List<io.isowatch.core.history.Op> ops = new ArrayList<>(t.ops());
          ops.set(j, io.isowatch.core.history.Op.write(op.key(), earlier));
          txns.set(i, new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), ops, t.tenant(),
              t.level(), t.line()));
          repeated = true;
        }
      }
    }
    assertTrue(repeated);
    final CheckOptions options = CheckOptions.defaults().withLevels(Level.CLASSIC);

    // When
    final InOrderFeed feed = new InOrderFeed(options, 0);
    txns.forEach(feed);
    final boolean held = feed.inOrderSoFar();
    final CheckResult r = feed.finish(historyOf(txns));

    // Then: fed, then checked again declaring the repeat, as the whole-history check does
    assertTrue(held);
    assertEquals(Results.withoutTime(WholeHistoryCheck.check(historyOf(txns), options)), Results.withoutTime(r));
  }

  @Test
  void shouldGiveTheWholeHistoryResultOnRandomSmallHistories() {
    // Given: random small histories (cycles of every kind; times or none)
    for (long seed = 0; seed < 800; seed++) {
      final History h = RandomHistories.generate(seed).history();
      final CheckOptions options = CheckOptions.defaults().withLevels(Level.CLASSIC);
      // When
      final InOrderFeed feed = new InOrderFeed(options, 0);
      h.transactions().forEach(feed);

      // Then
      assertEquals(Results.withoutTime(WholeHistoryCheck.check(h, options)), Results.withoutTime(feed.finish(h)),
          "seed " + seed);
    }
  }

  @Test
  void shouldCheckTheWholeHistoryWhenGivenNothing() {
    // Given: a history read by a reader that feeds nothing (a format other than JSONL)
    final History h = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(300).withSeed(2));
    final InOrderFeed feed = new InOrderFeed(CheckOptions.defaults(), 0);

    // When
    final CheckResult r = feed.finish(h);

    // Then
    assertEquals(Results.withoutTime(WholeHistoryCheck.check(h, CheckOptions.defaults())), Results.withoutTime(r));
    assertFalse(r.verdicts().isEmpty());
  }

  private static List<History> generated() {
    final List<History> histories = new ArrayList<>();
    for (final InjectedKind kind : InjectedKind.values()) {
      histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(600).withSeed(17)
          .withInjections(List.of(new Injection(kind, 3)))));
    }
    for (final SimulatedLevel level : SimulatedLevel.values()) {
      histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(1_000).withKeys(30)
          .withDistribution(new KeyDistribution.Zipf(0.99)).withLevel(level).withSeed(19)));
    }
    return histories;
  }

  /** The history's transactions by end time (file order among equal ends): as a recorder writes them. */
  private static List<Transaction> byEnd(final History h) {
    final List<Transaction> out = new ArrayList<>(h.transactions());
    out.sort(Comparator.comparingLong(TxnIndex::timeKey));
    return out;
  }

  /** The history with the first two transactions of the first session whose both have a seq swapped in the list. */
  private static List<Transaction> seqsSwapped(final History h) {
    final List<Transaction> out = new ArrayList<>(h.transactions());
    final String session = out.get(0).session();
    int first = -1;
    for (int i = 0; i < out.size(); i++) {
      if (out.get(i).session().equals(session) && out.get(i).hasSeq()) {
        if (first < 0) {
          first = i;
        } else {
          Collections.swap(out, first, i);
          return out;
        }
      }
    }
    throw new IllegalStateException("no session with two seqs");
  }

  /** The history with its ops in plain lists, without the reader's key numbers. */
  private static History withPlainOps(final History h) {
    final History.Builder b = History.builder();
    for (final Transaction t : h.transactions()) {
      final List<io.isowatch.core.history.Op> plain = List.copyOf(t.ops());
      assertFalse(plain instanceof io.isowatch.core.history.InternedOps);
      b.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), plain, t.tenant(), t.level(),
          t.line()));
    }
    return b.build();
  }

  private static History historyOf(final List<Transaction> txns) {
    final History.Builder b = History.builder();
    txns.forEach(b::add);
    return b.build();
  }
}
