package io.isowatch.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.online.OnlineChecker;
import io.isowatch.core.profile.Promise;
import io.isowatch.core.profile.PromiseJudgement;
import io.isowatch.core.testkit.HistoryDsl;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
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

  /** The text an ObjectMapper with INDENT_OUTPUT writes: what JsonReport wrote before it walked the tree itself. */
  private static String mapperText(final JsonNode tree) throws Exception {
    return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(tree);
  }

  @Test
  void shouldWriteEveryCorpusResultByteForByteAsAnObjectMapperDoes() throws Exception {
    // Given: the golden corpus's histories, checked (anomalies, findings, cycles, explanations with
    // quotes and line breaks), with and without a promise, and the fixtures
    final Path corpus = Path.of(JsonReportTest.class.getResource("/corpus").toURI());
    final List<CheckResult> results = new ArrayList<>(List.of(ResultFixtures.lostUpdate(), ResultFixtures.unknown(),
        ResultFixtures.invalid(), ResultFixtures.truncated(1, 7), ResultFixtures.satisfied(Level.CLASSIC)));
    try (var files = Files.list(corpus)) {
      for (final Path hist : files.filter(p -> p.toString().endsWith(".hist")).sorted().toList()) {
        results.add(OnlineChecker.check(HistoryDsl.history(Files.readString(hist)), CheckOptions.defaults()));
      }
    }
    assertTrue(results.size() > 50, "corpus cases: " + results.size());

    for (final CheckResult result : results) {
      // When
      final StringWriter out = new StringWriter();
      JsonReport.write(result, out);
      final PromiseJudgement judgement = PromiseJudgement.of(Promise.ofLevel(Level.SI), result.verdicts());
      final StringWriter promised = new StringWriter();
      JsonReport.write(result, judgement, promised);

      // Then
      assertEquals(mapperText(JsonReport.toTree(result)), JsonReport.toJson(result));
      assertEquals(mapperText(JsonReport.toTree(result)) + "\n", out.toString());
      assertEquals(mapperText(JsonReport.toTree(result, judgement)) + "\n", promised.toString());
    }
  }

  @Test
  void shouldWriteEveryKindOfNodeAsAnObjectMapperDoes() throws Exception {
    // Given
    final ObjectNode tree = JsonNodeFactory.instance.objectNode();
    tree.put("int", -3).put("long", 1L << 40).put("double", 0.1).put("seconds", 1.0E-4).put("float", 2.5f)
        .put("bigInteger", new BigInteger("123456789012345678901234567890"))
        .put("bigDecimal", new BigDecimal("1.50")).put("short", (short) 7).put("true", true).put("false", false)
        .put("text", "quote \" backslash \\ tab \t line\n\u00e9\u2603 \u0001").putNull("null");
    tree.putObject("emptyObject");
    tree.putArray("emptyArray");
    tree.putArray("mixed").add(1).add("two").addNull().addObject().put("nested", 3L);
    tree.putObject("object").putArray("inner").addArray().add(false);

    // When
    final StringWriter out = new StringWriter();
    JsonReport.writeTree(tree, out);

    // Then
    assertEquals(mapperText(tree), out.toString());
  }

  private static List<String> fieldNames(final JsonNode node) {
    final List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
