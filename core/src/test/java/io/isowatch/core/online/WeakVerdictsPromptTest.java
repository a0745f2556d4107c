package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.testkit.HistoryDsl;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The online engine publishes a weak level's violation with the transaction that completes it,
 * however long the history before it (issue 12 item 7): the incremental weak check has no
 * re-check period to wait for. Before it, the whole-history check was redone only once an eighth
 * more transactions had been released, and the verdict change came that much later.
 */
class WeakVerdictsPromptTest {
  private static final CheckOptions WEAK = CheckOptions.defaults()
      .withLevels(EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.CC, Level.PC, Level.RR));

  @Test
  void shouldPublishAFracturedReadWithTheTransactionThatCompletesIt() {
    // Given: 3,000 valid transactions processed as they come (grace 0)
    final List<Transaction> valid = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withSeed(12)
        .withTransactions(3_000).withSessions(5).withKeys(40)).transactions();
    final OnlineChecker engine = new OnlineChecker(WEAK, OnlineOptions.streaming(0));
    valid.forEach(engine::accept);
    assertEquals(Verdict.SATISFIED, engine.result().verdicts().get(Level.RA));
    final List<Transaction> fractured = HistoryDsl.history("""
        F1 f1 r(fx,0) w(fx,1) r(fy,0) w(fy,1) @1..2
        F2 f2 r(fx,0) r(fy,1) @3..4
        """).transactions();
    engine.accept(fractured.get(0));

    // When: the reader that sees F1's write of fy and not its write of fx
    final List<OnlineEvent> events = engine.accept(fractured.get(1));

    // Then: RA (and CC, PC) VIOLATED in that very call; RC still SATISFIED
    for (final Level l : List.of(Level.RA, Level.CC, Level.PC)) {
      assertTrue(events.contains(new OnlineEvent.VerdictChanged(l, Verdict.SATISFIED, Verdict.VIOLATED, null)),
          l + " not published with F2: " + events);
    }
    assertEquals(Verdict.SATISFIED, engine.result().verdicts().get(Level.RC));
  }
}
