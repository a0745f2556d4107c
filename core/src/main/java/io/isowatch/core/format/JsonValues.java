package io.isowatch.core.format;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON value from a streaming parser into plain Java values: objects to {@link
 * LinkedHashMap}, arrays to {@link ArrayList}, integers to {@link Long} (or {@link
 * java.math.BigInteger} beyond 64 bits), other numbers to {@link Double}, and strings, booleans
 * and null as themselves. Used for formats whose records are small and irregular (Elle ops), where
 * a generic value is simpler than a field-by-field parser.
 */
final class JsonValues {
  private JsonValues() {}

  /**
   * Reads the value the parser stands on (its current token). Jackson's own nesting limit should
   * stop deeper input first; this bound keeps the recursion safe with any parser.
   */
  static Object read(final JsonParser p, final int maxDepth) throws IOException {
    return read(p, 0, maxDepth);
  }

  private static Object read(final JsonParser p, final int depth, final int maxDepth) throws IOException {
    if (depth > maxDepth) {
      throw new JsonParseException(p, "JSON nested deeper than " + maxDepth);
    }
    final JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT: {
        final Map<String, Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          final String name = p.currentName();
          p.nextToken();
          map.put(name, read(p, depth + 1, maxDepth));
        }
        return map;
      }
      case START_ARRAY: {
        final List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(read(p, depth + 1, maxDepth));
        }
        return list;
      }
      case VALUE_NUMBER_INT:
        return p.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? p.getBigIntegerValue() : (Object) p.getLongValue();
      case VALUE_NUMBER_FLOAT:
        return p.getDoubleValue();
      case VALUE_STRING:
        return p.getText();
      case VALUE_TRUE:
        return Boolean.TRUE;
      case VALUE_FALSE:
        return Boolean.FALSE;
      case VALUE_NULL:
        return null;
      default:
        throw new JsonParseException(p, "unexpected JSON token " + t);
    }
  }
}
