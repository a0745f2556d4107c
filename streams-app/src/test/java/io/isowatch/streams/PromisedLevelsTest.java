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
  void shouldAcceptALevelTheCheckerDoesNotDecideYetWhenListed() throws Exception {
    // When: RC is promised while the topology decides SSER, SER and SI
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_TENANT_PROMISED_LEVELS", "pg:RC"), Map.of());
    // Then: promised exactly as listed, watched as soon as the checker decides it
    assertEquals(EnumSet.of(Level.RC), config.promisedLevels().of("pg"));
  }

  @Test
  void shouldMapATenantsDatabaseProfileThroughTheCoreTableWhenTenantPromisesIsSet() throws Exception {
    // When
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), Map.of(
        "ISOWATCH_TENANT_PROMISES", "pg-rr=postgres:repeatable-read,pg-rc=postgres:read-committed,*=oracle:serializable",
        "ISOWATCH_TENANT_PROMISED_LEVELS", "canary:NONE"), Map.of());
    final PromisedLevels p = config.promisedLevels();
    // Then: a profile promises its levels and every level they imply
    assertEquals(EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.CC, Level.PC, Level.SI), p.of("pg-rr"));
    assertEquals(EnumSet.of(Level.PL2, Level.RC), p.of("pg-rc"));
    assertEquals("postgres:read-committed", p.promiseOf("pg-rc").orElseThrow().spec());
    assertEquals("oracle:serializable", p.promiseOf("anyone-else").orElseThrow().spec());
    assertEquals(Set.of(), p.of("canary"));
    assertTrue(p.promiseOf("canary").isEmpty());
  }

  @Test
  void shouldRejectTheConfigurationWhenAProfileIsUnknownOrATenantIsPromisedTwice() {
    // When / Then
    final ConfigException unknown = assertThrows(ConfigException.class, () -> ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_TENANT_PROMISES", "pg=postgres:snapshot"), Map.of()));
    assertTrue(unknown.getMessage().contains("repeatable-read"), unknown.getMessage());
    final ConfigException both = assertThrows(ConfigException.class, () -> ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_TENANT_PROMISES", "pg=postgres:serializable", "ISOWATCH_TENANT_PROMISED_LEVELS", "pg:SER"),
        Map.of()));
    assertTrue(both.getMessage().contains("both"), both.getMessage());
    assertThrows(ConfigException.class, () -> ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_TENANT_PROMISES", "pg:postgres:serializable"), Map.of()));
  }

  @Test
  void shouldPromiseAWeakLevelWhenTheCheckerDecidesIt() throws Exception {
    // Given: PostgreSQL's default promise, READ COMMITTED, decided by the checker
    final Map<String, String> env = Map.of("ISOWATCH_TENANT_PROMISED_LEVELS", "pg:RC,*:SER",
        "ISOWATCH_CHECK_LEVELS", "RC,RA,SI,SER,SSER");
    // When
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), env, Map.of());
    // Then
    assertEquals(EnumSet.of(Level.RC), config.promisedLevels().of("pg"));
    assertEquals(EnumSet.of(Level.SER), config.promisedLevels().of("anyone-else"));
    assertTrue(config.levels().contains(Level.RC));
  }
}
