package io.isowatch.cli.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.testkit.AgentRuns;
import io.isowatch.agent.testkit.DatabaseTable;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 14, item 2 online: the agent's list-append workload on a real PostgreSQL through the
 * streaming path (agent → Kafka → the checker topology), against {@code isowatch check} of the same
 * recorded file, as {@link PostgresWeakLevelsAgentIT} does for registers. {@link StreamingPath}
 * asserts what a list-append tenant promises (docs/list-append.md, "Online"): check's verdicts,
 * every anomaly check lists published, nothing published that check does not find violated.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class PostgresListAppendAgentIT {
  @RegisterExtension static final StreamingPath PATH = new StreamingPath();
  @RegisterExtension static final DatabaseTable TABLE = DatabaseTable.onPostgres("la_it_pg_stream");
  private static final Logger LOG = LoggerFactory.getLogger(PostgresListAppendAgentIT.class);

  private static AgentConfig config(final int txns, final long seed) {
    return AgentConfig.of(8, txns, AgentRuns.listAppend(8, "uniform", 4, seed));
  }

  @Test
  void shouldSatisfySerializableThroughTheStreamWhenPostgresRunsSerializable() throws Exception {
    // Given / When: the agent appends to lists and reads them, recording to a file and to Kafka
    final StreamingPath.Checked c =
        PATH.run("pg-la-serializable", TABLE.target(IsolationLevel.SERIALIZABLE), config(1500, 241)).succeeded();

    // Then: the stream decided what check decided (StreamingPath), and that is SATISFIED
    LOG.info("postgresql serializable, list-append, streamed: {}", c.describe());
    assertTrue(c.outcome().summary().aborted() > 0, c.describe());
    assertEquals(Verdict.SATISFIED, c.result().verdict(Level.SER), c.describe());
    assertEquals(Verdict.SATISFIED, c.result().verdict(Level.SSER), c.describe());
    assertEquals(Verdict.SATISFIED, c.result().verdict(Level.SI), c.describe());
    assertTrue(c.result().anomalies().isEmpty(), c.describe());
  }

  @Test
  void shouldFindTheReadCommittedAnomaliesThroughTheStreamWhenPostgresRunsReadCommitted() throws Exception {
    // Given / When
    final StreamingPath.Checked c =
        PATH.run("pg-la-read-committed", TABLE.target(IsolationLevel.READ_COMMITTED), config(1500, 242)).succeeded();

    // Then: SER and SI violated, with the cycles read-committed allows, published on the anomalies topic
    LOG.info("postgresql read committed, list-append, streamed: {}", c.describe());
    assertEquals(Verdict.VIOLATED, c.result().verdict(Level.SER), c.describe());
    assertEquals(Verdict.VIOLATED, c.result().verdict(Level.SI), c.describe());
    assertTrue(c.result().names().contains("LostUpdate"), c.describe());
  }
}
