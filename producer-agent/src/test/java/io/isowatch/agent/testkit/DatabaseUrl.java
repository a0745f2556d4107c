package io.isowatch.agent.testkit;

import java.util.Optional;
import java.util.function.Function;

/**
 * Where the ITs find one kind of database: the JDBC URL named by a system property (first) or an
 * environment variable, if either is set and not blank; otherwise none, and the caller starts an
 * embedded server. CI sets the environment variables to the machine's local services.
 */
public record DatabaseUrl(String name, String property, String environmentVariable) {
  public static final DatabaseUrl POSTGRES =
      new DatabaseUrl("PostgreSQL", "isowatch.test.postgres.url", "ISOWATCH_TEST_POSTGRES_URL");
  public static final DatabaseUrl MARIADB =
      new DatabaseUrl("MariaDB", "isowatch.test.mariadb.url", "ISOWATCH_TEST_MARIADB_URL");

  /** The URL configured in this JVM, if any. */
  public Optional<String> configured() {
    return configured(System::getProperty, System::getenv);
  }

  /** The URL configured through {@code properties} or {@code environment} (the property wins). */
  public Optional<String> configured(final Function<String, String> properties,
      final Function<String, String> environment) {
    return nonBlank(properties.apply(property)).or(() -> nonBlank(environment.apply(environmentVariable)));
  }

  /** The two settings, for messages. */
  public String names() {
    return environmentVariable + " (or -D" + property + ")";
  }

  private static Optional<String> nonBlank(final String value) {
    return Optional.ofNullable(value).map(String::strip).filter(v -> !v.isEmpty());
  }
}
