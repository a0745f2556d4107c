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
 * The agent against a real MariaDB: the one ISOWATCH_TEST_MARIADB_URL names (CI: the local service,
 * RECIPES), else an embedded MariaDB 10.11 ({@link io.isowatch.agent.testkit.LocalDatabases}); each run checked by {@code
 * isowatch check} on its file and by the streaming checker, which must agree ({@link StreamingPath}).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class MariaDbAgentIT {
  @RegisterExtension static final StreamingPath PATH = new StreamingPath();
  @RegisterExtension static final DatabaseTable TABLE = DatabaseTable.onMariaDb("kv_it_maria");
  private static final Logger LOG = LoggerFactory.getLogger(MariaDbAgentIT.class);

  private static StreamingPath.Checked run(final String tenant, final IsolationLevel level, final AgentConfig config)
      throws Exception {
    return PATH.run(tenant, TABLE.target(level), config).succeeded();
  }

  @Test
  void shouldLoseUpdatesWhenRepeatableRead() throws Exception {
    // Given: MariaDB's default level; InnoDB reads a snapshot but updates the latest row version
    final AgentConfig config = AgentConfig.of(8, 2000, AgentRuns.workload(4, "uniform", "R1,R1W1,R1R2W2", 31));

    // When
    final StreamingPath.Checked c = run("maria-repeatable-read", IsolationLevel.REPEATABLE_READ, config);

    // Then
    LOG.info("mariadb repeatable read: {}", c.describe());
    assertTrue(c.result().names().contains("LostUpdate"), c.describe());
    assertEquals(Verdict.VIOLATED, c.result().verdict(Level.SI), c.describe());
  }

  @Test
  void shouldSatisfySerializabilityWhenSerializable() throws Exception {
    // Given: the paper's shape mix; InnoDB SERIALIZABLE locks what it reads
    final AgentConfig config = AgentConfig.of(8, 3000, AgentRuns.workload(10, "uniform", "paper", 32));

    // When
    final StreamingPath.Checked c = run("maria-serializable", IsolationLevel.SERIALIZABLE, config);

    // Then
    LOG.info("mariadb serializable: {}", c.describe());
    assertEquals(Verdict.SATISFIED, c.result().verdict(Level.SER), c.describe());
    assertTrue(c.result().anomalies().isEmpty(), c.describe());
  }
}
