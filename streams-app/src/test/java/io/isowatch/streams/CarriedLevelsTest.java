package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Level;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class CarriedLevelsTest {
  @Test
  void shouldListExactlyTheLevelsCheckLevelsAcceptsWhenAskedWhatTheTopologyDecides() {
    for (final Level l : Level.values()) {
      // When
      boolean accepted;
      try {
        new IsoWatchStreamsConfig(Map.of(IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, l.name()));
        accepted = true;
      } catch (final ConfigException e) {
        accepted = false;
      }
      // Then
      assertTrue(accepted == CarriedLevels.all().contains(l), l + " accepted=" + accepted);
    }
    assertTrue(CarriedLevels.all().containsAll(Level.CLASSIC),
        CarriedLevels.all().stream().map(Enum::name).collect(Collectors.joining(",")));
  }
}
