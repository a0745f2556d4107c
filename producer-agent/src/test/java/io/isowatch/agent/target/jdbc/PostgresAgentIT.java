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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The agent against the real local PostgreSQL (RECIPES: 127.0.0.1:5432, trust auth, database test). */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PostgresAgentIT {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresAgentIT.class);
  private static final String TABLE = LocalDatabases.uniqueTable("kv_it_pg");

  @BeforeAll
  static void requireDatabase() {
    LocalDatabases.requirePostgres();
  }

  @AfterAll
  static void dropTable() throws Exception {
    LocalDatabases.dropTable(LocalDatabases.POSTGRES_URL, TABLE);
  }

  private static AgentRuns.Outcome run(final IsolationLevel level, final AgentConfig config) throws Exception {
    final AgentRuns.Outcome o =
        AgentRuns.run(JdbcTarget.of(LocalDatabases.POSTGRES_URL, level, TABLE, Duration.ofSeconds(5)), config);
    assertTrue(o.summary().succeeded(), "run failed: " + o.summary().failure());
    return o;
  }

  @Test
  void shouldSatisfySerializabilityOverManyContendedTransactionsWhenSerializable() throws Exception {
    // Given: 16 sessions on 10 keys. Each shape writes at most one key: two-key writers deadlock
    // against each other, and PostgreSQL only notices after deadlock_timeout (1 s), which would
    // turn this into a test of the deadlock detector's patience.
    final AgentConfig config =
        AgentConfig.of(16, 20_000, AgentRuns.workload(10, "uniform", "R1,R1R2,R1W1,R1R2W1,R1R2W2", 21));

    // When
    final AgentRuns.Outcome o = run(IsolationLevel.SERIALIZABLE, config);
    final long t0 = System.nanoTime();
    final CheckResult r = AgentRuns.check(o.history());
    final double checkSeconds = (System.nanoTime() - t0) / 1e9;

    // Then
    LOG.info("postgresql serializable: {}; check {} s", AgentRuns.describe(o, r), String.format("%.2f", checkSeconds));
    assertEquals(20_000, o.summary().total());
    assertTrue(o.summary().aborted() > 0, "no contention, nothing aborted: " + AgentRuns.describe(o, r));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER), AgentRuns.describe(o, r));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI), AgentRuns.describe(o, r));
    assertTrue(r.anomalies().isEmpty(), AgentRuns.describe(o, r));
  }

  @Test
  void shouldSatisfySnapshotIsolationWhenRepeatableRead() throws Exception {
    // Given: the paper's shape mix
    final AgentConfig config = AgentConfig.of(8, 3000, AgentRuns.workload(10, "uniform", "paper", 22));

    // When
    final AgentRuns.Outcome o = run(IsolationLevel.REPEATABLE_READ, config);
    final CheckResult r = AgentRuns.check(o.history());

    // Then
    LOG.info("postgresql repeatable read: {}", AgentRuns.describe(o, r));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI), AgentRuns.describe(o, r));
    assertTrue(o.summary().aborted() > 0, AgentRuns.describe(o, r));
  }

  @Test
  void shouldReportWriteSkewWhenRepeatableReadRunsTheWriteSkewMix() throws Exception {
    // Given: pairs of transactions reading both keys of a pair and writing one each
    final AgentConfig config = AgentConfig.of(8, 3000, AgentRuns.workload(10, "uniform", "writeskew", 23));

    // When
    final AgentRuns.Outcome o = run(IsolationLevel.REPEATABLE_READ, config);
    final CheckResult r = AgentRuns.check(o.history());

    // Then: snapshot isolation lets write skew through, so SI holds and SER does not
    LOG.info("postgresql repeatable read, write skew mix: {}", AgentRuns.describe(o, r));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SI), AgentRuns.describe(o, r));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SER), AgentRuns.describe(o, r));
    assertTrue(AgentRuns.names(r).contains("WriteSkew"), AgentRuns.describe(o, r));
  }

  @Test
  void shouldRecordLostConnectionsHonestlyAndCarryOnInNewSessions() throws Exception {
    // Given: once the sessions are connected, all of the agent's backends are terminated from
    // outside every 200 ms
    final String app = "isowatch-it-" + TABLE;
    final String url = LocalDatabases.POSTGRES_URL + (LocalDatabases.POSTGRES_URL.contains("?") ? "&" : "?")
        + "ApplicationName=" + app;
    final AgentConfig config = AgentConfig.of(4, 6000, AgentRuns.workload(10, "uniform", "R1,R1R2,R1W1,R1R2W2", 25));
    final AtomicInteger killed = new AtomicInteger();
    final AtomicBoolean done = new AtomicBoolean();
    final Thread killer = new Thread(() -> {
      try (Connection c = DriverManager.getConnection(LocalDatabases.POSTGRES_URL);
          PreparedStatement count = c.prepareStatement(
              "SELECT count(*) FROM pg_stat_activity WHERE application_name = ?");
          PreparedStatement kill = c.prepareStatement("SELECT count(pg_terminate_backend(pid)) FROM "
              + "pg_stat_activity WHERE application_name = ? AND pid <> pg_backend_pid()")) {
        count.setString(1, app);
        kill.setString(1, app);
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
    final AgentRuns.Outcome o;
    try {
      o = AgentRuns.run(JdbcTarget.of(url, IsolationLevel.SERIALIZABLE, TABLE, Duration.ofSeconds(5)), config);
    } finally {
      done.set(true);
      killer.join();
    }
    final CheckResult r = AgentRuns.check(o.history());

    // Then: every attempt is recorded, broken sessions come back under new names, and what was
    // recorded is still serializable (unknown transactions count only if someone read them)
    LOG.info("postgresql with {} backends killed: {}; reconnects {}", killed.get(), AgentRuns.describe(o, r),
        o.summary().reconnects());
    assertTrue(o.summary().succeeded(), "run failed: " + o.summary().failure());
    assertTrue(killed.get() > 0 && o.summary().reconnects() > 0, "nothing was killed: " + AgentRuns.describe(o, r));
    assertEquals(6000, o.summary().total());
    assertTrue(o.history().transactions().stream().anyMatch(t -> t.session().matches("s\\dr\\d+")),
        "no reconnected session in the history");
    assertTrue(o.summary().unknown() + o.summary().aborted() > 0, AgentRuns.describe(o, r));
    assertEquals(Verdict.SATISFIED, r.verdicts().get(Level.SER), AgentRuns.describe(o, r));
  }

  @Test
  void shouldLoseUpdatesWhenReadCommitted() throws Exception {
    // Given: read-modify-writes of few keys
    final AgentConfig config = AgentConfig.of(8, 2000, AgentRuns.workload(4, "uniform", "R1,R1W1,R1R2W2", 24));

    // When
    final AgentRuns.Outcome o = run(IsolationLevel.READ_COMMITTED, config);
    final CheckResult r = AgentRuns.check(o.history());

    // Then
    LOG.info("postgresql read committed: {}", AgentRuns.describe(o, r));
    assertTrue(AgentRuns.names(r).contains("LostUpdate"), AgentRuns.describe(o, r));
    assertEquals(Verdict.VIOLATED, r.verdicts().get(Level.SI), AgentRuns.describe(o, r));
  }
}
