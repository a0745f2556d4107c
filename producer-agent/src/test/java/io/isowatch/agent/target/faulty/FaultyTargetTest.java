package io.isowatch.agent.target.faulty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.testkit.AgentRuns;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The faulty target without faults, in memory. Each injected kind's detection runs in {@code
 * FaultyAgentIT}, through the file and the streaming checker.
 */
class FaultyTargetTest {
  @Test
  void shouldBeStrictlySerializableWhenNoFaultIsInjected() throws Exception {
    // Given
    final FaultyTarget target = new FaultyTarget(FaultSpec.none(), 1);
    final AgentConfig config = AgentConfig.of(8, 5000, AgentRuns.workload(10, "uniform", "full", 1))
        .withSnapshotEveryTxns(500L);

    // When
    final AgentRuns.Outcome o = AgentRuns.run(target, config);
    final CheckResult r = AgentRuns.check(o.history());

    // Then
    assertEquals(0, target.injections().total());
    assertEquals(5000 + o.summary().snapshots(), o.history().size());
    assertEquals(Map.of(Level.SSER, Verdict.SATISFIED, Level.SER, Verdict.SATISFIED, Level.SI, Verdict.SATISFIED),
        r.verdicts(), AgentRuns.describe(o, r));
    assertTrue(r.anomalies().isEmpty(), AgentRuns.describe(o, r));
  }
}
