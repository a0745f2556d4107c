package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isowatch} on the real readers, writers and checker: the samples with the exit codes the
 * README documents, invalid input naming its line, stdin, and conversions.
 */
class RealFormatsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Path SAMPLES = CliRun.REPO_ROOT.resolve("samples");
  private static final String LOST_UPDATE_JSONL = String.join("\n",
      "{\"session\":\"a\",\"txn\":\"a-0\",\"status\":\"committed\",\"ops\":[{\"t\":\"r\",\"k\":\"1\",\"v\":0},{\"t\":\"w\",\"k\":\"1\",\"v\":10}]}",
      "{\"session\":\"b\",\"txn\":\"b-0\",\"status\":\"committed\",\"start\":5,\"end\":9,\"ops\":[{\"t\":\"r\",\"k\":\"1\",\"v\":0},{\"t\":\"w\",\"k\":\"1\",\"v\":20}]}",
      "{\"session\":\"c\",\"txn\":\"c-0\",\"status\":\"aborted\",\"ops\":[{\"t\":\"r\",\"k\":\"2\",\"v\":0},{\"t\":\"w\",\"k\":\"2\",\"v\":30}]}",
      "");

  @TempDir Path tmp;

  private static CliRun run(final String... args) {
    return CliRun.run(Services.real(), args);
  }

  private static List<String> names(final JsonNode json) {
    final List<String> names = new ArrayList<>();
    json.get("anomalies").forEach(a -> names.add(a.get("name").asText()));
    return names;
  }

  @Test
  void shouldFindTheLostUpdateInEverySampleFormatWhenCheckedWithItsInitialValue() throws Exception {
    // Given: each sample and the initial value samples/README.md gives it
    final List<List<String>> samples = List.of(
        List.of("lost-update.jsonl", "0"),
        List.of("lost-update.txt", "0"),
        List.of("lost-update.edn", "null"),
        List.of("lost-update-elle.json", "null"),
        List.of("lost-update-aion.json", "0"));

    for (final List<String> sample : samples) {
      // When
      final CliRun run = run("check", "--json", "--initial-value", sample.get(1), SAMPLES.resolve(sample.get(0)).toString());

      // Then
      assertEquals(1, run.exit(), sample + ": " + run.err());
      final JsonNode json = MAPPER.readTree(run.out());
      assertEquals(List.of("LostUpdate"), names(json), sample.toString());
      assertEquals("VIOLATED", json.get("verdicts").get("SER").asText(), sample.toString());
      assertEquals("VIOLATED", json.get("verdicts").get("SI").asText(), sample.toString());
    }
  }

  @Test
  void shouldFindTheCertainCyclesThroughInitialReadsWhenBlindWriteHistoriesAreChecked() throws Exception {
    // Given: Elle's initial-state G-single in EDN, and a session that reads x=0 after writing x=1 blindly
    final Path edn = Files.writeString(tmp.resolve("g-single.edn"), String.join("\n",
        "{:index 0, :time 1000, :type :invoke, :process 0, :f :txn, :value [[:r :x nil] [:r :y nil]]}",
        "{:index 1, :time 2000, :type :invoke, :process 1, :f :txn, :value [[:w :y 1] [:w :x 2]]}",
        "{:index 2, :time 3000, :type :ok, :process 1, :f :txn, :value [[:w :y 1] [:w :x 2]]}",
        "{:index 3, :time 4000, :type :ok, :process 0, :f :txn, :value [[:r :x nil] [:r :y 1]]}", ""));
    final Path jsonl = Files.writeString(tmp.resolve("session.jsonl"), String.join("\n",
        "{\"session\":\"a\",\"txn\":\"a-0\",\"status\":\"committed\",\"ops\":[{\"t\":\"w\",\"k\":\"x\",\"v\":1}]}",
        "{\"session\":\"a\",\"txn\":\"a-1\",\"status\":\"committed\",\"ops\":[{\"t\":\"r\",\"k\":\"x\",\"v\":0}]}", ""));

    // When
    final CliRun elle = run("check", "--json", "--initial-value", "null", edn.toString());
    final CliRun session = run("check", "--json", jsonl.toString());
    final CliRun sessionSegmented = run("check", "--json", "--horizon-txns", "10", jsonl.toString());

    // Then
    assertEquals(1, elle.exit(), elle.err());
    final JsonNode g = MAPPER.readTree(elle.out());
    assertEquals(List.of("FracturedRead"), names(g));
    assertEquals("G-single", g.get("anomalies").get(0).get("type").asText());
    for (final CliRun run : List.of(session, sessionSegmented)) {
      assertEquals(1, run.exit(), run.err());
      final JsonNode j = MAPPER.readTree(run.out());
      assertEquals(List.of("SessionGuaranteeViolation"), names(j));
      for (final String level : List.of("SSER", "SER", "SI")) {
        assertEquals("VIOLATED", j.get("verdicts").get(level).asText(), level);
        assertEquals("VIOLATED", g.get("verdicts").get(level).asText(), level);
      }
    }
  }

  @Test
  void shouldExitAsTheQuickStartSaysWhenCheckingTheJsonlSamples() {
    // When
    final CliRun lost = run("check", SAMPLES.resolve("lost-update.jsonl").toString());
    final CliRun valid = run("check", SAMPLES.resolve("valid-ser.jsonl").toString());

    // Then
    assertEquals(1, lost.exit(), lost.err());
    assertTrue(lost.out().contains("\n[1] LostUpdate (G-single) violates SSER, SER, SI\n"), lost.out());
    assertTrue(lost.out().contains("    cycle: bob-0 -WW(balance=150)-> carol-0 -RW(balance=100)-> bob-0\n"), lost.out());
    assertEquals(0, valid.exit(), valid.out());
  }

  @Test
  void shouldNameTheLineAndPrintNothingOnStdoutWhenAJsonlLineIsBroken() throws Exception {
    // Given
    final Path file = Files.writeString(tmp.resolve("broken.jsonl"),
        LOST_UPDATE_JSONL.replace("\"txn\":\"b-0\",", "\"txn\":\"b-0\",\"status\":7,"));

    for (final boolean json : List.of(false, true)) {
      // When
      final CliRun run = json ? run("check", "--json", file.toString()) : run("check", file.toString());

      // Then
      assertEquals(2, run.exit(), run.out());
      assertEquals("", run.out());
      assertTrue(run.err().startsWith("isowatch: " + file + ": line 2: "), run.err());
      assertEquals(1, run.err().lines().count(), run.err());
    }
  }

  @Test
  void shouldExit2WithOneLineNamingTheFileWhenTheContentIsNoHistory() throws Exception {
    // Given
    final Path file = Files.writeString(tmp.resolve("notes.md"), "# not a history\nat all\n");

    // When
    final CliRun run = run("check", "--json", file.toString());

    // Then
    assertEquals(2, run.exit());
    assertEquals("", run.out());
    assertTrue(run.err().startsWith("isowatch: " + file + ": "), run.err());
    assertEquals(1, run.err().lines().count(), run.err());
  }

  @Test
  void shouldCheckStdinWhenTheFileIsADash() throws Exception {
    // Given
    final Services services = Services.real()
        .withStdin(() -> new ByteArrayInputStream(LOST_UPDATE_JSONL.getBytes(StandardCharsets.UTF_8)));

    // When
    final CliRun run = CliRun.run(services, "check", "--json", "-");

    // Then
    assertEquals(1, run.exit(), run.err());
    final JsonNode json = MAPPER.readTree(run.out());
    assertEquals(List.of("LostUpdate"), names(json));
    assertEquals(MAPPER.readTree("[\"a-0\",\"b-0\"]"), json.get("anomalies").get(0).get("txns"));
  }

  @Test
  void shouldConvertTextToJsonlThatChecksTheSame() throws Exception {
    // Given
    final Path jsonl = tmp.resolve("from-text.jsonl");

    // When
    final CliRun convert = run("convert", "--to", "jsonl", "--out", jsonl.toString(), SAMPLES.resolve("lost-update.txt").toString());
    final CliRun check = run("check", "--json", jsonl.toString());

    // Then
    assertEquals(0, convert.exit(), convert.err());
    assertEquals("", convert.err());
    assertEquals("", convert.out());
    assertEquals(1, check.exit(), check.err());
    assertEquals(List.of("LostUpdate"), names(MAPPER.readTree(check.out())));
  }

  @Test
  void shouldWarnWhatTextCannotCarryWhenConvertingJsonlToText() throws Exception {
    // Given
    final Path in = Files.writeString(tmp.resolve("h.jsonl"), LOST_UPDATE_JSONL);

    // When
    final CliRun run = run("convert", "--to", "text", in.toString());

    // Then
    assertEquals(0, run.exit(), run.err());
    assertEquals("isowatch: warning: text cannot carry everything: left out 1 aborted transaction(s); "
        + "dropped the start/end times of 1 transaction(s); renumbered sessions and transaction ids\n", run.err());
    assertEquals(4, run.out().lines().count(), run.out());
    assertTrue(run.out().lines().allMatch(l -> l.matches("[rw]\\(1,\\d+,\\d+,\\d+\\)")), run.out());
  }

  @Test
  void shouldExit2AndLeaveNoFileWhenTextCannotExpressTheHistory() {
    // Given: the sample's keys are names, which the text format cannot spell
    final Path out = tmp.resolve("out.txt");

    // When
    final CliRun run = run("convert", "--to", "text", "--out", out.toString(), SAMPLES.resolve("lost-update.jsonl").toString());

    // Then
    assertEquals(2, run.exit(), run.err());
    assertTrue(run.err().startsWith("isowatch: cannot write " + SAMPLES.resolve("lost-update.jsonl") + " as text: "), run.err());
    assertEquals(1, run.err().lines().count(), run.err());
    assertFalse(Files.exists(out), "a partial output file was left behind");
    assertEquals(List.of(), tmpFiles());
  }

  private List<Path> tmpFiles() {
    try (var files = Files.list(tmp)) {
      return files.toList();
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
