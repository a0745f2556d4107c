package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code isowatch check} on the list-append samples, through the real readers and engine. */
class ListAppendCheckCommandTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String SAMPLE = Path.of("..", "samples", "list-append.jsonl").toString();

  @TempDir Path tmp;

  @Test
  void shouldReportTheLostUpdateOfAListAppendHistoryAsJsonWithTheListsAsRead() throws Exception {
    // When
    final CliRun run = CliRun.run(Services.real(), "check", "--json", SAMPLE);
    // Then
    assertEquals(1, run.exit(), run.err());
    final JsonNode json = MAPPER.readTree(run.out());
    final JsonNode a = json.get("anomalies").get(0);
    assertEquals("LostUpdate", a.get("name").asText());
    assertEquals(MAPPER.readTree("[{\"t\":\"r\",\"k\":\"cart\",\"v\":[1]},{\"t\":\"a\",\"k\":\"cart\",\"v\":2}]"),
        a.get("transactions").get(0).get("ops"));
    assertEquals(6, json.get("stats").get("operations").asInt());
  }

  @Test
  void shouldWriteTheCounterexampleGraphWithTheAppends() throws Exception {
    // When
    final CliRun run = CliRun.run(Services.real(), "check", "--dot", tmp.toString(), SAMPLE);
    // Then
    assertEquals(1, run.exit(), run.err());
    try (Stream<Path> files = Files.list(tmp)) {
      final List<Path> dots = files.toList();
      assertEquals(1, dots.size());
      final String dot = Files.readString(dots.get(0));
      assertTrue(dot.contains("[r(cart,[1]), a(cart,2)]"), dot);
    }
  }

  @Test
  void shouldRefuseAListAppendHistoryInTheSegmentedCheckAsInvalidInput() {
    // When
    final CliRun run = CliRun.run(Services.real(), "check", "--horizon-txns", "100", SAMPLE);
    // Then: exit 2 with the way that works, not an internal error
    assertEquals(2, run.exit(), run.err());
    assertEquals("", run.out());
    assertTrue(run.err().contains("line 1: transaction s1-0 has list-append operations"), run.err());
    assertTrue(run.err().contains("without a horizon"), run.err());
    // And: why (docs/list-append.md, "Segmented")
    assertTrue(run.err().contains("keeps bounded state, and every read of a list returns the whole list"), run.err());
  }
}
