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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BenchCommandTest {
  @Test
  void shouldReportEachLevelAsJsonWhenAskedForJson() throws Exception {
    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--txns", "3000", "--levels", "SER,SI", "--repeat", "2",
        "--warmup", "1", "--inject", "LostUpdate:2", "--json");

    // Then
    assertEquals(0, run.exit(), run.err());
    final JsonNode doc = new ObjectMapper().readTree(run.out());
    assertEquals("generated", doc.at("/input/source").asText());
    assertEquals("online", doc.get("engine").asText());
    assertEquals(3000, doc.at("/input/transactions").asLong());
    assertEquals(2, doc.at("/input/injected").asLong());
    assertTrue(doc.at("/input/retainedBytesPerTxn").asDouble() > 50, doc.at("/input").toString());
    assertTrue(doc.at("/machine/processors").asInt() >= 1);
    final JsonNode levels = doc.get("levels");
    assertEquals(2, levels.size());
    for (int i = 0; i < 2; i++) {
      final JsonNode l = levels.get(i);
      assertEquals(i == 0 ? "SER" : "SI", l.get("level").asText());
      assertEquals("VIOLATED", l.get("verdict").asText());
      assertEquals(2, l.at("/anomaliesByName/LostUpdate").asLong(), l.toString());
      assertEquals(2, l.at("/runs/seconds").size());
      final double best = l.at("/runs/best").asDouble();
      assertTrue(best > 0 && best <= l.at("/runs/median").asDouble(), l.toString());
      assertEquals(3000 / best, l.get("bestTxnPerSecond").asDouble(), 1e-6 * 3000 / best);
      assertTrue(l.get("peakHeapBytesPerTxn").asDouble() > 0, l.toString());
    }
    assertTrue(run.err().contains("SER run 2/2"), run.err());
  }

  @Test
  void shouldDecideMixedWhenTransactionsDeclareAMixOfLevels() throws Exception {
    // When: a quarter of the transactions declare SERIALIZABLE, the rest READ COMMITTED, in a history
    // with two write skews; then none declares and the default level is SI
    final CliRun mix = CliRun.of(new BenchCommand(), "--txns", "30000", "--levels", "MIXED", "--repeat", "1",
        "--warmup", "0", "--inject", "WriteSkew:2", "--declare", "mix:serializable=1,read-committed=3", "--json");
    final CliRun si = CliRun.of(new BenchCommand(), "--txns", "30000", "--levels", "MIXED", "--repeat", "1",
        "--warmup", "0", "--sim-level", "si", "--default-level", "SI", "--json");

    // Then: both decided, above the search's bound of 20,000 transactions (a write skew is allowed
    // unless both its transactions declared SERIALIZABLE)
    assertEquals(0, mix.exit(), mix.err());
    final JsonNode mixed = new ObjectMapper().readTree(mix.out()).at("/levels/0");
    assertEquals("MIXED", mixed.get("level").asText());
    assertTrue(List.of("SATISFIED", "VIOLATED").contains(mixed.get("verdict").asText()), mixed.toString());
    assertEquals(0, si.exit(), si.err());
    assertEquals("SATISFIED", new ObjectMapper().readTree(si.out()).at("/levels/0/verdict").asText(), si.out());
  }

  @Test
  void shouldTimeTheOnlineEngineWhenAskedForIt() throws Exception {
    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--engine", "online", "--txns", "3000", "--levels", "SSER,SI",
        "--repeat", "1", "--warmup", "0", "--inject", "WriteSkew:2", "--json");

    // Then: the incremental engine's verdicts (write skew violates SSER, SI allows it)
    assertEquals(0, run.exit(), run.err());
    final JsonNode doc = new ObjectMapper().readTree(run.out());
    assertEquals("online", doc.get("engine").asText());
    assertEquals("VIOLATED", doc.at("/levels/0/verdict").asText());
    assertEquals(2, doc.at("/levels/0/anomaliesByName/WriteSkew").asLong(), doc.at("/levels/0").toString());
    assertEquals("SATISFIED", doc.at("/levels/1/verdict").asText());
  }

  @Test
  void shouldTimeTheStreamingEngineWithTheSameVerdictsAsTheWholeHistoryCheck() throws Exception {
    // Given: a history with a fractured read, which violates RA and CC and leaves RC satisfied
    final String[] args = {"--txns", "3000", "--sessions", "20", "--levels", "RC,RA,CC", "--repeat", "1",
        "--warmup", "0", "--inject", "FracturedRead:1", "--json"};

    // When: the same history through the streaming engine and through the whole-history check
    final CliRun streaming = CliRun.of(new BenchCommand(), concat(new String[] {"--engine", "streaming"}, args));
    final CliRun online = CliRun.of(new BenchCommand(), concat(new String[] {"--engine", "online"}, args));

    // Then: both ran, under their names, and agree level by level
    assertEquals(0, streaming.exit(), streaming.err());
    assertEquals(0, online.exit(), online.err());
    final JsonNode s = new ObjectMapper().readTree(streaming.out());
    final JsonNode o = new ObjectMapper().readTree(online.out());
    assertEquals("streaming", s.get("engine").asText());
    assertEquals("online", o.get("engine").asText());
    assertEquals("SATISFIED", s.at("/levels/0/verdict").asText(), s.at("/levels/0").toString());
    assertEquals("VIOLATED", s.at("/levels/1/verdict").asText(), s.at("/levels/1").toString());
    assertEquals("VIOLATED", s.at("/levels/2/verdict").asText(), s.at("/levels/2").toString());
    for (int i = 0; i < 3; i++) {
      assertEquals(o.at("/levels/" + i + "/verdict").asText(), s.at("/levels/" + i + "/verdict").asText());
    }
  }

  private static String[] concat(final String[] a, final String[] b) {
    final String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  @Test
  void shouldExitTwoSayingTheBatchEngineWasRemovedWhenAskedForIt() {
    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--engine", "batch", "--txns", "10");

    // Then: a script comparing the two engines fails rather than timing the online engine twice
    assertEquals(2, run.exit());
    assertEquals("", run.out());
    assertTrue(run.err().contains("the batch engine was removed: check, the agent and the topology run the online "
        + "engine, and bench times it (use --engine online, or leave --engine out)"), run.err());
  }

  @Test
  void shouldTimeParsingSeparatelyWhenGivenAFile(@TempDir final Path dir) throws Exception {
    // Given
    final Path file = dir.resolve("h.jsonl");
    assertEquals(0, CliRun.of(new GenerateCommand(), "--txns", "3000", "--inject", "WriteSkew", "--out",
        file.toString()).exit());

    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--file", file.toString(), "--levels", "SI,SER", "--repeat",
        "2", "--warmup", "0", "--json");

    // Then
    assertEquals(0, run.exit(), run.err());
    final JsonNode doc = new ObjectMapper().readTree(run.out());
    assertEquals(file.toString(), doc.at("/input/source").asText());
    assertEquals("parse", doc.at("/input/loadStep").asText());
    assertEquals(Files.size(file), doc.at("/input/fileBytes").asLong());
    assertEquals(2, doc.at("/input/load/seconds").size());
    assertEquals(3000, doc.at("/input/transactions").asLong());
    assertEquals("SATISFIED", doc.at("/levels/0/verdict").asText());
    assertEquals("VIOLATED", doc.at("/levels/1/verdict").asText());
    assertEquals(1, doc.at("/levels/1/anomaliesByName/WriteSkew").asLong());
    assertTrue(run.err().contains("parse run 2/2"), run.err());
  }

  @Test
  void shouldExitTwoNamingTheLineWhenTheFileIsInvalid(@TempDir final Path dir) throws Exception {
    // Given
    final Path file = dir.resolve("bad.jsonl");
    Files.writeString(file, "{\"session\":\"s\",\"txn\":\"t\",\"status\":\"committed\",\"ops\":[]}\n{oops\n");

    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--file", file.toString(), "--format", "jsonl");

    // Then
    assertEquals(2, run.exit());
    assertTrue(run.err().startsWith("error: invalid history " + file + ": line 2"), run.err());
  }

  @Test
  void shouldPrintATableWithOneRowPerLevelByDefault() {
    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--txns", "2000", "--levels", "SSER,SER", "--repeat", "1",
        "--warmup", "0");

    // Then
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("history: generated, 2,000 transactions, 0 injected anomalies"), run.out());
    assertTrue(run.out().matches("(?s).*\\nSSER +SATISFIED .*\\nSER +SATISFIED .*"), run.out());
    assertTrue(run.out().contains("retained heap:"), run.out());
  }

  @Test
  void shouldTimeAGeneratedListAppendHistoryWhenTheWorkloadIsListAppend() {
    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--workload", "list-append", "--txns", "2000", "--levels",
        "SSER,SER,SI", "--repeat", "1", "--warmup", "0");

    // Then
    assertEquals(0, run.exit(), run.err());
    assertTrue(run.out().contains("history: generated, 2,000 transactions, 0 injected anomalies (list-append, level SER, "
        + "20 sessions, 1000 active keys, 1-4 ops, read ratio 0.5, 32 appends per key, seed 1)"), run.out());
    assertTrue(run.out().matches("(?s).*\\nSSER +SATISFIED .*\\nSER +SATISFIED .*\\nSI +SATISFIED .*"), run.out());
  }

  @Test
  void shouldExitTwoNamingTheSupportedWorkloadWhenAnInjectionIsAskedForAnotherWorkload() {
    for (final String w : List.of("rw-register", "list-append")) {
      // When
      final CliRun run = CliRun.of(new BenchCommand(), "--workload", w, "--txns", "200", "--inject", "LostUpdate:2",
          "--repeat", "1", "--warmup", "0");

      // Then: refused as generate refuses it, not a correct history timed as if it held the anomalies
      assertEquals(2, run.exit(), w + ": " + run.err());
      assertEquals("error: --inject is supported only with --workload mt (mini-transactions); the " + w + " workload "
          + "generates histories of a correct simulated database, without injected anomalies", run.err().strip());
      assertEquals("", run.out(), w);
    }
  }

  @Test
  void shouldExitTwoWhenGeneratorOptionsAreGivenWithAFile() {
    // When
    final CliRun run = CliRun.of(new BenchCommand(), "--file", "h.jsonl", "--inject", "LostUpdate");

    // Then
    assertEquals(2, run.exit());
    assertEquals("error: --inject applies to generated histories, not to --file", run.err().strip());
  }

  /** Invalid option values, each with what the error must say. */
  static Stream<Arguments> invalidOptions() {
    return Stream.of(
        Arguments.of("unknown engine 'fast' (expected online or streaming)", List.of("--engine", "fast")),
        Arguments.of("unknown level 'XX'", List.of("--levels", "SER,XX")),
        Arguments.of("repeat >= 1", List.of("--txns", "10", "--repeat", "0")));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalidOptions")
  void shouldExitTwoSayingWhyWhenAnOptionIsInvalid(final String why, final List<String> args) {
    // When
    final CliRun run = CliRun.of(new BenchCommand(), args.toArray(String[]::new));

    // Then
    assertEquals(2, run.exit());
    assertTrue(run.err().contains(why), run.err());
  }
}
