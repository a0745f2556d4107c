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
        Map.of("ISOWATCH_TENANT_PROMISED_LEVELS", "pg:RC"), Map.of()));
  }
}
