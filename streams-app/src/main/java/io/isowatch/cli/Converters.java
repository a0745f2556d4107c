package io.isowatch.cli;

import io.isowatch.core.check.Level;
import io.isowatch.core.format.HistoryFormat;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option converters shared by the commands; a bad value becomes a usage error (exit 2). */
final class Converters {
  private Converters() {}

  /** {@code SSER}, {@code ser}, {@code snapshot}, … as accepted by {@link Level#parse}. */
  static final class LevelConverter implements ITypeConverter<Level> {
    @Override
    public Level convert(final String value) {
      try {
        return Level.parse(value);
      } catch (final IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
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
}
