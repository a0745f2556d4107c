package io.isowatch.core.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.LongList;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.online.WholeHistoryCheck;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The list-append workload generator (issue 14, item 5): valid lists, as a list-append database gives them. */
class ListAppendHistoryGeneratorTest {
  private static History generate(final SimulatedLevel level, final int keys, final int maxWrites) {
    return ListAppendHistoryGenerator.generateWithSummary(
        new ListAppendHistoryGenerator.Config(7, 3000, 20, keys, 4, 0.5, maxWrites, level)).history();
  }

  @Test
  void shouldAppendUniqueElementsAndReadPrefixesOfOneListPerKey() {
    // When
    final History h = generate(SimulatedLevel.SER, 10, 8);

    // Then: per key, elements appended once each, at most 8 appends, every committed read a prefix of the longest
    final Map<String, Set<Long>> appended = new HashMap<>();
    final Map<String, List<Long>> longest = new HashMap<>();
    for (final Transaction t : h.transactions()) {
      for (final Op op : t.ops()) {
        if (op.isAppend()) {
          assertTrue(appended.computeIfAbsent(op.key(), k -> new HashSet<>()).add(op.value()), op::toString);
        } else {
          assertTrue(op.isListRead(), op::toString);
          assertTrue(op.elements() instanceof LongList, "a list read holds its elements in one array");
          longest.merge(op.key(), op.elements(), (a, b) -> a.size() >= b.size() ? a : b);
        }
      }
    }
    appended.values().forEach(s -> assertTrue(s.size() <= 8, s::toString));
    assertTrue(appended.size() > 10, "keys retire and fresh ones take their place");
    for (final Transaction t : h.transactions()) {
      for (final Op op : t.ops()) {
        if (op.isListRead()) {
          final List<Long> l = longest.get(op.key());
          assertEquals(l.subList(0, op.elements().size()), op.elements(), op::toString);
        }
      }
    }
  }

  @Test
  void shouldBeStrictlySerializableWhenTheDatabaseIsSerial() {
    // Given
    final History h = generate(SimulatedLevel.SER, 10, 32);

    // When: with and without the search of open orders
    final CheckResult r = WholeHistoryCheck.check(h, CheckOptions.defaults());
    final CheckResult noSearch = WholeHistoryCheck.check(h, CheckOptions.defaults().withSolverBudget(Duration.ZERO));

    // Then
    for (final Level l : List.of(Level.SSER, Level.SER, Level.SI)) {
      assertEquals(Verdict.SATISFIED, r.verdicts().get(l), () -> l + " " + r.reasons() + " " + r.anomalies());
      assertEquals(Verdict.SATISFIED, noSearch.verdicts().get(l), () -> l + " " + noSearch.reasons());
    }
  }

  @Test
  void shouldSatisfySiAndAbortConflictingAppendersWhenTheDatabaseIsSnapshotIsolated() {
    // Given: few keys, so that concurrent appends to one key happen
    final History h = generate(SimulatedLevel.SI, 5, 32);

    // When
    final CheckResult r = WholeHistoryCheck.check(h, CheckOptions.defaults().withLevels(Set.of(Level.SI)));

    // Then
    assertTrue(h.transactions().stream().anyMatch(t -> t.status() == TxnStatus.ABORTED), "first-committer-wins aborts");
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI), () -> r.reasons() + " " + r.anomalies());
  }

  @Test
  void shouldGiveTheSameHistoryForTheSameSeed() {
    assertEquals(generate(SimulatedLevel.SI, 5, 32), generate(SimulatedLevel.SI, 5, 32));
  }
}
