package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, item 2: one event ten years ahead inside an otherwise valid stream changes no verdict of
 * the segmented check ({@code isowatch check --horizon-txns N}), which runs the streaming engine over
 * the file in order: the event is judged against the other sessions' latest times, becomes a
 * FUTURE_EVENT_TIME finding and does not move the watermark (docs/streaming.md, "No false positive
 * from time").
 */
class FarAheadSegmentedCheckTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final long TEN_YEARS_MICROS = 10L * 365 * 24 * 3600 * 1_000_000L;

  @TempDir Path tmp;

  @Test
  void shouldChangeNoVerdictOfASegmentedCheckWhenOneEventLiesTenYearsAhead() throws Exception {
    // Given: a valid generated history, and the same with one transaction in the middle ten years ahead
    final History valid = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(3_000)
        .withKeys(50).withSessions(8).withSeed(10));
    final List<Transaction> txns = new ArrayList<>(valid.transactions());
    final Transaction broken = txns.get(txns.size() / 2);
    txns.set(txns.size() / 2, shifted(broken, TEN_YEARS_MICROS));
    final Path validFile = write(valid, "valid.jsonl");
    final Path brokenFile = write(new History(txns), "broken.jsonl");

    // When: the segmented check of both, as a user runs it
    final CliRun expected = check(validFile);
    final CliRun checked = check(brokenFile);

    // Then: the same exit, verdicts and anomalies; one FUTURE_EVENT_TIME finding naming the event
    // and no transaction made late by it
    final JsonNode want = MAPPER.readTree(expected.out());
    final JsonNode got = MAPPER.readTree(checked.out());
    assertEquals(MAPPER.readTree("{\"SSER\":\"SATISFIED\",\"SER\":\"SATISFIED\",\"SI\":\"SATISFIED\"}"),
        want.get("verdicts"), expected.out());
    assertEquals(expected.exit(), checked.exit(), checked.err());
    assertEquals(want.get("verdicts"), got.get("verdicts"));
    assertEquals(want.get("anomalies"), got.get("anomalies"));
    final List<JsonNode> future = kinds(got, "FUTURE_EVENT_TIME");
    assertEquals(1, future.size(), got.get("findings").toString());
    assertEquals(MAPPER.readTree("[\"" + broken.id() + "\"]"), future.get(0).get("txns"));
    assertEquals(kinds(want, "LATE_TRANSACTION").size(), kinds(got, "LATE_TRANSACTION").size(),
        got.get("findings").toString());
  }

  private CliRun check(final Path file) {
    return CliRun.run(Services.real(), "check", "--json", "--grace", "1ms", "--horizon-txns", "500", file.toString());
  }

  private Path write(final History history, final String name) throws Exception {
    final Path file = tmp.resolve(name);
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      HistoryIO.write(history, HistoryFormat.JSONL, out);
    }
    return file;
  }

  private static List<JsonNode> kinds(final JsonNode report, final String kind) {
    final List<JsonNode> found = new ArrayList<>();
    report.get("findings").forEach(f -> {
      if (kind.equals(f.get("kind").asText())) {
        found.add(f);
      }
    });
    return found;
  }

  private static Transaction shifted(final Transaction t, final long by) {
    return new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start() + by, t.end() + by, t.ops(),
        t.tenant(), t.level(), t.line());
  }
}
