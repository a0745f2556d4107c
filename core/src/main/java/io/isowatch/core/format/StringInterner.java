package io.isowatch.core.format;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps one instance per distinct string (keys, sessions, tenants, levels). A million
 * transactions over a thousand keys then hold a thousand key strings instead of millions, and the
 * checker's maps hash and compare fewer distinct objects. Not thread-safe.
 */
final class StringInterner {
  private final Map<String, String> strings = new HashMap<>();

  /** The one shared instance equal to {@code s}; null stays null. */
  String intern(final String s) {
    if (s == null) {
      return null;
    }
    final String known = strings.putIfAbsent(s, s);
    return known == null ? s : known;
  }
}
