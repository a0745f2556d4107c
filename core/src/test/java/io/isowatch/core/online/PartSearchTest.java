package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.gen.RegisterHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The bounded search of a level the appended order's witness loses on a long stream
 * ({@code OnlineChecker.searchPart}, docs/streaming-design.md "A bounded search"): the part searched
 * and what a violation proved on it gives.
 */
class PartSearchTest {
  private static Transaction txn(final String id, final String session, final long at, final TxnStatus status,
      final Op... ops) {
    return new Transaction(id, session, Transaction.NO_SEQ, status, at, at + 1, List.of(ops), null, null, 0);
  }

  private static Transaction txn(final String id, final String session, final long at, final Op... ops) {
    return txn(id, session, at, TxnStatus.COMMITTED, ops);
  }

  @Test
  void shouldCutTheWritersOutsideThePartDownToTheWritesItRead() {
    // Given: T1 writes x and y, T2 (same session) writes z; the part is the last two: T3 reads x=1 and T4 reads z=3
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(0));
    c.accept(txn("T1", "s1", 10, Op.write("x", 1), Op.write("y", 2)));
    c.accept(txn("T2", "s1", 20, Op.read("y", 2L), Op.write("z", 3)));
    c.accept(txn("T3", "s2", 30, Op.read("x", 1L), Op.write("x", 4)));
    c.accept(txn("T4", "s2", 40, Op.read("z", 3L), Op.read("q", 0L)));
    c.flush();

    // When
    final Map<String, Transaction> real = new HashMap<>();
    final History part = ProcessedHistory.part(c.stateForTests(), 2, 0L, real);

    // Then: T1 stands in with its write of x only, T2 with z only, sessions in rank order, T3 and T4 whole
    assertNotNull(part);
    assertEquals(List.of("T1", "T2", "T3", "T4"), part.transactions().stream().map(Transaction::id).toList());
    assertEquals(List.of(Op.write("x", 1)), part.transactions().get(0).ops());
    assertEquals(List.of(Op.write("z", 3)), part.transactions().get(1).ops());
    assertEquals(List.of(Op.read("x", 1L), Op.write("x", 4)), part.transactions().get(2).ops());
    assertEquals(2, real.get("T1").ops().size());
  }

  @Test
  void shouldBuildNoPartWhenAReadOfItHasNoCommittedWriter() {
    // Given: T2 reads a value only an aborted transaction wrote
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults(), OnlineOptions.streaming(0));
    c.accept(txn("T1", "s1", 10, TxnStatus.ABORTED, Op.write("x", 1)));
    c.accept(txn("T2", "s2", 20, Op.read("x", 1L)));
    c.flush();

    // Then
    assertNull(ProcessedHistory.part(c.stateForTests(), 1, 0L, new HashMap<>()));
  }

  /**
   * A serializable database's stream of {@code correct} transactions, then an SI database's of
   * {@code late} on keys and sessions of its own: the appended order loses SER late in the stream.
   */
  static History lateSkew(final int correct, final int late, final long seed) throws IOException {
    final List<Transaction> out = new ArrayList<>();
    RegisterHistoryGenerator.generate(new RegisterHistoryGenerator.Config(seed, correct, 20, Math.max(10, correct / 10),
        4, 0.5, SimulatedLevel.SER), out::add);
    final long shift = out.stream().mapToLong(Transaction::end).max().orElse(0) + 1_000;
    final List<Transaction> more = new ArrayList<>();
    RegisterHistoryGenerator.generate(new RegisterHistoryGenerator.Config(seed + 1, late, 20, 200, 4, 0.5,
        SimulatedLevel.SI), more::add);
    for (final Transaction t : more) {
      final List<Op> ops = new ArrayList<>();
      for (final Op o : t.ops()) {
        ops.add(o.isWrite() ? Op.write("b" + o.key(), o.value()) : Op.read("b" + o.key(), o.value()));
      }
      out.add(new Transaction("b" + t.id(), "b" + t.session(), t.seq(), t.status(), t.start() + shift,
          t.end() + shift, ops, t.tenant(), t.level(), t.line()));
    }
    return new History(out);
  }

  @Test
  void shouldSearchOnlyAPartWhenTheWitnessLosesALevelPastTheThreshold() throws IOException {
    // Given: 3,000 correct transactions, then 6,000 of an SI database whose write skews make the appended
    // order lose SSER at 4,600 and SER at 4,740, past PART_SEARCH_ABOVE
    final History h = lateSkew(3_000, 6_000, 3);
    // A budget no loaded machine runs out of: the flushed result is compared with check's
    final CheckOptions options = CheckOptions.defaults().withSolverBudget(java.time.Duration.ofMinutes(10));
    final OnlineChecker c = new OnlineChecker(options, OnlineOptions.streaming(1));

    // When: a result every 10 transactions, as a busy tenant's punctuation asks
    int i = 0;
    for (final Transaction t : h.transactions()) {
      c.accept(t);
      if (++i % 10 == 0) {
        c.result();
      }
    }

    // Then: the losses were searched on parts, never on the whole history outside the budget
    assertTrue(c.partSearches() >= 1, "part searches: " + c.partSearches());
    assertEquals(0, c.witnessSearches(), "whole searches run because the witness lost a level past 4,000");
    // and the flushed result is the whole check's
    c.flush();
    final CheckResult flushed = c.result();
    assertEquals(OnlineChecker.check(h, options).verdicts(), flushed.verdicts());
  }

  @Test
  void shouldTryThePartSearchAgainWhenItProvedNothingAtTheLoss() throws IOException {
    // Given: an SI database's stream on 400 keys whose appended order loses SER at about 2,240, where
    // SER still holds (a part search then proves nothing); the write skews that violate it come later.
    // Part search from 1,000 transactions on, retried as soon as 500 new ones arrived (any time earned).
    final List<Transaction> txns = new ArrayList<>();
    RegisterHistoryGenerator.generate(new RegisterHistoryGenerator.Config(3, 5_000, 20, 400, 4, 0.5,
        SimulatedLevel.SI), txns::add);
    final OnlineChecker c = new OnlineChecker(CheckOptions.defaults().withSolverBudget(java.time.Duration.ofMinutes(10)),
        OnlineOptions.streaming(1));
    c.partSearch(1_000, 1_000, 4_000);
    c.partSearchRate(Long.MAX_VALUE);

    // When
    int i = 0;
    Integer violatedAt = null;
    long partSearchesAtFirst = -1;
    for (final Transaction t : txns) {
      c.accept(t);
      if (++i % 10 == 0) {
        final CheckResult r = c.result();
        if (partSearchesAtFirst < 0 && c.partSearches() > 0) {
          partSearchesAtFirst = c.partSearches();
        }
        if (violatedAt == null && r.verdicts().get(Level.SER) == Verdict.VIOLATED) {
          violatedAt = i;
        }
      }
    }

    // Then: the first part search proved nothing, a later one (no new loss of the witness) proved SER violated
    assertTrue(partSearchesAtFirst > 0, "no part search");
    assertEquals(1, c.partProofs(), "part proofs");
    assertTrue(c.partSearches() > partSearchesAtFirst, "the part search was not tried again");
    assertNotNull(violatedAt, "SER never VIOLATED before the flush");
  }
}
