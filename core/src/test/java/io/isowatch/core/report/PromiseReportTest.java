package io.isowatch.core.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.profile.DatabaseProfiles;
import io.isowatch.core.profile.Promise;
import io.isowatch.core.profile.PromiseJudgement;
import io.isowatch.core.testkit.ResultFixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text report and the JSON document read against a promise. */
class PromiseReportTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static PromiseJudgement judge(final String spec, final CheckResult r) {
    return PromiseJudgement.of(DatabaseProfiles.parse(spec), r.verdicts());
  }

  @Test
  void shouldSayWeakerThanSiButAllowedWhenReadCommittedIsPromisedAndAnUpdateIsLost() {
    // Given: a lost update violating SSER, SER and SI
    final CheckResult r = ResultFixtures.lostUpdate();
    // When
    final String text = new TextReport(false).render(r, judge("postgres:read-committed", r));
    // Then: the headline adds the levels up and says the promise was kept, as the exit code will
    assertTrue(text.startsWith("IsoWatch check: VIOLATED (promise postgres:read-committed: KEPT)\n"), text);
    assertTrue(text.contains("Promise postgres:read-committed (PostgreSQL READ COMMITTED): KEPT"), text);
    assertTrue(text.contains("  weaker than SI but allowed: SI, SER, SSER VIOLATED"), text);
    assertTrue(text.contains("    SI is not promised: lost update (Hermitage P4)"), text);
    assertTrue(text.contains("[allowed by the promise]"), text);
    assertFalse(text.contains("PROMISE BROKEN"), text);
    assertTrue(text.contains("  sources: PostgreSQL documentation"), text);
  }

  @Test
  void shouldSayPromiseBrokenWhenRepeatableReadIsPromisedAndAnUpdateIsLost() {
    // Given
    final CheckResult r = ResultFixtures.lostUpdate();
    // When
    final String text = new TextReport(false).render(r, judge("postgres:repeatable-read", r));
    // Then: the check decided SI, SER, SSER only, so the weaker promised levels are "not checked"
    assertTrue(text.contains("(PostgreSQL REPEATABLE READ): BROKEN"), text);
    assertTrue(text.contains("  PROMISE BROKEN: SI VIOLATED"), text);
    assertTrue(text.contains("  not checked: PL2, RC, RA, CC, PC"), text);
    assertTrue(text.contains("  also violated, not promised: SER, SSER VIOLATED"), text);
    assertTrue(text.contains("LostUpdate") && text.contains("[PROMISE BROKEN]"), text);
  }

  @Test
  void shouldRenderExactlyTheReportWithoutAPromiseWhenNoneIsGiven() {
    // Given
    final CheckResult r = ResultFixtures.lostUpdate();
    // Then
    assertEquals(new TextReport(false).render(r), new TextReport(false).render(r, null));
    assertEquals(JsonReport.toTree(r), JsonReport.toTree(r, null));
  }

  @Test
  void shouldAddThePromiseObjectAndBreaksPromiseCompatiblyToTheJsonDocument() throws Exception {
    // Given
    final CheckResult r = ResultFixtures.lostUpdate();
    final Promise p = DatabaseProfiles.parse("postgres:read-committed");
    // When
    final JsonNode json = MAPPER.readTree(JsonReport.toTree(r, PromiseJudgement.of(p, r.verdicts())).toString());
    // Then: the earlier fields first and unchanged, the promise last
    assertEquals(List.of("verdicts", "levelOrder", "reasons", "anomalies", "findings", "stats", "promise"),
        names(json));
    final JsonNode promise = json.get("promise");
    assertEquals(List.of("spec", "database", "namedLevel", "promised", "outcome", "broken", "undecided", "unchecked",
        "allowed", "weakerThan", "notGiven", "certainty", "note", "sources"), names(promise));
    assertEquals("postgres:read-committed", promise.get("spec").asText());
    assertEquals(MAPPER.readTree("[\"RC\",\"PL2\"]"), promise.get("promised"));
    assertEquals("KEPT", promise.get("outcome").asText());
    assertEquals(MAPPER.readTree("[\"SSER\",\"SER\",\"SI\"]"), promise.get("allowed"));
    assertEquals("SI", promise.get("weakerThan").asText());
    assertEquals("DOCUMENTED", promise.get("certainty").asText());
    assertTrue(promise.get("notGiven").get("SI").asText().contains("lost update"));
    assertFalse(json.get("anomalies").get(0).get("breaksPromise").asBoolean());
  }

  private static List<String> names(final JsonNode n) {
    final List<String> out = new ArrayList<>();
    n.fieldNames().forEachRemaining(out::add);
    return out;
  }
}
