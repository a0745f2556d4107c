package io.isowatch.core.oracle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Checker;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.online.OnlineOptions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Property test of issue 14, item 1, on random small histories that all have blind writes
 * ({@link RandomHistories#generateWithBlindWrites}), against the brute-force oracle, which
 * enumerates every version order (the initial version first) and every writer of a value read:
 *
 * <ul>
 *   <li>Sound: VIOLATED only when no candidate satisfies the level; SATISFIED only when one does.
 *   <li>Complete on certain edges: a level whose graph of the edges common to every candidate
 *       ({@link BruteForceOracle#cyclicInEveryCandidate}: SO, RT, WR with one possible writer, RW
 *       from reads of the initial version to every writer of the key) is cyclic is VIOLATED.
 *       Histories that write a value twice are left out of this part: the engines then attribute
 *       no read of it (an aborted writer of the same value makes it ambiguous to them), where the
 *       oracle ignores aborted writers.
 * </ul>
 *
 * <p>Each history runs on the batch checker, on {@code check} of the online engine, and streamed
 * session by session in reverse order, then flushed. Reproduce with {@code -Disowatch.oracle.seed=S}.
 */
class CertainEdgesPropertyTest {
  private static final long BASE_SEED = Long.getLong("isowatch.oracle.seed", 20_261_125L);
  private static final int COUNT = Integer.getInteger("isowatch.oracle.count", 3_000);

  @Test
  void shouldViolateExactlyWhatCertainEdgesProveWhenHistoriesHaveBlindWrites() {
    // Given
    final List<String> failures = new ArrayList<>();
    int needInitialReads = 0;
    int certain = 0;
    int repeated = 0;
    for (int i = 0; i < COUNT; i++) {
      final RandomHistories.Generated g = RandomHistories.generateWithBlindWrites(BASE_SEED + i);
      final OracleVerdict oracle = BruteForceOracle.judge(g.history(), g.options());
      final Set<Level> cyclic = BruteForceOracle.cyclicInEveryCandidate(g.history(), g.options());
      if (!cyclic.equals(BruteForceOracle.cyclicInEveryCandidate(g.history(), g.options(), false))) {
        needInitialReads++;
      }

      // When
      final List<CheckResult> results = engines(g.history(), g.options());

      // Then
      final List<String> problems = new ArrayList<>();
      final boolean writesTwice = results.get(0).findings().stream().anyMatch(f -> f.kind() == FindingKind.NON_UNIQUE_WRITE);
      repeated += writesTwice ? 1 : 0;
      certain += cyclic.isEmpty() ? 0 : 1;
      for (int e = 0; e < results.size(); e++) {
        for (final Level level : Level.strongestFirst(Level.CLASSIC).toArray(new Level[0])) {
          final Verdict v = results.get(e).verdicts().get(level);
          if (v == Verdict.VIOLATED && !oracle.certainlyViolated(level)) {
            problems.add("engine " + e + ": " + level + " VIOLATED but some candidate satisfies it");
          }
          if (v == Verdict.SATISFIED && !Boolean.TRUE.equals(oracle.holds(level))) {
            problems.add("engine " + e + ": " + level + " SATISFIED but the oracle says " + oracle.holds(level));
          }
          if (!writesTwice && cyclic.contains(level) && v != Verdict.VIOLATED) {
            problems.add("engine " + e + ": " + level + " is " + v + " but the certain edges make a cycle");
          }
        }
      }
      if (!problems.isEmpty() && failures.size() < 5) {
        failures.add(problems + "\noracle=" + oracle + " certain cycles=" + cyclic + "\n" + g.describe()
            + "anomalies " + results.get(0).anomalies());
      }
    }

    // Then
    System.out.println("CertainEdgesPropertyTest: " + certain + " of " + COUNT + " with a cycle of certain edges, "
        + needInitialReads + " needing reads of the initial version, " + repeated + " writing a value twice");
    assertTrue(failures.isEmpty(), () -> String.join("\n\n", failures));
    final int needed = needInitialReads;
    assertTrue(needed >= COUNT / 50, () -> "only " + needed + " histories need the edges from initial reads");
  }

  /**
   * The sessions in reverse order of first appearance, each in its own order (a stream orders a
   * session without seq numbers by arrival): writers of other sessions often come after readers.
   */
  private static List<Transaction> sessionsReversed(final History h) {
    final Map<String, List<Transaction>> bySession = new LinkedHashMap<>();
    h.transactions().forEach(t -> bySession.computeIfAbsent(t.session(), s -> new ArrayList<>()).add(t));
    final List<List<Transaction>> sessions = new ArrayList<>(bySession.values());
    Collections.reverse(sessions);
    final List<Transaction> out = new ArrayList<>();
    sessions.forEach(out::addAll);
    return out;
  }

  private static List<CheckResult> engines(final History h, final CheckOptions options) {
    final List<CheckResult> out = new ArrayList<>();
    out.add(new Checker(options).check(h));
    out.add(OnlineChecker.check(h, options));
    final OnlineChecker stream = new OnlineChecker(options, new OnlineOptions(OnlineOptions.UNBOUNDED, true));
    sessionsReversed(h).forEach(stream::accept);
    stream.flush();
    out.add(stream.result());
    return out;
  }
}
