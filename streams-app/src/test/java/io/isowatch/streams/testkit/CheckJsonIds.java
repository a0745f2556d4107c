package io.isowatch.streams.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.schemas.AnomalyIds;
import java.util.ArrayList;
import java.util.List;

/** The uniqueId ({@link AnomalyIds#unique}) the streaming checker gives an anomaly of {@code check --json}. */
public final class CheckJsonIds {
  private CheckJsonIds() {}

  /** @param a one element of the document's {@code anomalies} */
  public static String uniqueId(final String tenant, final JsonNode a) {
    final List<String> txns = new ArrayList<>();
    a.get("txns").forEach(t -> txns.add(t.asText()));
    final List<AnomalyIds.CycleEdge> cycle = new ArrayList<>();
    for (final JsonNode e : a.get("cycle")) {
      cycle.add(new AnomalyIds.CycleEdge(e.get("from").asText(), e.get("to").asText(), e.get("kind").asText(),
          text(e.get("key")), number(e.get("value"))));
    }
    final JsonNode r = a.get("read");
    final AnomalyIds.ReadOp read = r == null || r.isNull() ? null
        : new AnomalyIds.ReadOp(r.get("txn").asText(), r.get("op").asInt(), r.get("key").asText(), number(r.get("value")));
    return AnomalyIds.unique(tenant, a.get("type").asText(), text(a.get("name")), txns, cycle, read);
  }

  private static String text(final JsonNode n) {
    return n == null || n.isNull() ? null : n.asText();
  }

  private static Long number(final JsonNode n) {
    return n == null || n.isNull() ? null : n.asLong();
  }
}
