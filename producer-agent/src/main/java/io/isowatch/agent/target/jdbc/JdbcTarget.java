package io.isowatch.agent.target.jdbc;

import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.target.IsolationMix;
import io.isowatch.agent.target.Target;
import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetException.Failure;
import io.isowatch.agent.target.TargetSession;
import io.isowatch.agent.workload.KeySpace;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A database reached over JDBC: PostgreSQL, MariaDB/MySQL or H2. One connection per session,
 * autocommit off, the chosen isolation level and lock timeout set once per connection. The key
 * space lives in one table {@code (k VARCHAR(64) PRIMARY KEY, v BIGINT NOT NULL)}, recreated by
 * {@link #prepare} with every key at 0.
 */
public final class JdbcTarget implements Target {
  private static final Logger LOG = LoggerFactory.getLogger(JdbcTarget.class);
  private static final Pattern TABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
  private static final int INSERT_BATCH = 1000;

  private final String url;
  private final Dialect dialect;
  private final IsolationMix mix;
  private final String table;
  private final Duration lockTimeout;
  private final boolean shutdownOnClose;

  private JdbcTarget(
      final String url,
      final Dialect dialect,
      final IsolationMix mix,
      final String table,
      final Duration lockTimeout,
      final boolean shutdownOnClose) {
    for (final IsolationMix.Share s : mix.shares()) {
      if (!dialect.supports(s.level())) {
        throw new IllegalArgumentException(dialect.unsupported(s.level()));
      }
    }
    if (!TABLE.matcher(table).matches()) {
      throw new IllegalArgumentException("bad table name '" + table + "' (letters, digits and _, at most 63)");
    }
    if (lockTimeout.isNegative() || lockTimeout.isZero()) {
      throw new IllegalArgumentException("--lock-timeout must be positive, got " + lockTimeout);
    }
    this.url = url;
    this.dialect = dialect;
    this.mix = mix;
    this.table = table;
    this.lockTimeout = lockTimeout;
    this.shutdownOnClose = shutdownOnClose;
  }

  /** A target for a JDBC URL; the dialect comes from the URL's scheme. */
  public static JdbcTarget of(
      final String url, final IsolationLevel isolation, final String table, final Duration lockTimeout) {
    return of(url, IsolationMix.of(isolation), table, lockTimeout);
  }

  /** A target for a JDBC URL whose transactions run at the levels of {@code mix}. */
  public static JdbcTarget of(final String url, final IsolationMix mix, final String table, final Duration lockTimeout) {
    return new JdbcTarget(url, Dialect.of(url), mix, table, lockTimeout, false);
  }

  /**
   * A fresh private in-memory H2 database, dropped when the target closes, with result reuse off:
   * H2 2.5.252 otherwise answers a prepared query re-run with the same parameters from its
   * previous result when no row changed since, even when another session committed in between and
   * a new transaction should see it; the agent re-runs {@code SELECT v FROM kv WHERE k = ?} on
   * every session, and under contention that showed up as lost updates and stale reads (see the
   * module README).
   */
  public static JdbcTarget h2InMemory(final IsolationLevel isolation, final String table, final Duration lockTimeout) {
    return h2InMemory(IsolationMix.of(isolation), table, lockTimeout);
  }

  /** {@link #h2InMemory(IsolationLevel, String, Duration)} with a level per transaction. */
  public static JdbcTarget h2InMemory(final IsolationMix mix, final String table, final Duration lockTimeout) {
    final String url = "jdbc:h2:mem:isowatch-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;OPTIMIZE_REUSE_RESULTS=FALSE";
    return new JdbcTarget(url, Dialect.H2, mix, table, lockTimeout, true);
  }

  public Dialect dialect() {
    return dialect;
  }

  @Override
  public String describe() {
    return dialect.label() + " " + JdbcUrls.redact(url) + ", table " + table;
  }

  @Override
  public IsolationLevel isolation() {
    return mix.first();
  }

  @Override
  public IsolationMix isolationMix() {
    return mix;
  }

  @Override
  public void prepare(final KeySpace keys) throws TargetException {
    prepare(keys, dialect.createTable(table), "0");
  }

  @Override
  public boolean supportsLists() {
    return true;
  }

  /** Every key with the empty list, the text {@code ''} (see {@link Dialect#createListTable}). */
  @Override
  public void prepareLists(final KeySpace keys) throws TargetException {
    prepare(keys, dialect.createListTable(table), "''");
  }

  private void prepare(final KeySpace keys, final String createTable, final String initial) throws TargetException {
    try (Connection c = connect()) {
      c.setAutoCommit(false);
      try (Statement st = c.createStatement()) {
        st.execute("DROP TABLE IF EXISTS " + table);
        st.execute(createTable);
      }
      try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + table + " (k, v) VALUES (?, " + initial + ")")) {
        for (int i = 0; i < keys.size(); i++) {
          ins.setString(1, keys.name(i));
          ins.addBatch();
          if ((i + 1) % INSERT_BATCH == 0) {
            ins.executeBatch();
          }
        }
        ins.executeBatch();
      }
      c.commit();
      LOG.info("prepared table=[{}] keys=[{}] target=[{}]", table, keys.size(), describe());
    } catch (final SQLException e) {
      throw dialect.classify(e, null, "preparing table " + table + " on " + JdbcUrls.redact(url));
    }
  }

  @Override
  public TargetSession open(final String session) throws TargetException {
    final Connection c = connect();
    try {
      c.setAutoCommit(false);
      dialect.setIsolation(c, mix.first());
      try (Statement st = c.createStatement()) {
        dialect.setLockTimeout(st, lockTimeout);
      }
      // SET statements may open a transaction on some drivers; start clean.
      c.commit();
      return new JdbcSession(c, dialect, table, mix.first());
    } catch (final SQLException e) {
      final TargetException t = dialect.classify(e, c, "configuring session " + session);
      closeQuietly(c);
      throw t;
    }
  }

  private Connection connect() throws TargetException {
    try {
      return DriverManager.getConnection(url);
    } catch (final SQLException e) {
      final String lower = url.toLowerCase(Locale.ROOT);
      final String hint;
      if (lower.startsWith("jdbc:mysql:")) {
        hint = " (the MariaDB driver takes jdbc:mariadb: URLs, or jdbc:mysql: with ?permitMysqlScheme)";
      } else if (dialect == Dialect.MARIADB && !lower.contains("sslmode")) {
        hint = " (if the server has no TLS, add ?sslMode=disable to the URL)";
      } else {
        hint = "";
      }
      throw new TargetException(Failure.CONNECTION, e.getSQLState() == null ? "connect" : e.getSQLState(),
          "cannot connect to " + JdbcUrls.redact(url) + ": " + Dialect.firstLine(e.getMessage()) + hint, e);
    }
  }

  @Override
  public void close() {
    if (!shutdownOnClose) {
      return;
    }
    try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
      st.execute("SHUTDOWN");
    } catch (final SQLException e) {
      LOG.warn("could not shut down in-memory database url=[{}] error=[{}]", url, e.getMessage());
    }
  }

  static void closeQuietly(final Connection c) {
    try {
      c.close();
    } catch (final SQLException e) {
      // Closing a connection we are abandoning anyway: worth a debug line, nothing more.
      LOG.debug("closing connection failed error=[{}]", e.getMessage());
    }
  }
}
