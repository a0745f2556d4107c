package io.isowatch.agent.target.jdbc;

import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetException.Failure;
import io.isowatch.agent.target.TargetSession;
import io.isowatch.agent.target.TxnContext;
import io.isowatch.agent.workload.TxnPlan;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One JDBC connection running the agent's statements: {@code SELECT v FROM kv WHERE k=?}, {@code
 * UPDATE kv SET v=? WHERE k=?}, {@code UPDATE kv SET v=? WHERE k=? AND v=?} (compare-and-set)
 * and {@code SELECT k, v FROM kv} (snapshot); for the list-append workload, {@code SELECT v FROM
 * kv WHERE k=?} on a text column read as a list, and {@code UPDATE kv SET v=CONCAT(v, ?) WHERE k=?}
 * (an append, {@link Dialect#createListTable}). Autocommit is off, so a transaction starts with its
 * first statement and ends with {@link #commit} or {@link #rollback}.
 */
final class JdbcSession implements TargetSession {
  private final Connection connection;
  private final Dialect dialect;
  private final PreparedStatement select;
  private final PreparedStatement update;
  private final PreparedStatement cas;
  private final PreparedStatement selectAll;
  private final String table;
  /** Prepared on first use: it only compiles against a list table. */
  private PreparedStatement append;
  private boolean broken;
  /** The level the connection is set to now. */
  private IsolationLevel isolation;

  JdbcSession(final Connection connection, final Dialect dialect, final String table, final IsolationLevel isolation)
      throws SQLException {
    this.connection = connection;
    this.isolation = isolation;
    this.dialect = dialect;
    this.table = table;
    this.select = connection.prepareStatement("SELECT v FROM " + table + " WHERE k = ?");
    this.update = connection.prepareStatement("UPDATE " + table + " SET v = ? WHERE k = ?");
    this.cas = connection.prepareStatement("UPDATE " + table + " SET v = ? WHERE k = ? AND v = ?");
    this.selectAll = connection.prepareStatement("SELECT k, v FROM " + table);
  }

  @Override
  public void begin(final TxnContext context, final TxnPlan plan) throws TargetException {
    // Autocommit is off: the first statement opens the transaction. Between two transactions the
    // connection is idle, so the level of the next one can still be set (a mix, IsolationMix).
    final IsolationLevel wanted = context.isolation();
    if (wanted != null && wanted != isolation) {
      try {
        dialect.setIsolation(connection, wanted);
        isolation = wanted;
      } catch (final SQLException e) {
        throw fail(e, "setting isolation level " + wanted.label());
      }
    }
  }

  @Override
  public Long read(final String key) throws TargetException {
    try {
      select.setString(1, key);
      try (ResultSet rs = select.executeQuery()) {
        return rs.next() ? rs.getLong(1) : null;
      }
    } catch (final SQLException e) {
      throw fail(e, "reading " + key);
    }
  }

  @Override
  public void write(final String key, final long value) throws TargetException {
    final int rows;
    try {
      update.setLong(1, value);
      update.setString(2, key);
      rows = update.executeUpdate();
    } catch (final SQLException e) {
      throw fail(e, "writing " + key);
    }
    if (rows != 1) {
      throw new TargetException(Failure.ERROR, "rows",
          "writing " + key + " changed " + rows + " rows, expected 1: was the key space prepared?");
    }
  }

  @Override
  public boolean compareAndSet(final String key, final long expected, final long value) throws TargetException {
    final int rows;
    try {
      cas.setLong(1, value);
      cas.setString(2, key);
      cas.setLong(3, expected);
      rows = cas.executeUpdate();
    } catch (final SQLException e) {
      throw fail(e, "compare-and-set of " + key);
    }
    if (rows > 1) {
      throw new TargetException(Failure.ERROR, "rows", "compare-and-set of " + key + " changed " + rows + " rows");
    }
    return rows == 1;
  }

  @Override
  public List<Long> readList(final String key) throws TargetException {
    final String text;
    try {
      select.setString(1, key);
      try (ResultSet rs = select.executeQuery()) {
        if (!rs.next()) {
          return null;
        }
        text = rs.getString(1);
      }
    } catch (final SQLException e) {
      throw fail(e, "reading list " + key);
    }
    return ListText.parse(key, text);
  }

  @Override
  public void append(final String key, final long element) throws TargetException {
    final int rows;
    try {
      if (append == null) {
        append = connection.prepareStatement("UPDATE " + table + " SET v = CONCAT(v, ?) WHERE k = ?");
      }
      append.setString(1, ListText.SEPARATOR + element);
      append.setString(2, key);
      rows = append.executeUpdate();
    } catch (final SQLException e) {
      throw fail(e, "appending to " + key);
    }
    if (rows != 1) {
      throw new TargetException(Failure.ERROR, "rows",
          "appending to " + key + " changed " + rows + " rows, expected 1: was the key space prepared for lists?");
    }
  }

  @Override
  public List<Long> readAll(final List<String> keys) throws TargetException {
    final Map<String, Long> values = new HashMap<>(keys.size() * 2);
    try (ResultSet rs = selectAll.executeQuery()) {
      while (rs.next()) {
        values.put(rs.getString(1), rs.getLong(2));
      }
    } catch (final SQLException e) {
      throw fail(e, "reading all keys");
    }
    final List<Long> out = new ArrayList<>(keys.size());
    for (final String k : keys) {
      out.add(values.get(k));
    }
    return out;
  }

  @Override
  public void commit() throws TargetException {
    try {
      connection.commit();
    } catch (final SQLException e) {
      throw fail(e, "commit");
    }
  }

  @Override
  public void rollback() throws TargetException {
    try {
      connection.rollback();
    } catch (final SQLException e) {
      throw fail(e, "rollback");
    }
  }

  @Override
  public boolean broken() {
    return broken;
  }

  @Override
  public void close() {
    JdbcTarget.closeQuietly(connection);
  }

  private TargetException fail(final SQLException e, final String during) {
    final TargetException t = dialect.classify(e, connection, during);
    if (t.failure() == Failure.CONNECTION) {
      broken = true;
    }
    return t;
  }
}
