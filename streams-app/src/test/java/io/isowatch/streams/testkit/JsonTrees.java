package io.isowatch.streams.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;

/** JSON documents compared without the fields that differ by nature (times, line numbers, …). */
public final class JsonTrees {
  private JsonTrees() {}

  /** A copy of {@code document} without {@code fields}, at every depth; the document is left as it is. */
  public static JsonNode without(final JsonNode document, final Set<String> fields) {
    final JsonNode copy = document.deepCopy();
    strip(copy, fields);
    return copy;
  }

  private static void strip(final JsonNode node, final Set<String> fields) {
    if (node instanceof ObjectNode o) {
      o.remove(fields);
      o.forEach(child -> strip(child, fields));
    } else if (node instanceof ArrayNode a) {
      a.forEach(child -> strip(child, fields));
    }
  }
}
