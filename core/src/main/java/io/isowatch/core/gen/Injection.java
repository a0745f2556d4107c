package io.isowatch.core.gen;

import java.util.ArrayList;
import java.util.List;

/**
 * A request to inject {@code count} instances of one anomaly pattern.
 *
 * @param kind the pattern
 * @param count how many instances, {@code >= 1}
 */
public record Injection(InjectedKind kind, int count) {
  public Injection {
    if (kind == null) {
      throw new IllegalArgumentException("injection kind is required");
    }
    if (count < 1) {
      throw new IllegalArgumentException("injection count must be >= 1, got " + count + " for " + kind.patternName());
    }
  }

  /** Reads {@code LostUpdate:3,WriteSkew:2}; a missing count means 1; blank means none. */
  public static List<Injection> parseList(final String text) {
    final List<Injection> out = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    for (final String item : text.split(",")) {
      if (!item.isBlank()) {
        out.add(parse(item));
      }
    }
    return out;
  }

  /** Reads one item, {@code LostUpdate:3} or {@code LostUpdate} (count 1). */
  public static Injection parse(final String item) {
    final String[] parts = item.trim().split(":");
    if (parts.length > 2) {
      throw new IllegalArgumentException("bad injection '" + item.trim() + "' (expected Name or Name:count)");
    }
    final int count;
    try {
      count = parts.length == 2 ? Integer.parseInt(parts[1].trim()) : 1;
    } catch (final NumberFormatException e) {
      throw new IllegalArgumentException("bad count in injection '" + item.trim() + "'", e);
    }
    return new Injection(InjectedKind.parse(parts[0]), count);
  }

  /** The spelling {@link #parseList} reads back, e.g. {@code LostUpdate:3}. */
  public String spec() {
    return kind.patternName() + ":" + count;
  }
}
