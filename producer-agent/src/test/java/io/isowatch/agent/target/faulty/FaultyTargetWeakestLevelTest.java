package io.isowatch.agent.target.faulty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.testkit.AgentRuns;
import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.online.OnlineChecker;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12, item 6: each fault of the faulty target, injected alone, is reported at the weakest
 * level it breaks (docs/levels.md, "What each level forbids"): every anomaly under the fault's
 * name lists that level and no weaker one, that level and every stronger one are VIOLATED, and
 * for the faults the target injects cleanly every weaker level is SATISFIED (a FracturedRead
 * violates RA and leaves RC SATISFIED). Three injections also break a weaker level by the way
 * (the target reads from an older snapshot, which can miss the reader's own session's last write:
 * a SessionGuaranteeViolation; a long fork's readers can miss a causal predecessor): for those,
 * every weaker level found VIOLATED must be proven by an anomaly of another name, never by the
 * fault's own. In memory, on the engine of {@code isowatch check}; {@code FaultyAgentIT} runs the
 * same faults through the file and the stream.
 */
class FaultyTargetWeakestLevelTest {
  /** Every level on the chain (Adya's RR aside), weakest first, as the text report lists them. */
  private static final Set<Level> LEVELS = EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.CC, Level.PC, Level.SI,
      Level.SER, Level.SSER);

  /**
   * A workload per fault (those of FaultyAgentIT, fewer transactions), the weakest level of {@link
   * #LEVELS} the fault's anomalies list, and whether the injection breaks nothing weaker. A LongFork
   * lists PC, the weakest level it breaks (the Prefix axiom forbids a long fork; docs/levels.md,
   * "PC promised without SI").
   */
  private record Expectation(String shapes, int keys, long txns, double rate, Level weakest, boolean clean) {}

  private static final Map<FaultKind, Expectation> EXPECTED = new EnumMap<>(Map.of(
      FaultKind.LOST_UPDATE, new Expectation("paper", 10, 2000, 0.05, Level.SI, false),
      FaultKind.STALE_READ, new Expectation("R1,R1R2,R1W1", 4, 2000, 1.0, Level.SSER, true),
      FaultKind.ABORTED_READ, new Expectation("full", 10, 2000, 0.05, Level.PL2, true),
      FaultKind.INTERMEDIATE_READ, new Expectation("R1,R1W1W1", 4, 2000, 0.5, Level.PL2, true),
      FaultKind.FRACTURED_READ, new Expectation("R1R2,R1R2W1W2", 4, 2000, 0.5, Level.RA, true),
      FaultKind.LONG_FORK, new Expectation("R1R2,R1W1", 4, 2000, 0.5, Level.PC, false),
      FaultKind.CAUSALITY_VIOLATION, new Expectation("R1R2,R1R2W2,R1W1", 4, 2000, 1.0, Level.CC, false),
      FaultKind.SESSION_VIOLATION, new Expectation("R1,R1W1", 4, 2000, 0.2, Level.RA, true)));

  @ParameterizedTest
  @EnumSource(FaultKind.class)
  void shouldReportEachFaultAtTheWeakestLevelItBreaksWhenInjectedAlone(final FaultKind kind) throws Exception {
    // Given: the fault alone
    final Expectation e = EXPECTED.get(kind);
    final FaultyTarget target = new FaultyTarget(new FaultSpec(Map.of(kind, e.rate())), 42);
    final AgentConfig config = AgentConfig.of(8, e.txns(), AgentRuns.workload(e.keys(), "uniform", e.shapes(), 42));

    // When
    final AgentRuns.Outcome o = AgentRuns.run(target, config);
    final CheckResult r = OnlineChecker.check(o.history(),
        CheckOptions.defaults().withLevels(LEVELS).withMaxAnomalies(AgentRuns.MAX_ANOMALIES));

    // Then: the fault's own anomalies name its weakest level and nothing weaker
    final String context = kind + ": injected " + target.injections().counts() + "; " + AgentRuns.describe(o, r);
    assertTrue(target.injections().count(kind) > 0, "nothing injected: " + context);
    final List<Anomaly> own = r.anomalies().stream().filter(a -> kind.detectedAs(a.name(), a.type())).toList();
    assertFalse(own.isEmpty(), "no " + kind.checkerName() + " anomaly: " + context);
    for (final Anomaly a : own) {
      assertEquals(e.weakest(), weakestListed(a), a.displayName() + " lists " + a.violates() + ": " + context);
    }
    for (final Level l : LEVELS) {
      if (l.compareTo(e.weakest()) >= 0) {
        assertEquals(Verdict.VIOLATED, r.verdicts().get(l), l + " must be violated: " + context);
      } else if (e.clean()) {
        assertEquals(Verdict.SATISFIED, r.verdicts().get(l), l + " must hold: " + context);
      } else if (r.verdicts().get(l) == Verdict.VIOLATED) {
        assertTrue(r.anomalies().stream().anyMatch(a -> !own.contains(a) && a.violates().contains(l)),
            l + " is violated, but by no anomaly other than the fault's: " + context);
      }
    }
  }

  /** The weakest of {@link #LEVELS} that {@code a} lists. */
  private static Level weakestListed(final Anomaly a) {
    return LEVELS.stream().filter(a.violates()::contains).findFirst().orElse(null);
  }
}
