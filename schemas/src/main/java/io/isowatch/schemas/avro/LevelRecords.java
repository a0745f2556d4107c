package io.isowatch.schemas.avro;

import io.isowatch.schemas.Level;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Maps the core's {@link io.isowatch.core.check.Level} to the Avro {@link Level} of the topics and
 * back. Every core level has a symbol of the same name (the weak ones since v4 of the schemas,
 * MIXED since Anomaly v6 and TenantVerdict v5); {@link
 * Level#OTHER} is the enum default a reader gets for a level added after its schema, which maps to
 * no core level and is skipped (schemas/README.md, "Weak levels").
 */
public final class LevelRecords {
  private LevelRecords() {}

  /**
   * Whether the topics carry {@code level}: every core level, {@link
   * io.isowatch.core.check.Level#MIXED} included since {@code Level} gained its symbol (Anomaly v6,
   * TenantVerdict v5; schemas/README.md, "Mixed levels").
   */
  public static boolean carried(final io.isowatch.core.check.Level level) {
    return level != null;
  }

  /** The Avro symbol of a core level. */
  public static Level toAvro(final io.isowatch.core.check.Level level) {
    if (!carried(level)) {
      throw new IllegalArgumentException("no level");
    }
    return Level.valueOf(level.name());
  }

  /** The Avro symbols of the core levels the topics carry, in the order given. */
  public static List<Level> toAvro(final Collection<io.isowatch.core.check.Level> levels) {
    return levels.stream().filter(LevelRecords::carried).map(LevelRecords::toAvro).toList();
  }

  /** The core level of an Avro symbol, or null for {@link Level#OTHER} (a level this reader does not know). */
  public static io.isowatch.core.check.Level toCore(final Level level) {
    return level == Level.OTHER ? null : io.isowatch.core.check.Level.valueOf(level.name());
  }

  /** The core levels of Avro symbols, without {@link Level#OTHER}. */
  public static Set<io.isowatch.core.check.Level> toCore(final Collection<Level> levels) {
    final EnumSet<io.isowatch.core.check.Level> out = EnumSet.noneOf(io.isowatch.core.check.Level.class);
    for (final Level l : levels) {
      final io.isowatch.core.check.Level core = toCore(l);
      if (core != null) {
        out.add(core);
      }
    }
    return out;
  }
}
