package io.isowatch.core.format;

import java.math.BigInteger;
import java.util.List;

/** Names and renderings shared by the EDN and JSON forms of Elle histories. */
final class ElleNames {
  private ElleNames() {}

  /**
   * The name of a keyword-like value: {@code :ok} and {@code "ok"} (and {@code ":ok"}) are all
   * {@code ok}; integers are their decimal text.
   */
  static String name(final Object v) {
    if (v instanceof EdnReader.Keyword k) {
      return k.name();
    }
    if (v instanceof String s) {
      return s.startsWith(":") ? s.substring(1) : s;
    }
    if (v instanceof Long || v instanceof BigInteger || v instanceof EdnReader.Symbol) {
      return v.toString();
    }
    return String.valueOf(v);
  }

  /** Characters of a value shown in a message; the message names the line for the rest. */
  static final int SHOWN_CHARS = 200;

  /** A value as it would appear in an EDN history, for messages, cut after {@link #SHOWN_CHARS}. */
  static String show(final Object v) {
    final StringBuilder sb = new StringBuilder();
    show(v, sb);
    return sb.length() <= SHOWN_CHARS ? sb.toString() : sb.substring(0, SHOWN_CHARS) + "…";
  }

  // Stops as soon as enough is shown: a value may be a collection of millions of items.
  private static void show(final Object v, final StringBuilder sb) {
    if (sb.length() > SHOWN_CHARS) {
      return;
    }
    if (v == null) {
      sb.append("nil");
    } else if (v instanceof String s) {
      sb.append('"').append(s, 0, Math.min(s.length(), SHOWN_CHARS + 1)).append('"');
    } else if (v instanceof List<?> l) {
      sb.append('[');
      for (int i = 0; i < l.size() && sb.length() <= SHOWN_CHARS; i++) {
        sb.append(i == 0 ? "" : " ");
        show(l.get(i), sb);
      }
      sb.append(']');
    } else if (v instanceof java.util.Collection<?> || v instanceof java.util.Map<?, ?>) {
      // Sets and maps: their own toString has no bound.
      sb.append(v instanceof java.util.Map<?, ?> ? "{…}" : "#{…}");
    } else {
      final String s = v.toString();
      sb.append(s, 0, Math.min(s.length(), SHOWN_CHARS + 1));
    }
  }
}
