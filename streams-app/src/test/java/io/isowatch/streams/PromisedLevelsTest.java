package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Level;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class PromisedLevelsTest {
  @Test
  void shouldApplyTheWildcardOnlyToTenantsWithoutEntriesWhenParsed() {
    // When
    final PromisedLevels p = PromisedLevels.parse(List.of("*:SER", "*:SI", "pg:SSER", "pg:SER", "rc:NONE"));
    // Then
    assertEquals(EnumSet.of(Level.SSER, Level.SER), p.of("pg"));
    assertEquals(Set.of(), p.of("rc"));
    assertEquals(EnumSet.of(Level.SER, Level.SI), p.of("anyone-else"));
  }

  @Test
  void shouldPromiseNothingWhenNotConfigured() throws Exception {
    // When
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), Map.of(), Map.of());
    // Then
    assertTrue(config.promisedLevels().of("any").isEmpty());
  }

  @Test
  void shouldRejectTheConfigurationWhenAnEntryIsNotTenantColonLevel() {
    // When / Then
    final ConfigException e = assertThrows(ConfigException.class, () -> ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_TENANT_PROMISED_LEVELS", "pg:SER,pg-SI"), Map.of()));
    assertTrue(e.getMessage().contains("pg-SI"), e.getMessage());
    assertThrows(ConfigException.class, () -> ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_TENANT_PROMISED_LEVELS", "pg:XX"), Map.of()));
  }

  @Test
  void shouldPromiseAWeakLevelWhenTheCheckerDecidesIt() throws Exception {
    // Given: PostgreSQL's default promise, READ COMMITTED, decided by the checker
    final Map<String, String> env = Map.of("ISOWATCH_TENANT_PROMISED_LEVELS", "pg:RC,*:SER",
        "ISOWATCH_CHECK_LEVELS", "RC,RA,SI,SER,SSER");
    // When
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), env, Map.of());
    // Then
    assertEquals(java.util.Set.of(io.isowatch.core.check.Level.RC), config.promisedLevels().of("pg"));
    assertEquals(java.util.Set.of(io.isowatch.core.check.Level.RC, io.isowatch.core.check.Level.SER),
        config.promisedLevels().all());
  }

  @Test
  void shouldRejectAPromiseWhenItsLevelIsNotDecided() {
    // Given: RC promised, but check.levels is the default SSER,SER,SI: the promise could never be found broken
    final Map<String, String> env = Map.of("ISOWATCH_TENANT_PROMISED_LEVELS", "pg:RC");
    // When
    final ConfigException e = assertThrows(ConfigException.class,
        () -> ConfigSources.load(Optional.empty(), env, Map.of()));
    // Then
    assertTrue(e.getMessage().contains("tenant.promised.levels") && e.getMessage().contains("[RC]"), e.getMessage());
  }
}
