package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.RegisterHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.schemas.Level;
import io.isowatch.schemas.LevelVerdict;
import io.isowatch.schemas.TenantVerdict;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.Verdict;
import io.isowatch.streams.testkit.CheckerDriver;
import io.isowatch.streams.testkit.EmbeddedRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The verdict publication of a tenant with blind writes on a long stream (docs/streaming.md,
 * "Blind writes"): the engine rations its search of version orders (OnlineChecker#result); a
 * verdict it left UNKNOWN because the search was deferred is published again at the next
 * punctuation, where, with no new input, the search runs.
 */
class BlindSearchPublicationTest {
  @RegisterExtension static final EmbeddedRegistry REGISTRY = new EmbeddedRegistry();
  private static final String TENANT = "blind";

  @TempDir Path stateDir;

  @Test
  void shouldPublishTheSearchedVerdictAtTheNextPunctuationWhenTheSearchWasDeferred() throws Exception {
    // Given: 2,300 transactions of a serializable rw-register database with blind writes; a
    // verdict after 2,200 (searched: the first search), then 100 more (fewer than the budget waits for)
    final List<Transaction> out = new ArrayList<>();
    RegisterHistoryGenerator.generate(new RegisterHistoryGenerator.Config(7, 2_300, 20, 230, 4, 0.5,
        SimulatedLevel.SER), out::add);
    // One early writer whose write is read later made indeterminate: the appended version order's
    // witness does not model that (it stops), so the search decides SER as before and is rationed.
    indeterminateReadWriter(out);
    final List<TransactionEvent> events = CheckerDriver.events(TENANT, new History(out));
    try (CheckerDriver checker = new CheckerDriver(REGISTRY.url(), stateDir)) {
      checker.pipe(events.subList(0, 2_200));
      checker.publishVerdicts();
      assertEquals(Verdict.SATISFIED, ser(last(checker.verdicts())).getVerdict());
      checker.pipe(events.subList(2_200, 2_300));
      checker.publishVerdicts();
      final List<TenantVerdict> deferred = checker.verdicts(); // read once: the output topic is consumed
      assertEquals(1, deferred.size());
      assertEquals(Verdict.UNKNOWN, ser(last(deferred)).getVerdict());
      assertTrue(ser(last(deferred)).getReason().contains("deferred"), ser(last(deferred)).getReason());

      // When: the next punctuation, no input in between
      checker.publishVerdicts();

      // Then: a verdict is published again, the search decided it, over the same transactions
      final List<TenantVerdict> again = checker.verdicts();
      assertEquals(1, again.size(), "no verdict published at the punctuation after a deferred search");
      assertEquals(Verdict.SATISFIED, ser(last(again)).getVerdict(), () -> ser(last(again)).getReason());
      assertEquals(last(deferred).getCounts().getTransactionsChecked(), last(again).getCounts().getTransactionsChecked());
    }
  }

  private static TenantVerdict last(final List<TenantVerdict> verdicts) {
    return verdicts.get(verdicts.size() - 1);
  }

  private static LevelVerdict ser(final TenantVerdict v) {
    return v.getLevels().stream().filter(l -> l.getLevel() == Level.SER).findFirst().orElseThrow();
  }

  /** Makes the first committed transaction whose last write of a key some later transaction reads indeterminate. */
  private static void indeterminateReadWriter(final List<Transaction> txns) {
    for (int i = 0; i < txns.size(); i++) {
      final Transaction w = txns.get(i);
      for (final io.isowatch.core.history.Op op : w.ops()) {
        if (!op.isWrite() || w.status() != io.isowatch.core.history.TxnStatus.COMMITTED) {
          continue;
        }
        for (int j = i + 1; j < txns.size(); j++) {
          if (txns.get(j).ops().stream().anyMatch(r -> r.isRead() && r.key().equals(op.key())
              && java.util.Objects.equals(r.value(), op.value()))) {
            txns.set(i, new Transaction(w.id(), w.session(), w.seq(), io.isowatch.core.history.TxnStatus.UNKNOWN,
                w.start(), w.end(), w.ops(), w.tenant(), w.level(), w.line()));
            return;
          }
        }
      }
    }
    throw new IllegalStateException("no write is read");
  }
}
