package io.isowatch.agent.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DatabaseUrlTest {
  private static final String LOCAL = "jdbc:postgresql://127.0.0.1:5432/test";

  @Test
  void shouldConfigureNothingWhenNeitherPropertyNorEnvironmentIsSet() {
    // Given
    final Map<String, String> none = Map.of();

    // When
    final Optional<String> url = DatabaseUrl.POSTGRES.configured(none::get, none::get);

    // Then: the caller starts the embedded server
    assertEquals(Optional.empty(), url);
  }

  @Test
  void shouldUseTheEnvironmentVariableWhenOnlyItIsSet() {
    // Given
    final Map<String, String> env = Map.of("ISOWATCH_TEST_POSTGRES_URL", LOCAL);

    // When
    final Optional<String> url = DatabaseUrl.POSTGRES.configured(Map.<String, String>of()::get, env::get);

    // Then
    assertEquals(Optional.of(LOCAL), url);
  }

  @Test
  void shouldPreferTheSystemPropertyWhenBothAreSet() {
    // Given
    final Map<String, String> props = Map.of("isowatch.test.mariadb.url", "jdbc:mariadb://db:3306/test");
    final Map<String, String> env = Map.of("ISOWATCH_TEST_MARIADB_URL", "jdbc:mariadb://127.0.0.1:3306/test");

    // When
    final Optional<String> url = DatabaseUrl.MARIADB.configured(props::get, env::get);

    // Then
    assertEquals(Optional.of("jdbc:mariadb://db:3306/test"), url);
  }

  @Test
  void shouldTreatABlankUrlAsUnsetWhenAScriptExportsAnEmptyVariable() {
    // Given: `export ISOWATCH_TEST_POSTGRES_URL=` (an empty value, as a script may leave it)
    final Map<String, String> props = Map.of("isowatch.test.postgres.url", " ");
    final Map<String, String> env = Map.of("ISOWATCH_TEST_POSTGRES_URL", "");

    // When
    final Optional<String> url = DatabaseUrl.POSTGRES.configured(props::get, env::get);

    // Then
    assertEquals(Optional.empty(), url);
  }
}
