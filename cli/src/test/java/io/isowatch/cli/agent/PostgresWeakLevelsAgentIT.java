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
 * Issue 12, item 6: the weak levels on a real PostgreSQL through the streaming path, as {@link
 * PostgresAgentIT} checks the default ones. Its own class because the checker's {@code
 * check.levels} is fixed for a class's {@link StreamingPath}; the fixtures are the same.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PostgresWeakLevelsAgentIT {
  /** Both the streaming checker ({@code check.levels}) and {@code isowatch check --levels}. */
  @RegisterExtension static final StreamingPath PATH = new StreamingPath("RC,RA,CC,SI,SER");
  @RegisterExtension static final DatabaseTable TABLE = DatabaseTable.onPostgres("kv_it_pg_weak");
  private static final Logger LOG = LoggerFactory.getLogger(PostgresWeakLevelsAgentIT.class);

  @Test
  void shouldLoseUpdatesButKeepReadCommittedThroughTheStreamWhenReadCommitted() throws Exception {
    // Given: read-modify-writes of few keys, as WeakLevelsOnRealDatabasesIT runs them on the engine
    final AgentConfig config = AgentConfig.of(8, 2000, AgentRuns.workload(4, "uniform", "R1,R1W1,R1R2W2", 24));

    // When: the agent records to a file and publishes to Kafka; the streaming checker checks the
    // topic and isowatch check the file, and run asserts both agree anomaly for anomaly, level for level
    final StreamingPath.Checked c =
        PATH.run("pg-read-committed-weak", TABLE.target(IsolationLevel.READ_COMMITTED), config).succeeded();

    // Then: what the checker published: lost updates on the anomalies topic, SI violated, RC kept
    LOG.info("postgresql read committed, weak levels: {}", c.describe());
    assertEquals(2000, c.outcome().summary().total());
    assertTrue(c.result().names().contains("LostUpdate"), c.describe());
    assertEquals(Verdict.VIOLATED, c.result().verdict(Level.SI), c.describe());
    assertEquals(Verdict.SATISFIED, c.result().verdict(Level.RC), c.describe());
  }
}
