package io.isowatch.agent.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetException.Failure;
import io.isowatch.agent.target.TargetSession;
import io.isowatch.agent.target.TxnContext;
import io.isowatch.agent.workload.CasHints;
import io.isowatch.agent.workload.PlannedOp;
import io.isowatch.agent.workload.TxnPlan;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransactionRunnerTest {
  private static final TxnPlan RMW = new TxnPlan("R1W1", List.of(new PlannedOp.Read("x"), new PlannedOp.Write("x", 7)));

  /** A session over a map that fails the given call ("read", "write", "cas", "commit", "rollback") once. */
  private static final class ScriptedSession implements TargetSession {
    final Map<String, Long> data = new HashMap<>(Map.of("x", 5L));
    final List<String> calls = new ArrayList<>();
    final Map<String, TargetException> failures = new HashMap<>();
    boolean brokenFlag;
    Long recordedEnd;

    private void maybeFail(final String call) throws TargetException {
      calls.add(call);
      final TargetException e = failures.remove(call);
      if (e != null) {
        throw e;
      }
    }

    @Override
    public void begin(final TxnContext context, final TxnPlan plan) throws TargetException {
      maybeFail("begin");
    }

    @Override
    public Long read(final String key) throws TargetException {
      maybeFail("read");
      return data.get(key);
    }

    @Override
    public void write(final String key, final long value) throws TargetException {
      maybeFail("write");
      data.put(key, value);
    }

    @Override
    public boolean compareAndSet(final String key, final long expected, final long value) throws TargetException {
      maybeFail("cas");
      if (data.get(key) == expected) {
        data.put(key, value);
        return true;
      }
      return false;
    }

    @Override
    public List<Long> readAll(final List<String> keys) throws TargetException {
      maybeFail("readAll");
      return keys.stream().map(data::get).toList();
    }

    final Map<String, List<Long>> lists = new HashMap<>(Map.of("y", List.of(1L)));

    @Override
    public List<Long> readList(final String key) throws TargetException {
      maybeFail("readList");
      return lists.get(key);
    }

    @Override
    public void append(final String key, final long element) throws TargetException {
      maybeFail("append");
      final List<Long> list = new ArrayList<>(lists.getOrDefault(key, List.of()));
      list.add(element);
      lists.put(key, list);
    }

    @Override
    public void commit() throws TargetException {
      maybeFail("commit");
    }

    @Override
    public void rollback() throws TargetException {
      maybeFail("rollback");
    }

    @Override
    public void recorded(final TxnContext context, final boolean committed, final long endMicros) {
      recordedEnd = endMicros;
    }

    @Override
    public boolean broken() {
      return brokenFlag;
    }

    @Override
    public void close() {}
  }

  private final CasHints hints = new CasHints();
  private final TransactionRunner runner = new TransactionRunner(MicroClock.system(), "serializable", "t1", hints, false);

  @Test
  void shouldRecordACommittedTransactionAsTheClientSawIt() {
    // Given
    final ScriptedSession s = new ScriptedSession();

    // When
    final Attempt a = runner.run(s, "s0", 3, RMW);

    // Then
    final Transaction t = a.txn();
    assertEquals("s0-3", t.id());
    assertEquals("s0", t.session());
    assertEquals(3, t.seq());
    assertEquals(TxnStatus.COMMITTED, t.status());
    assertEquals(List.of(Op.read("x", 5L), Op.write("x", 7)), t.ops());
    assertEquals("serializable", t.level());
    assertEquals("t1", t.tenant());
    assertTrue(t.start() <= t.end());
    assertEquals(t.end(), s.recordedEnd);
    assertNull(a.failure());
    assertFalse(a.sessionBroken());
    assertEquals(7, hints.expected("x"));
  }

  @Test
  void shouldRecordListReadsWithTheWholeListAndAppendsOnceAcknowledged() {
    // Given: y holds [1]; z is absent
    final ScriptedSession s = new ScriptedSession();
    final TxnPlan plan = new TxnPlan("LIST-APPEND", List.of(new PlannedOp.ReadList("y"), new PlannedOp.Append("y", 2),
        new PlannedOp.ReadList("y"), new PlannedOp.ReadList("z")));

    // When
    final Attempt a = runner.run(s, "s0", 0, plan);

    // Then: an absent list is recorded as the empty one; list values are no CAS expectations
    assertEquals(TxnStatus.COMMITTED, a.txn().status());
    assertEquals(List.of(Op.readList("y", List.of(1L)), Op.append("y", 2), Op.readList("y", List.of(1L, 2L)),
        Op.readList("z", List.of())), a.txn().ops());
    assertEquals(0, hints.expected("y"));
  }

  @Test
  void shouldNotRecordAnAppendThatFailed() {
    // Given
    final ScriptedSession s = new ScriptedSession();
    s.failures.put("append", new TargetException(Failure.ABORTED, "40001", "could not serialize"));
    final TxnPlan plan = new TxnPlan("LIST-APPEND", List.of(new PlannedOp.ReadList("y"), new PlannedOp.Append("y", 2)));

    // When
    final Attempt a = runner.run(s, "s0", 0, plan);

    // Then
    assertEquals(TxnStatus.ABORTED, a.txn().status());
    assertEquals(List.of(Op.readList("y", List.of(1L))), a.txn().ops());
  }

  @Test
  void shouldRecordAbortedAndRollBackWhenASerializationFailureHitsAStatement() {
    // Given
    final ScriptedSession s = new ScriptedSession();
    s.failures.put("write", new TargetException(Failure.ABORTED, "40001", "could not serialize"));

    // When
    final Attempt a = runner.run(s, "s0", 0, RMW);

    // Then: the failed write is not recorded; the read is
    assertEquals(TxnStatus.ABORTED, a.txn().status());
    assertEquals(List.of(Op.read("x", 5L)), a.txn().ops());
    assertEquals(List.of("begin", "read", "write", "rollback"), s.calls);
    assertEquals("40001", a.failure().code());
    assertFalse(a.sessionBroken());
    assertEquals(0, hints.expected("x"), "nothing of an aborted transaction is a hint");
  }

  @Test
  void shouldRecordAbortedWhenTheCommitIsRefusedAsASerializationFailure() {
    // Given
    final ScriptedSession s = new ScriptedSession();
    s.failures.put("commit", new TargetException(Failure.ABORTED, "40001", "could not serialize"));

    // When
    final Attempt a = runner.run(s, "s0", 0, RMW);

    // Then
    assertEquals(TxnStatus.ABORTED, a.txn().status());
    assertEquals(List.of(Op.read("x", 5L), Op.write("x", 7)), a.txn().ops());
    assertFalse(a.sessionBroken());
  }

  @Test
  void shouldRecordUnknownAndReplaceTheSessionWhenTheCommitFailsOtherwise() {
    // Given
    final ScriptedSession s = new ScriptedSession();
    s.failures.put("commit", new TargetException(Failure.ERROR, "XX000", "internal error"));

    // When
    final Attempt a = runner.run(s, "s0", 0, RMW);

    // Then: the commit may or may not have happened
    assertEquals(TxnStatus.UNKNOWN, a.txn().status());
    assertEquals(List.of(Op.read("x", 5L), Op.write("x", 7)), a.txn().ops());
    assertTrue(a.sessionBroken());
    assertFalse(s.calls.contains("rollback"));
  }

  @Test
  void shouldRecordUnknownWhenTheConnectionIsLost() {
    // Given
    final ScriptedSession s = new ScriptedSession();
    s.failures.put("write", new TargetException(Failure.CONNECTION, "08006", "connection reset"));
    s.brokenFlag = true;

    // When
    final Attempt a = runner.run(s, "s0", 0, RMW);

    // Then
    assertEquals(TxnStatus.UNKNOWN, a.txn().status());
    assertTrue(a.sessionBroken());
  }

  @Test
  void shouldRecordAbortedWhenAStatementErrorIsRolledBackAndUnknownWhenTheRollbackFailsToo() {
    // Given
    final ScriptedSession ok = new ScriptedSession();
    ok.failures.put("read", new TargetException(Failure.ERROR, "42P01", "no such table"));
    final ScriptedSession bad = new ScriptedSession();
    bad.failures.put("read", new TargetException(Failure.ERROR, "42P01", "no such table"));
    bad.failures.put("rollback", new TargetException(Failure.ERROR, "XX000", "rollback failed"));

    // When
    final Attempt rolledBack = runner.run(ok, "s0", 0, RMW);
    final Attempt inDoubt = runner.run(bad, "s1", 0, RMW);

    // Then
    assertEquals(TxnStatus.ABORTED, rolledBack.txn().status());
    assertEquals(List.of(), rolledBack.txn().ops());
    assertFalse(rolledBack.sessionBroken());
    assertEquals(TxnStatus.UNKNOWN, inDoubt.txn().status());
    assertTrue(inDoubt.sessionBroken());
  }

  @Test
  void shouldRecordReadAndWriteWhenCasSucceedsAndOnlyTheFollowUpReadWhenItFails() {
    // Given
    final ScriptedSession s = new ScriptedSession();
    final TxnPlan hit = new TxnPlan("CAS", List.of(new PlannedOp.Cas("x", 5, 9)));
    final TxnPlan miss = new TxnPlan("CAS", List.of(new PlannedOp.Cas("x", 5, 11)));

    // When
    final Attempt first = runner.run(s, "s0", 0, hit);
    final Attempt second = runner.run(s, "s0", 1, miss);

    // Then
    assertEquals(List.of(Op.read("x", 5L), Op.write("x", 9)), first.txn().ops());
    assertEquals(TxnStatus.COMMITTED, second.txn().status());
    assertEquals(List.of(Op.read("x", 9L)), second.txn().ops());
  }

  @Test
  void shouldReplaceTheSessionAfterAnAbortWhenAsked() {
    // Given
    final TransactionRunner reconnecting = new TransactionRunner(MicroClock.system(), null, null, hints, true);
    final ScriptedSession s = new ScriptedSession();
    s.failures.put("write", new TargetException(Failure.ABORTED, "40001", "could not serialize"));

    // When
    final Attempt a = reconnecting.run(s, "s0", 0, RMW);

    // Then
    assertEquals(TxnStatus.ABORTED, a.txn().status());
    assertTrue(a.sessionBroken());
  }
}
