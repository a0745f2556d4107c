package io.isowatch.cli;

import io.isowatch.core.check.DeclaredLevels;
import io.isowatch.core.check.Level;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.profile.DatabaseProfiles;
import io.isowatch.core.profile.Promise;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option converters shared by the commands; a bad value becomes a usage error (exit 2). */
final class Converters {
  private Converters() {}

  /**
   * A value read by a {@code parse} method whose {@link IllegalArgumentException} says what is wrong:
   * its message becomes the usage error.
   */
  abstract static class Parsing<T> implements ITypeConverter<T> {
    private final Function<String, T> parse;

    Parsing(final Function<String, T> parse) {
      this.parse = parse;
    }

    @Override
    public final T convert(final String value) {
      try {
        return parse.apply(value);
      } catch (final IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** {@code postgres:read-committed}, {@code SI}, … as accepted by {@link DatabaseProfiles#parse}. */
  static final class PromiseConverter extends Parsing<Promise> {
    PromiseConverter() {
      super(DatabaseProfiles::parse);
    }
  }

  /** {@code SSER}, {@code ser}, {@code snapshot}, … as accepted by {@link Level#parse}. */
  static final class LevelConverter extends Parsing<Level> {
    LevelConverter() {
      super(Level::parse);
    }
  }

  /** A level a transaction may declare for {@code --levels MIXED}, as {@link DeclaredLevels#parse} reads it. */
  static final class DeclaredLevelConverter extends Parsing<Level> {
    DeclaredLevelConverter() {
      super(DeclaredLevels::parse);
    }
  }

  /** A history format name, any case. */
  static final class FormatConverter implements ITypeConverter<HistoryFormat> {
    @Override
    public HistoryFormat convert(final String value) {
      try {
        return HistoryFormat.parse(value);
      } catch (final IllegalArgumentException e) {
        throw new TypeConversionException("unknown format '" + value + "' (expected one of "
            + Arrays.stream(HistoryFormat.values()).map(f -> f.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", ")) + ")");
      }
    }
  }

  /** A long, or {@code null} for keys that start absent. */
  static final class InitialValueConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(final String value) {
      if ("null".equalsIgnoreCase(value.trim())) {
        return null;
      }
      try {
        return Long.parseLong(value.trim());
      } catch (final NumberFormatException e) {
        throw new TypeConversionException("'" + value + "' is neither an integer nor null");
      }
    }
  }

  /** A duration with a unit, {@code 250us}, {@code 500ms}, {@code 10s}, {@code 5m}, {@code 2h}: microseconds. */
  static final class MicrosConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(final String value) {
      final java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)(us|ms|s|m|h)").matcher(value.trim());
      if (!m.matches()) {
        throw new TypeConversionException("'" + value + "' is not a duration (e.g. 250us, 500ms, 10s, 5m, 2h)");
      }
      final long n = Long.parseLong(m.group(1));
      final long unit = switch (m.group(2)) {
        case "us" -> 1L;
        case "ms" -> 1_000L;
        case "s" -> 1_000_000L;
        case "m" -> 60_000_000L;
        default -> 3_600_000_000L;
      };
      if (n > Long.MAX_VALUE / unit || n == 0) {
        throw new TypeConversionException("'" + value + "' is out of range (must be positive)");
      }
      return n * unit;
    }
  }

  /** The solver budget: a duration as {@link MicrosConverter} takes it, or {@code 0} / {@code off} to turn the search off. */
  static final class SolverBudgetConverter implements ITypeConverter<Long> {
    @Override
    public Long convert(final String value) {
      final String v = value.trim();
      return v.equals("0") || v.equalsIgnoreCase("off") ? 0L : new MicrosConverter().convert(v);
    }
  }
}
