package io.isowatch.agent.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses durations written {@code 500ms}, {@code 30s}, {@code 10m}, {@code 2h}, {@code 1h30m}, ISO-8601, or {@code 0}. */
public final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h)");

  private Durations() {}

  public static Duration parse(final String text) {
    final String s = text.trim().toLowerCase(Locale.ROOT);
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    if (s.startsWith("p")) {
      try {
        return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
      } catch (final DateTimeParseException e) {
        throw new IllegalArgumentException("bad duration '" + text + "'", e);
      }
    }
    final Matcher m = PART.matcher(s);
    Duration d = Duration.ZERO;
    int at = 0;
    while (at < s.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new IllegalArgumentException("bad duration '" + text + "' (expected e.g. 500ms, 30s, 10m, 1h30m)");
      }
      final long n = Long.parseLong(m.group(1));
      d = d.plus(switch (m.group(2)) {
        case "ms" -> Duration.ofMillis(n);
        case "s" -> Duration.ofSeconds(n);
        case "m" -> Duration.ofMinutes(n);
        default -> Duration.ofHours(n);
      });
      at = m.end();
    }
    if (at == 0) {
      throw new IllegalArgumentException("bad duration '" + text + "' (expected e.g. 500ms, 30s, 10m, 1h30m)");
    }
    return d;
  }

  /** Compact rendering, e.g. {@code 10m} or {@code 1.5s}. */
  static String format(final Duration d) {
    final long ms = d.toMillis();
    if (ms % 3_600_000 == 0 && ms > 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0 && ms > 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }
}
