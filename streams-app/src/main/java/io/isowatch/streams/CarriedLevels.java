package io.isowatch.streams;

import io.isowatch.core.check.Level;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.config.ConfigException;

/**
 * The levels the streaming checker decides: those its {@code check.levels} validator accepts. Read
 * from the validator rather than listed again, so that a promise's levels reach the topology as soon
 * as the topology carries them (every level, MIXED included since the topics' Level has its
 * symbol), with nothing here to change.
 */
public final class CarriedLevels {
  private static final Set<Level> CARRIED = compute();

  private CarriedLevels() {}

  /** The levels {@code check.levels} accepts. */
  public static Set<Level> all() {
    return CARRIED;
  }

  private static Set<Level> compute() {
    final EnumSet<Level> out = EnumSet.noneOf(Level.class);
    final var validator = IsoWatchStreamsConfig.CONFIG_DEF.configKeys()
        .get(IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG).validator;
    for (final Level l : Level.values()) {
      try {
        if (validator != null) {
          validator.ensureValid(IsoWatchStreamsConfig.CHECK_LEVELS_CONFIG, List.of(l.name()));
        }
        out.add(l);
      } catch (final ConfigException e) {
        // Not carried by the topology (yet).
      }
    }
    return Collections.unmodifiableSet(out);
  }
}
