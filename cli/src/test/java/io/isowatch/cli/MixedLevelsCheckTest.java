package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isowatch check --levels MIXED} end to end on JSONL histories that declare a level per
 * transaction: the lost update of paper 003 (allowed between SER and RC, not between two SERs), the
 * broken promise named in the text report and the JSON document, and the invalid declarations
 * that exit 2.
 */
class MixedLevelsCheckTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path tmp;

  private Path lostUpdate(final String first, final String second) throws Exception {
    return Files.writeString(tmp.resolve("lu.jsonl"), String.join("\n",
        "{\"session\":\"a\",\"txn\":\"a-0\",\"status\":\"committed\"" + level(first)
            + ",\"ops\":[{\"t\":\"r\",\"k\":\"x\",\"v\":0},{\"t\":\"w\",\"k\":\"x\",\"v\":1}]}",
        "{\"session\":\"b\",\"txn\":\"b-0\",\"status\":\"committed\"" + level(second)
            + ",\"ops\":[{\"t\":\"r\",\"k\":\"x\",\"v\":0},{\"t\":\"w\",\"k\":\"x\",\"v\":2}]}", ""));
  }

  private static String level(final String l) {
    return l == null ? "" : ",\"level\":\"" + l + "\"";
  }

  @Test
  void shouldSatisfyMixedButViolateSerWhenASerializableUpdateIsLostToAReadCommittedOne() throws Exception {
    // Given
    final Path file = lostUpdate("serializable", "read-committed");

    // When
    final CliRun run = CliRun.run(Services.real(), "check", "--json", "--levels", "SER,MIXED", file.toString());

    // Then
    assertEquals(1, run.exit(), run.err());
    final JsonNode json = MAPPER.readTree(run.out());
    assertEquals("SATISFIED", json.get("verdicts").get("MIXED").asText());
    assertEquals("VIOLATED", json.get("verdicts").get("SER").asText());
    assertEquals("LostUpdate", json.get("anomalies").get(0).get("name").asText());
    assertTrue(!json.get("anomalies").get(0).get("violates").toString().contains("MIXED"), json.toString());
  }

  @Test
  void shouldNameTheBrokenPromiseWhenBothWritersDeclaredSerializable() throws Exception {
    // Given
    final Path file = lostUpdate("SERIALIZABLE", "SERIALIZABLE");

    // When
    final CliRun text = CliRun.run(Services.real(), "check", "--levels", "MIXED", file.toString());
    final CliRun json = CliRun.run(Services.real(), "check", "--json", "--levels", "MIXED", file.toString());

    // Then
    assertEquals(1, text.exit(), text.err());
    assertTrue(text.out().contains("MIXED") && text.out().contains("VIOLATED"), text.out());
    assertTrue(text.out().contains("declared SER"), text.out());
    final JsonNode doc = MAPPER.readTree(json.out());
    assertEquals("VIOLATED", doc.get("verdicts").get("MIXED").asText());
    JsonNode mixed = null;
    for (final JsonNode a : doc.get("anomalies")) {
      if (a.get("violates").toString().contains("MIXED")) {
        mixed = a;
      }
    }
    assertTrue(mixed != null, doc.toString());
    assertTrue(mixed.get("explanation").asText().contains("the promise broken is that of"), mixed.toString());
  }

  @Test
  void shouldExitTwoNamingTheLineWhenADeclaredLevelIsUnknownOrAmbiguous() throws Exception {
    for (final String bad : new String[] {"read-uncommitted-ish", "REPEATABLE READ", "SSER"}) {
      // Given
      final Path file = lostUpdate("serializable", bad);

      // When
      final CliRun run = CliRun.run(Services.real(), "check", "--levels", "MIXED", file.toString());

      // Then
      assertEquals(2, run.exit(), bad + ": " + run.out());
      assertEquals("", run.out());
      assertTrue(run.err().contains("line 2") && run.err().contains("INVALID_LEVEL") && run.err().contains("b-0"),
          run.err());
    }
  }

  @Test
  void shouldUseTheDefaultLevelWhenATransactionDeclaresNone() throws Exception {
    // Given: b-0 declares nothing
    final Path file = lostUpdate("serializable", null);

    // When
    final CliRun refused = CliRun.run(Services.real(), "check", "--levels", "MIXED", file.toString());
    final CliRun asRc = CliRun.run(Services.real(), "check", "--levels", "MIXED", "--default-level", "read-committed",
        file.toString());
    final CliRun asSer = CliRun.run(Services.real(), "check", "--levels", "MIXED", "--default-level", "SER",
        file.toString());
    final CliRun badDefault = CliRun.run(Services.real(), "check", "--levels", "MIXED", "--default-level", "RR",
        file.toString());

    // Then
    assertEquals(2, refused.exit(), refused.out());
    assertTrue(refused.err().contains("--default-level"), refused.err());
    assertEquals(0, asRc.exit(), asRc.out() + asRc.err());
    assertEquals(1, asSer.exit(), asSer.out() + asSer.err());
    assertEquals(2, badDefault.exit());
    assertTrue(badDefault.err().contains("ambiguous"), badDefault.err());
  }

  @Test
  void shouldIgnoreDeclaredLevelsWhenMixedIsNotRequested() throws Exception {
    // Given: a level MIXED could not read, checked at the classic levels only
    final Path file = lostUpdate("serializable", "REPEATABLE READ");

    // When
    final CliRun run = CliRun.run(Services.real(), "check", file.toString());

    // Then: the lost update, nothing about the level
    assertEquals(1, run.exit(), run.err());
    assertTrue(run.out().contains("LostUpdate"), run.out());
  }

  @Test
  void shouldKeepTheDeclaredLevelsWhenConvertedToJsonl() throws Exception {
    // Given
    final Path file = lostUpdate("SERIALIZABLE", "read-committed");
    final Path out = tmp.resolve("converted.jsonl");

    // When
    final CliRun convert = CliRun.run(Services.real(), "convert", "--to", "jsonl", "--out", out.toString(),
        file.toString());
    final CliRun check = CliRun.run(Services.real(), "check", "--json", "--levels", "MIXED", out.toString());

    // Then
    assertEquals(0, convert.exit(), convert.err());
    assertTrue(Files.readString(out).contains("\"level\":\"SERIALIZABLE\"")
        && Files.readString(out).contains("\"level\":\"read-committed\""), Files.readString(out));
    assertEquals("SATISFIED", MAPPER.readTree(check.out()).get("verdicts").get("MIXED").asText());
  }
}
