package io.isowatch.agent.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.target.Target;
import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetException.Failure;
import io.isowatch.agent.target.TargetSession;
import io.isowatch.agent.target.TxnContext;
import io.isowatch.agent.target.faulty.FaultSpec;
import io.isowatch.agent.target.faulty.FaultyTarget;
import io.isowatch.agent.testkit.AgentRuns;
import io.isowatch.agent.workload.KeySpace;
import io.isowatch.agent.workload.TxnPlan;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class AgentRunTest {
  @Test
  void shouldSplitTheTotalNumberOfTransactionsEvenlyBetweenSessions() throws Exception {
    // Given
    final AgentConfig config = AgentConfig.of(5, 1234, AgentRuns.workload(20, "zipf:0.9", "paper", 3));

    // When
    final AgentRuns.Outcome o = AgentRuns.run(new FaultyTarget(FaultSpec.none(), 3), config);

    // Then
    assertEquals(1234, o.history().size());
    assertEquals(1234, o.summary().total());
    assertEquals(1234, o.summary().committed());
    assertEquals(Map.of("s0", 247L, "s1", 247L, "s2", 247L, "s3", 247L, "s4", 246L),
        o.history().transactions().stream().collect(Collectors.groupingBy(Transaction::session, Collectors.counting())));
  }

  @Test
  void shouldNumberEachSessionContiguouslyWithIncreasingTimes() throws Exception {
    // Given
    final AgentConfig config = AgentConfig.of(4, 2000, AgentRuns.workload(10, "uniform", "paper", 4));

    // When
    final AgentRuns.Outcome o = AgentRuns.run(new FaultyTarget(FaultSpec.none(), 4), config);

    // Then
    final Map<String, List<Transaction>> bySession =
        o.history().transactions().stream().collect(Collectors.groupingBy(Transaction::session));
    final Set<String> ids = new HashSet<>();
    for (final List<Transaction> txns : bySession.values()) {
      for (int i = 0; i < txns.size(); i++) {
        final Transaction t = txns.get(i);
        assertEquals(i, t.seq());
        assertEquals(t.session() + "-" + i, t.id());
        assertTrue(t.start() <= t.end());
        if (i > 0) {
          assertTrue(txns.get(i - 1).end() <= t.start(), "session order must match real time: " + t.id());
        }
        assertTrue(ids.add(t.id()));
      }
    }
  }

  @Test
  void shouldInterleaveSnapshotTransactionsWithoutSpendingTheBudget() throws Exception {
    // Given
    final AgentConfig config = AgentConfig.of(4, 1000, AgentRuns.workload(25, "uniform", "paper", 5))
        .withSnapshotEveryTxns(100L);

    // When
    final AgentRuns.Outcome o = AgentRuns.run(new FaultyTarget(FaultSpec.none(), 5), config);

    // Then
    final List<Transaction> snapshots = o.history().transactions().stream().filter(t -> t.ops().size() == 25).toList();
    assertTrue(snapshots.size() >= 9 && snapshots.size() <= 10, "snapshots: " + snapshots.size());
    assertEquals(snapshots.size(), o.summary().snapshots());
    assertEquals(1000 + snapshots.size(), o.history().size());
    assertTrue(snapshots.stream().allMatch(t -> t.ops().stream().allMatch(op -> op.isRead())));
    assertEquals(List.of("k0", "k1", "k2"), snapshots.get(0).ops().subList(0, 3).stream().map(op -> op.key()).toList());
  }

  @Test
  void shouldRetryAbortedTransactionsAsNewTransactions() throws Exception {
    // Given: half of the writers are refused at commit
    final FaultyTarget target = new FaultyTarget(FaultSpec.parse("abortedread=0.5"), 6);
    final AgentConfig config = AgentConfig.of(4, 2000, AgentRuns.workload(10, "uniform", "R1W1", 6)).withRetries(2);

    // When
    final AgentRuns.Outcome o = AgentRuns.run(target, config);

    // Then: every attempt is recorded under its own id, and retries count toward the total
    assertEquals(2000, o.history().size());
    final long aborted = o.history().transactions().stream().filter(t -> t.status() == TxnStatus.ABORTED).count();
    assertEquals(target.injections().refusedCommits(), aborted);
    assertTrue(aborted > 500, "aborted: " + aborted);
    assertEquals(2000, o.history().transactions().stream().map(Transaction::id).distinct().count());
    final Map<String, Transaction> byId =
        o.history().transactions().stream().collect(Collectors.toMap(Transaction::id, t -> t));
    long retriedOnSameKey = 0;
    for (final Transaction t : o.history().transactions()) {
      final Transaction next = byId.get(t.session() + "-" + (t.seq() + 1));
      if (t.status() == TxnStatus.ABORTED && next != null && next.ops().get(0).key().equals(t.ops().get(0).key())) {
        retriedOnSameKey++;
      }
    }
    // By chance a session's next transaction hits the same key 1 time in 10; a retry always does.
    assertTrue(retriedOnSameKey > aborted / 2, "aborted " + aborted + ", retried on the same key " + retriedOnSameKey);
  }

  @Test
  void shouldStopAtTheDeadlineWhenRunningByDuration() throws Exception {
    // Given
    final AgentConfig config = AgentConfig.of(2, 1, AgentRuns.workload(10, "uniform", "paper", 7));
    final AgentConfig timed = new AgentConfig(2, null, Duration.ofMillis(300), 2000.0, config.workload(),
        null, null, 0, null, null, false);

    // When
    final AgentRuns.Outcome o = AgentRuns.run(new FaultyTarget(FaultSpec.none(), 7), timed);

    // Then: about 0.3 s at 2000 txn/s
    assertTrue(o.summary().seconds() >= 0.29 && o.summary().seconds() < 2, "ran " + o.summary().seconds() + " s");
    assertTrue(o.history().size() > 200 && o.history().size() < 1200, "ran " + o.history().size() + " txns");
  }

  /** A database whose every read fails with a plain error (think: the table was dropped). */
  private static final class BrokenTarget implements Target {
    @Override
    public String describe() {
      return "broken";
    }

    @Override
    public IsolationLevel isolation() {
      return IsolationLevel.SERIALIZABLE;
    }

    @Override
    public void prepare(final KeySpace keys) {}

    @Override
    public TargetSession open(final String session) {
      return new TargetSession() {
        @Override
        public void begin(final TxnContext context, final TxnPlan plan) {}

        @Override
        public Long read(final String key) throws TargetException {
          throw new TargetException(Failure.ERROR, "42P01", "relation \"kv\" does not exist");
        }

        @Override
        public void write(final String key, final long value) {}

        @Override
        public boolean compareAndSet(final String key, final long expected, final long value) {
          return false;
        }

        @Override
        public List<Long> readAll(final List<String> keys) {
          return List.of();
        }

        @Override
        public void commit() {}

        @Override
        public void rollback() {}

        @Override
        public boolean broken() {
          return false;
        }

        @Override
        public void close() {}
      };
    }

    @Override
    public void close() {}
  }

  @Test
  void shouldStopWithTheReasonWhenEveryTransactionFailsWithAnError() throws Exception {
    // Given
    final AgentConfig config = AgentConfig.of(2, 10_000, AgentRuns.workload(10, "uniform", "paper", 8));

    // When
    final AgentRuns.Outcome o = AgentRuns.run(new BrokenTarget(), config);

    // Then: every attempt is still recorded, as aborted (rolled back), and the run stops early
    assertTrue(!o.summary().succeeded());
    assertTrue(o.summary().failure().contains("20 failures in a row other than aborts"), o.summary().failure());
    assertTrue(o.summary().failure().contains("relation \"kv\" does not exist"), o.summary().failure());
    assertTrue(o.history().size() >= 20 && o.history().size() < 100, "recorded " + o.history().size());
    assertTrue(o.history().transactions().stream().allMatch(t -> t.status() == TxnStatus.ABORTED && t.ops().isEmpty()));
    assertEquals(o.history().size(), o.summary().errors());
  }
}
