package io.isowatch.agent.target.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.testkit.AgentRuns;
import io.isowatch.agent.testkit.LocalDatabases;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The agent against the real local MariaDB (RECIPES: 127.0.0.1:3306, root without password, database test). */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MariaDbAgentIT {
  private static final Logger LOG = LoggerFactory.getLogger(MariaDbAgentIT.class);
  private static final String TABLE = LocalDatabases.uniqueTable("kv_it_maria");

  @BeforeAll
  static void requireDatabase() {
    LocalDatabases.requireMariaDb();
  }

  @AfterAll
  static void dropTable() throws Exception {
    LocalDatabases.dropTable(LocalDatabases.MARIADB_URL, TABLE);
  }

  private static AgentRuns.Outcome run(final IsolationLevel level, final AgentConfig config) throws Exception {
    final AgentRuns.Outcome o =
        AgentRuns.run(JdbcTarget.of(LocalDatabases.MARIADB_URL, level, TABLE, Duration.ofSeconds(5)), config);
    assertTrue(o.summary().succeeded(), "run failed: " + o.summary().failure());
    return o;
  }

  @Test
  void shouldLoseUpdatesWhenRepeatableRead() throws Exception {
    // Given: MariaDB's default level; InnoDB reads a snapshot but updates the latest row version
    final AgentConfig config = AgentConfig.of(8, 2000, AgentRuns.workload(4, "uniform", "R1,R1W1,R1R2W2", 31));

    // When
    final AgentRuns.Outcome o = run(IsolationLevel.REPEATABLE_READ, config);
    final CheckResult r = AgentRuns.check(o.history());

    // Then
    LOG.info("mariadb repeatable read: {}", AgentRuns.describe(o, r));
    assertTrue(AgentRuns.names(r).contains("LostUpdate"), AgentRuns.describe(o, r));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SI), AgentRuns.describe(o, r));
  }

  @Test
  void shouldSatisfySerializabilityWhenSerializable() throws Exception {
    // Given: the paper's shape mix; InnoDB SERIALIZABLE locks what it reads
    final AgentConfig config = AgentConfig.of(8, 3000, AgentRuns.workload(10, "uniform", "paper", 32));

    // When
    final AgentRuns.Outcome o = run(IsolationLevel.SERIALIZABLE, config);
    final CheckResult r = AgentRuns.check(o.history());

    // Then
    LOG.info("mariadb serializable: {}", AgentRuns.describe(o, r));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER), AgentRuns.describe(o, r));
    assertTrue(r.anomalies().isEmpty(), AgentRuns.describe(o, r));
  }
}
