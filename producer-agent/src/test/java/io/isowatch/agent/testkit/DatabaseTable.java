package io.isowatch.agent.testkit;

import io.isowatch.agent.target.IsolationLevel;
import io.isowatch.agent.target.IsolationMix;
import io.isowatch.agent.target.jdbc.JdbcTarget;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A table of its own ({@link LocalDatabases#uniqueTable}) for one jdbc IT class on one of the
 * {@link LocalDatabases}: the database must answer before the class runs, and the table is dropped
 * after it.
 *
 * <pre>{@code
 * @RegisterExtension static final DatabaseTable TABLE = DatabaseTable.onPostgres("kv_it_pg");
 * ...
 * PATH.run("pg-ser", TABLE.target(IsolationLevel.SERIALIZABLE), config);
 * }</pre>
 */
public final class DatabaseTable implements BeforeAllCallback, AfterAllCallback {
  private final Supplier<String> url;
  private final Runnable require;
  private final String name;

  private DatabaseTable(final Supplier<String> url, final Runnable require, final String prefix) {
    this.url = url;
    this.require = require;
    this.name = LocalDatabases.uniqueTable(prefix);
  }

  public static DatabaseTable onPostgres(final String prefix) {
    return new DatabaseTable(LocalDatabases::postgresUrl, LocalDatabases::requirePostgres, prefix);
  }

  public static DatabaseTable onMariaDb(final String prefix) {
    return new DatabaseTable(LocalDatabases::mariaDbUrl, LocalDatabases::requireMariaDb, prefix);
  }

  public String url() {
    return url.get();
  }

  public String name() {
    return name;
  }

  /** The agent's target for this table at {@code level}. */
  public JdbcTarget target(final IsolationLevel level) {
    return target(url(), level);
  }

  /** The agent's target for this table with a level per transaction drawn from {@code mix}. */
  public JdbcTarget target(final IsolationMix mix) {
    return JdbcTarget.of(url(), mix, name, Duration.ofSeconds(5));
  }

  /** The same through another URL of the same database (with extra connection properties, say). */
  public JdbcTarget target(final String jdbcUrl, final IsolationLevel level) {
    return JdbcTarget.of(jdbcUrl, level, name, Duration.ofSeconds(5));
  }

  @Override
  public void beforeAll(final ExtensionContext context) {
    require.run();
  }

  @Override
  public void afterAll(final ExtensionContext context) throws Exception {
    LocalDatabases.dropTable(url(), name);
  }
}
