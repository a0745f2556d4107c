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
  private static final int MAX_DEPTH = 256;

  private JsonValues() {}

  /** Reads the value the parser stands on (its current token). */
  static Object read(final JsonParser p) throws IOException {
    return read(p, 0);
  }

  private static Object read(final JsonParser p, final int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw new JsonParseException(p, "JSON nested deeper than " + MAX_DEPTH);
    }
    final JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT: {
        final Map<String, Object> map = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          final String name = p.currentName();
          p.nextToken();
          map.put(name, read(p, depth + 1));
        }
        return map;
      }
      case START_ARRAY: {
        final List<Object> list = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          list.add(read(p, depth + 1));
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
