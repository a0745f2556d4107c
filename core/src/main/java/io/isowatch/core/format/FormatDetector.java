package io.isowatch.core.format;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Guesses a history's format from its first bytes.
 *
 * <ul>
 *   <li>JSONL: the first line is a JSON object with {@code ops}, {@code txn} or {@code session}.
 *   <li>AION: a JSON array whose first object has {@code tid}, {@code sts} or {@code cts}.
 *   <li>ELLE: a JSON array, or JSON lines, of objects with {@code type} and {@code process}, {@code
 *       value} or {@code f}; or EDN: a map, vector or tagged literal with the keyword {@code :type}
 *       (EDN comments before it are skipped).
 *   <li>TEXT: the first line is {@code r(…)} or {@code w(…)} ({@code #} comment lines skipped).
 *   <li>An empty or blank input is an empty JSONL history.
 * </ul>
 */
final class FormatDetector {
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final Pattern TEXT_LINE = Pattern.compile("[rw]\\(\\s*-?\\d+\\s*,.*\\)");
  private static final Pattern EDN_TYPE = Pattern.compile(":type[\\s,]");
  private static final Pattern TEXT_COMMENT = Pattern.compile("#(\\s.*)?");
  private static final int SHOWN_CHARS = 80;

  private FormatDetector() {}

  static HistoryFormat detect(final String prefix, final String source) throws InvalidHistoryException {
    final int at = firstSignificantLine(prefix);
    if (at < 0) {
      return HistoryFormat.JSONL;
    }
    final String rest = prefix.substring(at).stripLeading();
    final int eol = rest.indexOf('\n');
    final String first = (eol < 0 ? rest : rest.substring(0, eol)).strip();
    final char c = first.charAt(0);
    if (c == '{' || c == '[') {
      // An object starts JSON lines (native or Elle), an array a JSON history (Aion or Elle).
      final boolean array = c == '[';
      final Set<String> names = firstObjectFields(rest, array);
      if (names == null) {
        if (EDN_TYPE.matcher(rest).find()) {
          return HistoryFormat.ELLE;
        }
      } else if (array ? isAionTxn(names) : isJsonlTxn(names)) {
        return array ? HistoryFormat.AION : HistoryFormat.JSONL;
      } else if (isElleOp(names)) {
        return HistoryFormat.ELLE;
      }
    } else if (c == '#' && EDN_TYPE.matcher(rest).find()) {
      return HistoryFormat.ELLE;
    } else if (TEXT_LINE.matcher(first).matches()) {
      return HistoryFormat.TEXT;
    }
    throw new InvalidHistoryException(0, "cannot detect the history format of " + source + " from its first line '"
        + shorten(first) + "': expected JSONL ({\"session\":..,\"txn\":..,\"ops\":[..]}), TEXT (r(key,value,session,txn)),"
        + " Elle EDN or JSON ({:type :ok, :process 0, :value [..]}) or Aion ([{\"tid\":..,\"sts\":..}]);"
        + " name the format explicitly if it is one of these");
  }

  private static boolean isJsonlTxn(final Set<String> names) {
    return names.contains("ops") || names.contains("txn") || names.contains("session");
  }

  private static boolean isAionTxn(final Set<String> names) {
    return names.contains("tid") || names.contains("sts") || names.contains("cts");
  }

  private static boolean isElleOp(final Set<String> names) {
    return names.contains("type") && (names.contains("process") || names.contains("value") || names.contains("f"));
  }

  /**
   * The offset of the first line that is neither blank nor a comment (EDN {@code ;}, text {@code
   * #}), or -1 when there is none.
   */
  private static int firstSignificantLine(final String text) {
    int start = 0;
    while (start < text.length()) {
      final int eol = text.indexOf('\n', start);
      final int end = eol < 0 ? text.length() : eol;
      final String s = text.substring(start, end).strip();
      if (!s.isEmpty() && !s.startsWith(";") && !TEXT_COMMENT.matcher(s).matches()) {
        return start;
      }
      start = end + 1;
    }
    return -1;
  }

  /**
   * The field names of the first JSON object of {@code text} (inside a leading array when {@code
   * inArray}), as far as the text goes; null when the text does not start as JSON.
   */
  private static Set<String> firstObjectFields(final String text, final boolean inArray) {
    final Set<String> names = new LinkedHashSet<>();
    try (JsonParser p = FACTORY.createParser(text)) {
      if (inArray) {
        if (p.nextToken() != JsonToken.START_ARRAY) {
          return null;
        }
        final JsonToken t = p.nextToken();
        if (t == JsonToken.END_ARRAY) {
          return Set.of("tid"); // an empty array: an empty Aion history
        }
        if (t != JsonToken.START_OBJECT) {
          return null;
        }
      } else if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      JsonToken t;
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        names.add(p.currentName());
        p.nextToken();
        p.skipChildren();
      }
      return names;
    } catch (final IOException e) {
      // Not JSON from the start (EDN), or cut off by the end of the prefix: what was seen decides.
      return names.isEmpty() ? null : names;
    }
  }

  private static String shorten(final String s) {
    return s.length() <= SHOWN_CHARS ? s : s.substring(0, SHOWN_CHARS) + "…";
  }
}
