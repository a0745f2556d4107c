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

  /** A value as it would appear in an EDN history, for messages. */
  static String show(final Object v) {
    if (v == null) {
      return "nil";
    }
    if (v instanceof String s) {
      return "\"" + s + "\"";
    }
    if (v instanceof List<?> l) {
      final StringBuilder sb = new StringBuilder("[");
      for (int i = 0; i < l.size(); i++) {
        sb.append(i == 0 ? "" : " ").append(show(l.get(i)));
      }
      return sb.append(']').toString();
    }
    return v.toString();
  }
}
