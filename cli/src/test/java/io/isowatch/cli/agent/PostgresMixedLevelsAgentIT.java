package io.isowatch.cli.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.target.IsolationMix;
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
 * Issue 12, item 6: a PostgreSQL run mixing SERIALIZABLE and READ COMMITTED transactions through the
 * streaming path, with MIXED decided online (check.levels=SER,MIXED) and equal to {@code isowatch
 * check --levels SER,MIXED} on the recorded file, verdict for verdict and anomaly for anomaly.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PostgresMixedLevelsAgentIT {
  @RegisterExtension static final StreamingPath PATH = new StreamingPath("SER,MIXED");
  @RegisterExtension static final DatabaseTable TABLE = DatabaseTable.onPostgres("kv_it_pg_mixed");
  private static final Logger LOG = LoggerFactory.getLogger(PostgresMixedLevelsAgentIT.class);

  @Test
  void shouldDecideMixedOnlineAsCheckDoesWhenSerializableAndReadCommittedAreMixed() throws Exception {
    // Given: a quarter of the transactions SERIALIZABLE, the rest READ COMMITTED, on few keys
    final AgentConfig config = AgentConfig.of(8, 2000, AgentRuns.workload(4, "uniform", "R1,R1W1,R1R2W2", 25));

    // When: the agent records to a file and publishes to Kafka; the streaming checker decides SER
    // and MIXED from the topic, isowatch check from the file, and run asserts both agree
    final StreamingPath.Checked c = PATH.run("pg-mixed", TABLE.target(
        IsolationMix.parse("mix:serializable=1,read-committed=3")), config).succeeded();

    // Then: SER violated (the READ COMMITTED transactions lose updates), MIXED decided online
    LOG.info("postgresql serializable + read committed, mixed: {}", c.describe());
    assertEquals(2000, c.outcome().summary().total());
    assertEquals(Verdict.VIOLATED, c.result().verdict(Level.SER), c.describe());
    assertTrue(c.result().names().contains("LostUpdate"), c.describe());
    assertNotEquals(Verdict.UNKNOWN, c.result().verdict(Level.MIXED), c.describe());
  }
}
