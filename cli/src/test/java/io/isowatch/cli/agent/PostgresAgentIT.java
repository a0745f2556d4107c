package io.isowatch.cli.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.run.AgentConfig;
import io.isowatch.agent.run.RunSummary;
import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.testkit.AgentRuns;
import io.isowatch.agent.testkit.DatabaseTable;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent against a real PostgreSQL: the one ISOWATCH_TEST_POSTGRES_URL names (CI: the local
 * service, RECIPES), else an embedded PostgreSQL 14 ({@link io.isowatch.agent.testkit.LocalDatabases}).
 * Every run is recorded to a file and published to Kafka at once, and checked both by {@code
 * isowatch check} on the file and by the streaming checker, which must agree ({@link StreamingPath}).
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class PostgresAgentIT {
  @RegisterExtension static final StreamingPath PATH = new StreamingPath();
  @RegisterExtension static final DatabaseTable TABLE = DatabaseTable.onPostgres("kv_it_pg");
  private static final Logger LOG = LoggerFactory.getLogger(PostgresAgentIT.class);

  private static StreamingPath.Checked run(final String tenant, final IsolationLevel level, final AgentConfig config)
      throws Exception {
    return PATH.run(tenant, TABLE.target(level), config).succeeded();
  }

  @Test
  void shouldSatisfySerializabilityOverManyContendedTransactionsWhenSerializable() throws Exception {
    // Given: 16 sessions on 10 keys. Each shape writes at most one key: two-key writers deadlock
    // against each other, and PostgreSQL only notices after deadlock_timeout (1 s), which would
    // turn this into a test of the deadlock detector's patience.
    final AgentConfig config =
        AgentConfig.of(16, 20_000, AgentRuns.workload(10, "uniform", "R1,R1R2,R1W1,R1R2W1,R1R2W2", 21));

    // When
    final StreamingPath.Checked c = run("pg-serializable", IsolationLevel.SERIALIZABLE, config);

    // Then: the file and the stream say the same (asserted by run), and it is serializable
    LOG.info("postgresql serializable: {}", c.describe());
    assertEquals(20_000, c.outcome().summary().total());
    assertTrue(c.outcome().summary().aborted() > 0, "no contention, nothing aborted: " + c.describe());
    assertEquals(Verdict.SATISFIED, c.result().verdict(Level.SER), c.describe());
    assertEquals(Verdict.SATISFIED, c.result().verdict(Level.SI), c.describe());
    assertTrue(c.result().anomalies().isEmpty(), c.describe());
  }

  @Test
  void shouldSatisfySnapshotIsolationWhenRepeatableRead() throws Exception {
    // Given: the paper's shape mix
    final AgentConfig config = AgentConfig.of(8, 3000, AgentRuns.workload(10, "uniform", "paper", 22));

    // When
    final StreamingPath.Checked c = run("pg-repeatable-read", IsolationLevel.REPEATABLE_READ, config);

    // Then
    LOG.info("postgresql repeatable read: {}", c.describe());
    assertEquals(Verdict.SATISFIED, c.result().verdict(Level.SI), c.describe());
    assertTrue(c.outcome().summary().aborted() > 0, c.describe());
  }

  @Test
  void shouldReportWriteSkewWhenRepeatableReadRunsTheWriteSkewMix() throws Exception {
    // Given: pairs of transactions reading both keys of a pair and writing one each
    final AgentConfig config = AgentConfig.of(8, 3000, AgentRuns.workload(10, "uniform", "writeskew", 23));

    // When
    final StreamingPath.Checked c = run("pg-repeatable-read-writeskew", IsolationLevel.REPEATABLE_READ, config);

    // Then: snapshot isolation lets write skew through, so SI holds and SER does not
    LOG.info("postgresql repeatable read, write skew mix: {}", c.describe());
    assertEquals(Verdict.SATISFIED, c.result().verdict(Level.SI), c.describe());
    assertEquals(Verdict.VIOLATED, c.result().verdict(Level.SER), c.describe());
    assertTrue(c.result().names().contains("WriteSkew"), c.describe());
  }

  @Test
  void shouldRecordLostConnectionsHonestlyAndCarryOnInNewSessions() throws Exception {
    // Given: once the sessions are connected, every 200 ms, all of the agent's backends that have
    // run a statement on the table are terminated from outside (not those still being configured:
    // on a loaded machine configuring a session can take longer than 200 ms, and a session that
    // cannot be opened three times in a row fails the run, by design)
    final String app = "isowatch-it-" + TABLE.name();
    final String base = TABLE.url();
    final String url = base + (base.contains("?") ? "&" : "?") + "ApplicationName=" + app;
    final AgentConfig config = AgentConfig.of(4, 6000, AgentRuns.workload(10, "uniform", "R1,R1R2,R1W1,R1R2W2", 25));
    final AtomicInteger killed = new AtomicInteger();
    final AtomicBoolean done = new AtomicBoolean();
    final Thread killer = new Thread(() -> {
      try (Connection c = DriverManager.getConnection(base);
          PreparedStatement count = c.prepareStatement(
              "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?");
          PreparedStatement kill = c.prepareStatement("SELECT count(pg_terminate_backend(pid)) FROM "
              + "pg_stat_activity WHERE application_name = ? AND pid <> pg_backend_pid() AND query LIKE ?")) {
        count.setString(1, app);
        kill.setString(1, app);
        kill.setString(2, "%" + TABLE.name() + "%");
        // Start killing once the 4 sessions are connected: the key space must be prepared first.
        int connected = 0;
        while (connected < 4 && !done.get()) {
          Thread.sleep(10);
          try (ResultSet rs = count.executeQuery()) {
            rs.next();
            connected = rs.getInt(1);
          }
        }
        while (!done.get()) {
          Thread.sleep(200);
          try (ResultSet rs = kill.executeQuery()) {
            rs.next();
            killed.addAndGet(rs.getInt(1));
          }
        }
      } catch (final Exception e) {
        throw new IllegalStateException("the killer thread failed", e);
      }
    }, "backend-killer");

    // When
    killer.start();
    final StreamingPath.Checked c;
    try {
      c = PATH.run("pg-backends-killed", TABLE.target(url, IsolationLevel.SERIALIZABLE), config);
    } finally {
      done.set(true);
      killer.join();
    }

    // Then: every attempt is recorded, broken sessions come back under new names, and what was
    // recorded is still serializable (unknown transactions count only if someone read them)
    final RunSummary s = c.outcome().summary();
    LOG.info("postgresql with {} backends killed: {}; reconnects {}", killed.get(), c.describe(), s.reconnects());
    assertTrue(s.succeeded(), "run failed: " + s.failure());
    assertTrue(killed.get() > 0 && s.reconnects() > 0, "nothing was killed: " + c.describe());
    assertEquals(6000, s.total());
    assertTrue(c.outcome().history().transactions().stream().anyMatch(t -> t.session().matches("s\\dr\\d+")),
        "no reconnected session in the history");
    assertTrue(s.unknown() + s.aborted() > 0, c.describe());
    assertEquals(Verdict.SATISFIED, c.result().verdict(Level.SER), c.describe());
  }

  @Test
  void shouldLoseUpdatesWhenReadCommitted() throws Exception {
    // Given: read-modify-writes of few keys
    final AgentConfig config = AgentConfig.of(8, 2000, AgentRuns.workload(4, "uniform", "R1,R1W1,R1R2W2", 24));

    // When
    final StreamingPath.Checked c = run("pg-read-committed", IsolationLevel.READ_COMMITTED, config);

    // Then
    LOG.info("postgresql read committed: {}", c.describe());
    assertTrue(c.result().names().contains("LostUpdate"), c.describe());
    assertEquals(Verdict.VIOLATED, c.result().verdict(Level.SI), c.describe());
  }
}
