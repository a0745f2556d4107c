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
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.oracle.RandomHistories;
import io.isowatch.core.report.JsonReport;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The check of {@code isowatch check} on a JSONL file ({@link InOrderFeed} fed by the reader
 * thread) prints the same JSON document, byte for byte, with its level graphs on a {@link
 * GraphThread} as on the engine's thread: on generated histories of every kind (valid at each
 * simulated level, each injectable anomaly, aborted, unknown outcomes, blind writes, no times) and
 * on small random ones with cycles of every kind. Only the stats' seconds are zeroed.
 */
class GraphThreadTest {
  private static final List<Set<Level>> LEVEL_SETS = List.of(Level.CLASSIC, EnumSet.allOf(Level.class));

  @Test
  void shouldPrintTheSameJsonWithTheGraphsOnTheirOwnThreadOnGeneratedHistoriesOfEveryKind() throws Exception {
    // Given
    final List<History> histories = generated();
    int acyclic = 0;
    int refused = 0;
    for (final History h : histories) {
      for (final Set<Level> levels : LEVEL_SETS) {
        // When
        final Run split = check(h, levels, true);
        final Run single = check(h, levels, false);

        // Then
        assertEquals(single.json(), split.json(), levels + " on " + h.size() + " transactions");
        assertFalse(single.started());
        // Not started: the file lost the in-order bet (no times), and the whole check ran on one thread.
        acyclic += split.started() && !split.refused() ? 1 : 0;
        refused += split.refused() ? 1 : 0;
      }
    }
    // Both ways through: the graph thread's graphs kept to the end, and a refusal checked again on one thread.
    assertTrue(acyclic >= histories.size() / 2, "acyclic runs " + acyclic);
    assertTrue(refused >= InjectedKind.values().length, "refused runs " + refused);
  }

  @Test
  void shouldPrintTheSameJsonWithTheGraphsOnTheirOwnThreadOnRandomSmallHistories() throws Exception {
    // Given: small random histories, cycles of every kind, blind writes, times or none
    int compared = 0;
    for (long seed = 0; seed < 300; seed++) {
      for (final History h : List.of(RandomHistories.generate(seed).history(),
          RandomHistories.generateWithBlindWrites(seed).history())) {
        // When
        final Run split = check(h, Level.CLASSIC, true);
        final Run single = check(h, Level.CLASSIC, false);

        // Then
        assertEquals(single.json(), split.json(), "seed " + seed);
        compared += split.started() ? 1 : 0;
      }
    }
    assertTrue(compared > 100, "runs with a graph thread " + compared);
  }

  private record Run(String json, boolean started, boolean refused) {}

  /** {@code h} written as JSONL, read and checked as {@code isowatch check --json} does. */
  private static Run check(final History h, final Set<Level> levels, final boolean splitGraphs) throws Exception {
    final StringWriter text = new StringWriter();
    HistoryIO.write(h, HistoryFormat.JSONL, text);
    final CheckOptions options = CheckOptions.defaults().withLevels(levels);
    try (InOrderFeed feed = new InOrderFeed(options, h.size(), splitGraphs)) {
      final History read = HistoryIO.read(new ByteArrayInputStream(text.toString().getBytes(StandardCharsets.UTF_8)),
          HistoryFormat.JSONL, (ReadingSplit) feed);
      final CheckResult r = Results.withoutTime(feed.finish(read));
      return new Run(JsonReport.toJson(r), feed.graphThreadStarted(), feed.graphThreadRefused());
    }
  }

  private static List<History> generated() {
    final List<History> histories = new ArrayList<>();
    for (final SimulatedLevel level : SimulatedLevel.values()) {
      histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(2_000).withKeys(30)
          .withDistribution(new KeyDistribution.Zipf(0.99)).withLevel(level).withSeed(31)));
    }
    for (final InjectedKind kind : InjectedKind.values()) {
      histories.add(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(1_500)
          .withSeed(37).withInjections(List.of(new Injection(kind, 3)))));
    }
    final History valid = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(3_000)
        .withKeys(200).withSeed(41));
    histories.add(valid);
    histories.add(changed(valid, 37, t -> withStatus(t, TxnStatus.ABORTED)));
    histories.add(changed(valid, 41, t -> withStatus(t, TxnStatus.UNKNOWN)));
    histories.add(changed(valid, 29, GraphThreadTest::blind));
    histories.add(changed(valid, 1, t -> new Transaction(t.id(), t.session(), t.seq(), t.status(), Transaction.NO_TIME,
        Transaction.NO_TIME, t.ops(), t.tenant(), t.level(), t.line())));
    return histories;
  }

  /** Every {@code every}-th transaction changed by {@code change}. */
  private static History changed(final History h, final int every, final Function<Transaction, Transaction> change) {
    final List<Transaction> txns = new ArrayList<>(h.transactions());
    for (int i = every - 1; i < txns.size(); i += every) {
      txns.set(i, change.apply(txns.get(i)));
    }
    return new History(txns);
  }

  private static Transaction withStatus(final Transaction t, final TxnStatus status) {
    return new Transaction(t.id(), t.session(), t.seq(), status, t.start(), t.end(), t.ops(), t.tenant(), t.level(),
        t.line());
  }

  /** Its writes without its reads: every write a blind one. */
  private static Transaction blind(final Transaction t) {
    final List<Op> writes = t.ops().stream().filter(Op::isWrite).toList();
    return writes.isEmpty() ? t : new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start(), t.end(), writes,
        t.tenant(), t.level(), t.line());
  }
}
