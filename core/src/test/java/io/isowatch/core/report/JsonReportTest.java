package io.isowatch.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.testkit.ResultFixtures;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonReportTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @Test
  void shouldMatchThePublicContractWhenLostUpdateFound() throws Exception {
    // Given
    final var result = ResultFixtures.lostUpdate();

    // When
    final JsonNode json = MAPPER.readTree(JsonReport.toJson(result));

    // Then
    assertEquals(List.of("verdicts", "levelOrder", "reasons", "anomalies", "findings", "stats"), fieldNames(json));
    assertEquals(MAPPER.readTree("[\"SI\",\"SER\",\"SSER\"]"), json.get("levelOrder"));
    assertEquals(MAPPER.readTree("{\"SSER\":\"VIOLATED\",\"SER\":\"VIOLATED\",\"SI\":\"VIOLATED\"}"), json.get("verdicts"));
    assertEquals(List.of("SSER", "SER", "SI"), fieldNames(json.get("verdicts")));
    final JsonNode a = json.get("anomalies").get(0);
    assertEquals(1, json.get("anomalies").size());
    assertEquals(List.of("type", "name", "violates", "txns", "cycle", "read", "explanation", "transactions"),
        fieldNames(a));
    assertTrue(a.get("read").isNull(), "a cycle is about no single read");
    assertEquals("G-single", a.get("type").asText());
    assertEquals("LostUpdate", a.get("name").asText());
    assertEquals(MAPPER.readTree("[\"SSER\",\"SER\",\"SI\"]"), a.get("violates"));
    assertEquals(MAPPER.readTree("[\"s1-3\",\"s2-7\"]"), a.get("txns"));
    assertEquals(MAPPER.readTree("[{\"from\":\"s1-3\",\"to\":\"s2-7\",\"kind\":\"RW\",\"key\":\"x\",\"value\":0},"
        + "{\"from\":\"s2-7\",\"to\":\"s1-3\",\"kind\":\"WW\",\"key\":\"x\",\"value\":2}]"), a.get("cycle"));
    assertEquals(ResultFixtures.EXPLANATION, a.get("explanation").asText());
    assertEquals(MAPPER.readTree("[{\"id\":\"s1-3\",\"session\":\"s1\",\"seq\":null,\"status\":\"committed\","
        + "\"start\":10,\"end\":20,\"line\":1,\"ops\":[{\"t\":\"r\",\"k\":\"x\",\"v\":0},"
        + "{\"t\":\"w\",\"k\":\"x\",\"v\":1}]},"
        + "{\"id\":\"s2-7\",\"session\":\"s2\",\"seq\":null,\"status\":\"aborted\",\"start\":null,\"end\":null,"
        + "\"line\":2,\"ops\":[{\"t\":\"r\",\"k\":\"x\",\"v\":0},{\"t\":\"w\",\"k\":\"x\",\"v\":2}]}]"),
        a.get("transactions"));
    assertEquals(MAPPER.readTree("[{\"kind\":\"BLIND_WRITE\",\"severity\":\"UNDECIDABLE\",\"levels\":[\"SSER\",\"SI\"],"
        + "\"key\":\"y\",\"count\":3,\"txns\":[\"s3-1\",\"s4-2\"],\"lines\":[4,9],"
        + "\"message\":\"3 writes of y without an earlier read\"}]"), json.get("findings"));
    assertEquals(MAPPER.readTree("{\"transactions\":2,\"committed\":1,\"aborted\":1,\"unknownPromoted\":0,"
        + "\"unknownIgnored\":0,\"sessions\":2,\"keys\":1,\"operations\":4,\"longRmwTransactions\":0,"
        + "\"largeReadOnlyTransactions\":0,\"edges\":2,\"anomaliesByName\":{\"LostUpdate\":1},"
        + "\"anomaliesTruncated\":false,\"seconds\":0.0425}"), json.get("stats"));
  }

  @Test
  void shouldWriteNullNameAndOnlyRequestedLevelsWhenAnomalyIsUnnamed() throws Exception {
    // Given
    final var result = ResultFixtures.truncated(1, 7);

    // When
    final JsonNode json = MAPPER.readTree(JsonReport.toJson(result));

    // Then
    assertEquals(List.of("SER"), fieldNames(json.get("verdicts")));
    final JsonNode a = json.get("anomalies").get(0);
    assertTrue(a.has("name") && a.get("name").isNull(), a.toString());
    assertEquals(0, a.get("cycle").size());
    assertEquals(7, json.get("stats").get("anomaliesByName").get("G1a").asLong());
    assertTrue(json.get("stats").get("anomaliesTruncated").asBoolean());
  }

  @Test
  void shouldGiveReasonsOnlyForUnknownLevelsWhenUndecided() throws Exception {
    // Given
    final var result = ResultFixtures.unknown();

    // When
    final JsonNode json = MAPPER.readTree(JsonReport.toJson(result));

    // Then
    assertEquals(MAPPER.readTree("{\"SSER\":\"12 transactions lack timestamps\","
        + "\"SI\":\"blind writes on y leave the version order open\"}"), json.get("reasons"));
    assertEquals(List.of("SSER", "SI"), fieldNames(json.get("reasons")));
    assertEquals("SATISFIED", json.get("verdicts").get("SER").asText());
  }

  @Test
  void shouldWriteExactlyOneDocumentEndingInNewlineWhenWritingToAWriter() throws Exception {
    // Given
    final var result = ResultFixtures.satisfied(Level.CLASSIC);
    final StringWriter out = new StringWriter();

    // When
    JsonReport.write(result, out);

    // Then
    final String text = out.toString();
    assertTrue(text.endsWith("}\n"), text);
    final var parser = MAPPER.createParser(text);
    assertEquals(MAPPER.readTree(JsonReport.toJson(result)), MAPPER.readTree(parser));
    assertEquals(null, parser.nextToken(), "a second document follows the first");
  }

  @Test
  void shouldOrderViolatedLevelsStrongestFirstWhenTheSetIsUnordered() throws Exception {
    // Given
    final CheckResult base = ResultFixtures.lostUpdate();
    final Anomaly a = base.anomalies().get(0);
    final Anomaly siOnly = new Anomaly(a.type(), a.name(), EnumSet.of(Level.SI, Level.SER), a.transactions(),
        a.cycle(), a.explanation());

    // When
    final JsonNode json = MAPPER.readTree(JsonReport.toJson(new CheckResult(base.verdicts(), base.reasons(),
        List.of(siOnly), base.findings(), base.stats())));

    // Then
    assertEquals(MAPPER.readTree("[\"SER\",\"SI\"]"), json.get("anomalies").get(0).get("violates"));
  }

  private static List<String> fieldNames(final JsonNode node) {
    final List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
