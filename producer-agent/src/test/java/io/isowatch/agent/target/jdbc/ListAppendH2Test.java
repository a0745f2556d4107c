package io.isowatch.agent.target.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.testkit.AgentRuns;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.listappend.ListAppendCheck;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The list-append workload against the embedded H2 target (docs/list-append.md). */
class ListAppendH2Test {
  private static JdbcTarget h2(final IsolationLevel level) {
    return JdbcTarget.h2InMemory(level, "lists", Duration.ofSeconds(5));
  }

  @Test
  void shouldRecordEveryAppendInTheListsReadAfterItWhenOneSessionRuns() throws Exception {
    // Given: one session, so every read must show exactly the appends committed before it
    final AgentConfig config = AgentConfig.of(1, 500, AgentRuns.listAppend(3, "uniform", 4, 21));

    // When
    final AgentRuns.Outcome o = AgentRuns.run(h2(IsolationLevel.SERIALIZABLE), config);
    final CheckResult r = AgentRuns.check(o.history());

    // Then: a list-append history, each read equal to the model's list, and SER satisfied
    assertTrue(ListAppendCheck.isListAppend(o.history()));
    final Map<String, List<Long>> model = new HashMap<>();
    long appends = 0;
    long nonEmptyReads = 0;
    for (final Transaction t : o.history().transactions()) {
      assertEquals(TxnStatus.COMMITTED, t.status());
      for (final Op op : t.ops()) {
        final List<Long> list = model.computeIfAbsent(op.key(), k -> new java.util.ArrayList<>());
        if (op.isAppend()) {
          list.add(op.value());
          appends++;
        } else {
          assertTrue(op.isListRead(), op.toString());
          assertEquals(list, op.elements(), t.id() + " " + op);
          nonEmptyReads += op.elements().isEmpty() ? 0 : 1;
        }
      }
    }
    assertTrue(appends > 100 && nonEmptyReads > 100, appends + " appends, " + nonEmptyReads + " non-empty reads");
    final Transaction last = o.history().transactions().get(o.history().size() - 1);
    assertEquals("final", last.session(), "the run ends with the final read of every list");
    assertEquals(3, last.ops().size());
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER), AgentRuns.describe(o, r));
    // The final read gives every key's whole version order, so SI is decided too.
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI), AgentRuns.describe(o, r) + " " + r.reasons());
  }

  @Test
  void shouldAppendElementsUniquePerKeyAcrossSessionsAndRetries() throws Exception {
    // Given: contention on two keys, with retries of aborted transactions
    final AgentConfig config = AgentConfig.of(4, 1000, AgentRuns.listAppend(2, "uniform", 3, 22)).withRetries(2);

    // When
    final AgentRuns.Outcome o = AgentRuns.run(h2(IsolationLevel.SERIALIZABLE), config);

    // Then: no element appended twice to a key, committed or not
    final Set<String> seen = new HashSet<>();
    for (final Transaction t : o.history().transactions()) {
      for (final Op op : t.ops()) {
        if (op.isAppend()) {
          assertTrue(seen.add(op.key() + "/" + op.value()), "appended twice: " + op);
        }
      }
    }
    assertTrue(seen.size() > 500, seen.size() + " appends");
  }
}
