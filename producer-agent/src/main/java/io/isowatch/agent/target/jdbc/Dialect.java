package io.isowatch.agent.target.jdbc;

import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetException.Failure;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransactionRollbackException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;

/**
 * What differs between the supported databases: how a URL is recognised, which isolation levels
 * exist and how they are set, the lock timeout, the table definition, and which errors mean the
 * transaction certainly did not commit.
 */
public enum Dialect {
  /** PostgreSQL; RR is snapshot isolation, SERIALIZABLE is SSI. */
  POSTGRESQL("postgresql", Set.of("40001", "40P01", "55P03"), Set.of()) {
    @Override
    boolean connectionLost(final String state) {
      // admin_shutdown (pg_terminate_backend), crash_shutdown, cannot_connect_now: the server
      // closes the connection after sending these.
      return state.equals("57P01") || state.equals("57P02") || state.equals("57P03");
    }

    @Override
    void setLockTimeout(final Statement st, final Duration timeout) throws SQLException {
      st.execute("SET lock_timeout = '" + timeout.toMillis() + "ms'");
    }
  },
  /** MariaDB (and MySQL): InnoDB; 1213 deadlock, 1205 lock wait timeout, 1020 record changed. */
  MARIADB("mariadb", Set.of("40001"), Set.of(1213, 1205, 1020)) {
    @Override
    void setLockTimeout(final Statement st, final Duration timeout) throws SQLException {
      // InnoDB takes whole seconds, at least 1.
      st.execute("SET SESSION innodb_lock_wait_timeout = " + Math.max(1, (timeout.toMillis() + 999) / 1000));
    }

    @Override
    String createTable(final String table) {
      return super.createTable(table) + " ENGINE=InnoDB";
    }

    @Override
    String createListTable(final String table) {
      // TEXT holds 64 KiB, a few thousand elements: too few for a long run.
      return "CREATE TABLE " + table + " (k VARCHAR(64) NOT NULL PRIMARY KEY, v MEDIUMTEXT NOT NULL) ENGINE=InnoDB";
    }
  },
  /** H2 2.x (MVStore); 40001 deadlock or serialization failure, 90131 concurrent update, 50200 lock timeout. */
  H2("h2", Set.of("40001", "HYT00"), Set.of(90131, 50200)) {
    @Override
    void setLockTimeout(final Statement st, final Duration timeout) throws SQLException {
      st.execute("SET LOCK_TIMEOUT " + timeout.toMillis());
    }

    @Override
    boolean supports(final IsolationLevel level) {
      return true;
    }

    @Override
    String createListTable(final String table) {
      return "CREATE TABLE " + table + " (k VARCHAR(64) NOT NULL PRIMARY KEY, v VARCHAR(1000000) NOT NULL)";
    }

    @Override
    void setIsolation(final Connection c, final IsolationLevel level) throws SQLException {
      // H2's SNAPSHOT has no JDBC constant; its SQL statement sets every level alike.
      try (Statement st = c.createStatement()) {
        st.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL "
            + level.name().replace('_', ' '));
      }
    }
  };

  private final String label;
  private final Set<String> abortStates;
  private final Set<Integer> abortVendorCodes;

  Dialect(final String label, final Set<String> abortStates, final Set<Integer> abortVendorCodes) {
    this.label = label;
    this.abortStates = abortStates;
    this.abortVendorCodes = abortVendorCodes;
  }

  public String label() {
    return label;
  }

  /** The dialect of a JDBC URL, or an explanation of what is supported. */
  public static Dialect of(final String url) {
    final String u = url.toLowerCase(Locale.ROOT);
    if (u.startsWith("jdbc:postgresql:")) {
      return POSTGRESQL;
    }
    if (u.startsWith("jdbc:mariadb:") || u.startsWith("jdbc:mysql:")) {
      return MARIADB;
    }
    if (u.startsWith("jdbc:h2:")) {
      return H2;
    }
    throw new IllegalArgumentException("unsupported JDBC URL '" + JdbcUrls.redact(url)
        + "' (supported: jdbc:postgresql:, jdbc:mariadb:, jdbc:h2:)");
  }

  /** True when the database has this level. SNAPSHOT is H2's alone. */
  boolean supports(final IsolationLevel level) {
    return level != IsolationLevel.SNAPSHOT;
  }

  /** Why a level is not supported, for the error message. */
  String unsupported(final IsolationLevel level) {
    final String hint = this == POSTGRESQL
        ? " (PostgreSQL's repeatable-read is snapshot isolation: use --isolation repeatable-read)" : "";
    return "isolation level " + level.label() + " is not supported by " + label
        + "; use read-committed, repeatable-read or serializable" + hint;
  }

  void setIsolation(final Connection c, final IsolationLevel level) throws SQLException {
    c.setTransactionIsolation(switch (level) {
      case READ_COMMITTED -> Connection.TRANSACTION_READ_COMMITTED;
      case REPEATABLE_READ -> Connection.TRANSACTION_REPEATABLE_READ;
      case SERIALIZABLE -> Connection.TRANSACTION_SERIALIZABLE;
      case SNAPSHOT -> throw new SQLException(unsupported(level));
    });
  }

  abstract void setLockTimeout(Statement st, Duration timeout) throws SQLException;

  /** Database-specific states after which the server has closed the connection. */
  boolean connectionLost(final String state) {
    return false;
  }

  String createTable(final String table) {
    return "CREATE TABLE " + table + " (k VARCHAR(64) NOT NULL PRIMARY KEY, v BIGINT NOT NULL)";
  }

  /**
   * The table of the list-append workload: a list is the text {@code ",e1,e2,…"}, grown by {@code
   * CONCAT} in the database, so an append never reads the list first.
   */
  String createListTable(final String table) {
    return "CREATE TABLE " + table + " (k VARCHAR(64) NOT NULL PRIMARY KEY, v TEXT NOT NULL)";
  }

  /**
   * Translates a driver error. {@code connection} may be null; it is probed to tell a lost
   * connection from a failed statement.
   */
  TargetException classify(final SQLException e, final Connection connection, final String during) {
    final String state = e.getSQLState() == null ? "" : e.getSQLState();
    final String code = state.isEmpty() ? String.valueOf(e.getErrorCode()) : state;
    final String message = during + ": " + firstLine(e.getMessage());
    if (abortVendorCodes.contains(e.getErrorCode())) {
      return new TargetException(Failure.ABORTED, this == MARIADB ? String.valueOf(e.getErrorCode()) : code, message, e);
    }
    if (abortStates.contains(state) || e instanceof SQLTransactionRollbackException) {
      return new TargetException(Failure.ABORTED, code, message, e);
    }
    if (state.startsWith("08") || connectionLost(state) || e instanceof SQLNonTransientConnectionException
        || e instanceof SQLTransientConnectionException || e instanceof SQLRecoverableException
        || closed(connection)) {
      return new TargetException(Failure.CONNECTION, code, message, e);
    }
    return new TargetException(Failure.ERROR, code, message, e);
  }

  private static boolean closed(final Connection c) {
    try {
      return c != null && c.isClosed();
    } catch (final SQLException e) {
      // A connection that cannot say whether it is closed is as good as closed.
      return true;
    }
  }

  static String firstLine(final String s) {
    if (s == null) {
      return "(no message)";
    }
    final int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
