package io.isowatch.cli.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.cli.Main;
import io.isowatch.cli.Services;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.history.History;
import io.isowatch.schemas.Anomaly;
import io.isowatch.schemas.AnomalyIds;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The batch checker as the oracle of a streaming test: {@code isowatch check FILE --json} in process,
 * and both sides' anomalies as {@code anomalyId -> name (or type)}, so that the two compare with one
 * {@code assertEquals}.
 */
public final class CheckCommand {
  private static final ObjectMapper JSON = new ObjectMapper();

  private CheckCommand() {}

  /** Writes the history to {@code file} as JSONL and runs {@link #json(Path)} on it. */
  public static JsonNode json(final History history, final Path file) throws Exception {
    try (Writer w = Files.newBufferedWriter(file)) {
      HistoryIO.write(history, HistoryFormat.JSONL, w);
    }
    return json(file);
  }

  /** {@code isowatch check FILE --json}, in process; the history must have anomalies (exit code 1). */
  public static JsonNode json(final Path file) throws Exception {
    final StringWriter out = new StringWriter();
    final picocli.CommandLine cl = Main.commandLine(Services.real());
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(new StringWriter(), true));
    assertEquals(1, cl.execute("check", file.toString(), "--json"), "the history has anomalies");
    return JSON.readTree(out.toString());
  }

  /** The {@code --json} document's anomalies, by the anomalyId ({@link AnomalyIds#of}) of the tenant. */
  public static Map<String, String> anomalyNames(final String tenant, final JsonNode check) {
    final Map<String, String> out = new TreeMap<>();
    for (final JsonNode a : check.get("anomalies")) {
      final List<String> txns = new ArrayList<>();
      a.get("txns").forEach(t -> txns.add(t.asText()));
      final String name = a.get("name").isNull() ? null : a.get("name").asText();
      out.put(AnomalyIds.of(tenant, a.get("type").asText(), name, txns), name == null ? a.get("type").asText() : name);
    }
    return out;
  }

  /** Published anomalies, by their anomalyId. */
  public static Map<String, String> names(final List<Anomaly> anomalies) {
    final Map<String, String> out = new TreeMap<>();
    anomalies.forEach(a -> out.put(a.getAnomalyId(), a.getName() == null ? a.getType() : a.getName()));
    return out;
  }
}
