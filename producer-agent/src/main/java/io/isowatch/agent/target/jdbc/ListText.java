package io.isowatch.agent.target.jdbc;

import io.isowatch.agent.target.TargetException;
import io.isowatch.agent.target.TargetException.Failure;
import java.util.ArrayList;
import java.util.List;

/**
 * How a list is kept in a text column: {@code ",e1,e2,…"}, each append adding the separator and
 * the element, the empty list the empty text. Appending one string in SQL ({@code CONCAT(v, ?)})
 * needs no read and no case for the first element.
 */
final class ListText {
  static final String SEPARATOR = ",";

  private ListText() {}

  /**
   * The elements of {@code text} in order; a text that is not such a list fails the read (it is
   * not recorded) rather than being recorded as something the database did not return.
   */
  static List<Long> parse(final String key, final String text) throws TargetException {
    final List<Long> out = new ArrayList<>();
    if (text == null) {
      return out;
    }
    int from = 0;
    while (from < text.length()) {
      if (!text.startsWith(SEPARATOR, from)) {
        throw malformed(key, text);
      }
      int to = text.indexOf(SEPARATOR, from + 1);
      if (to < 0) {
        to = text.length();
      }
      try {
        out.add(Long.parseLong(text.substring(from + 1, to)));
      } catch (final NumberFormatException e) {
        throw malformed(key, text);
      }
      from = to;
    }
    return out;
  }

  private static TargetException malformed(final String key, final String text) {
    final String shown = text.length() > 80 ? text.substring(0, 80) + "…" : text;
    return new TargetException(Failure.ERROR, "list", "the list of " + key + " is not ',e1,e2,…': '" + shown + "'");
  }
}
