package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code isowatch check} end to end on the real checker; histories are written in the test history
 * language and read by a reader for it, so these tests do not depend on the file formats.
 */
class CheckWithEngineTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String LOST_UPDATE = "T1 s1 r(x,0) w(x,1)\nT2 s2 r(x,0) w(x,2)\n";
  private static final String TWO_LOST_UPDATES = LOST_UPDATE + "T3 s3 r(y,0) w(y,1)\nT4 s4 r(y,0) w(y,2)\n";
  private static final String STALE_READ = "T1 s1 r(x,0) w(x,1) @1..2\nT2 s2 r(x,0) @5..6\n";

  @TempDir Path tmp;

  private CliRun check(final String dsl, final String... options) throws Exception {
    return CliRun.checkDsl(tmp, dsl, options);
  }

  @Test
  void shouldReportTheLostUpdateAsJsonWhenTwoTransactionsOverwriteTheSameRead() throws Exception {
    // When
    final CliRun run = check(LOST_UPDATE, "--json");

    // Then
    assertEquals(1, run.exit(), run.err());
    final JsonNode json = MAPPER.readTree(run.out());
    assertEquals(MAPPER.readTree("{\"SSER\":\"VIOLATED\",\"SER\":\"VIOLATED\",\"SI\":\"VIOLATED\"}"), json.get("verdicts"));
    final JsonNode a = json.get("anomalies").get(0);
    assertEquals(1, json.get("anomalies").size());
    assertEquals("LostUpdate", a.get("name").asText());
    assertEquals("G-single", a.get("type").asText());
    assertEquals(MAPPER.readTree("[\"SSER\",\"SER\",\"SI\"]"), a.get("violates"));
    assertEquals(MAPPER.readTree("[\"T1\",\"T2\"]"), a.get("txns"));
    assertEquals(MAPPER.readTree("[{\"from\":\"T1\",\"to\":\"T2\",\"kind\":\"WW\",\"key\":\"x\",\"value\":1},"
        + "{\"from\":\"T2\",\"to\":\"T1\",\"kind\":\"RW\",\"key\":\"x\",\"value\":0}]"), a.get("cycle"));
    assertTrue(a.get("explanation").asText().startsWith("Let:\n"), a.get("explanation").asText());
    assertEquals(1, json.get("stats").get("anomaliesByName").get("LostUpdate").asLong());
  }

  @Test
  void shouldPrintTheCycleAndIndentedExplanationWhenReportingAsText() throws Exception {
    // When
    final CliRun run = check(LOST_UPDATE);

    // Then
    assertEquals(1, run.exit(), run.err());
    assertTrue(run.out().contains("\n[1] LostUpdate (G-single) violates SSER, SER, SI\n    transactions:\n"
        + "      T1 [r(x,0), w(x,1)]\n      T2 [r(x,0), w(x,2)]\n"
        + "    cycle: T1 -WW(x=1)-> T2 -RW(x=0)-> T1\n    explanation:\n      Let:\n"), run.out());
  }

  @Test
  void shouldDecideBlindWritesUnlessTheSolverBudgetIsZero() throws Exception {
    // Given: Elle's initial-state G2-item (keys start absent): SER violated whatever the order, SI holds
    final String g2 = "T1 p1 r(x,null) w(y,1)\nT2 p2 r(y,null) w(x,1)\n";

    // When
    final CliRun searched = check(g2, "--json", "--initial-value", "null");
    final CliRun off = check(g2, "--json", "--initial-value", "null", "--solver-budget", "0");

    // Then: the search decides SI; without it SI stays UNKNOWN with the engine's reason
    assertEquals(MAPPER.readTree("{\"SSER\":\"VIOLATED\",\"SER\":\"VIOLATED\",\"SI\":\"SATISFIED\"}"),
        MAPPER.readTree(searched.out()).get("verdicts"));
    assertEquals("UNKNOWN", MAPPER.readTree(off.out()).get("verdicts").get("SI").asText());
  }

  @Test
  void shouldSayTheBudgetRanOutWhenTheSearchCannotFinish() throws Exception {
    // Given: every version order of x and y is cyclic, which only the solver can show
    final String cyclic = "T1 s1 w(x,1) w(y,1)\nT2 s2 w(x,2) w(y,2)\nT3 s3 r(x,1) r(y,2)\nT4 s4 r(x,2) r(y,1)\n";

    // When: a budget too short for anything past the greedy order
    final CliRun run = check(cyclic, "--solver-budget", "1us");

    // Then
    assertEquals(1, run.exit(), run.err());
    assertTrue(run.out().contains("ran out of its time budget"), run.out());
  }

  @Test
  void shouldExit0WhenASerialHistoryWithTimesIsChecked() throws Exception {
    // When
    final CliRun run = check("T1 s1 r(x,0) w(x,1) @1..2\nT2 s2 r(x,1) w(x,2) @3..4\nT3 s1 r(x,2) @5..6\n");

    // Then
    assertEquals(0, run.exit(), run.out() + run.err());
    // Weakest first: the strongest level that holds is read last.
    assertTrue(run.out().startsWith("IsoWatch check: SATISFIED\n  SI    SATISFIED\n  SER   SATISFIED\n"
        + "  SSER  SATISFIED\n\nNo anomalies.\n"), run.out());
  }

  @Test
  void shouldDecideTheWeakLevelsWhenTheyAreRequested() throws Exception {
    // When: T2 reads the old x, then T1's y (a fractured read), checked at RC, RA and SI by their names
    final CliRun run = check("T1 s1 r(x,0) w(x,1) r(y,0) w(y,1)\nT2 s2 r(x,0) r(y,1)\n",
        "--levels", "read-committed,RA,snapshot");

    // Then: weakest first; the anomaly names the levels it violates among those requested and SSER, SER, SI
    assertEquals(1, run.exit(), run.out() + run.err());
    assertTrue(run.out().startsWith("IsoWatch check: VIOLATED\n  RC    SATISFIED\n  RA    VIOLATED\n"
        + "  SI    VIOLATED\n"), run.out());
    assertTrue(run.out().contains("FracturedRead (G-single) violates SSER, SER, SI, RA\n"), run.out());
  }

  @Test
  void shouldPassRealTimeOptionsThroughWhenAStaleReadIsChecked() throws Exception {
    // When
    final CliRun strict = check(STALE_READ);
    final CliRun tolerant = check(STALE_READ, "--rt-skew-us", "5");
    final CliRun withoutSser = check(STALE_READ, "--levels", "SER,SI", "--json");

    // Then
    assertEquals(1, strict.exit(), strict.err());
    assertTrue(strict.out().contains("\n[1] G-single-realtime violates SSER\n"), strict.out());
    assertEquals(0, tolerant.exit(), tolerant.out());
    assertEquals(0, withoutSser.exit(), withoutSser.out());
    assertEquals(MAPPER.readTree("{\"SER\":\"SATISFIED\",\"SI\":\"SATISFIED\"}"), MAPPER.readTree(withoutSser.out()).get("verdicts"));
  }

  @Test
  void shouldGiveTheReasonWhenSserIsUnknownForLackOfTimes() throws Exception {
    // When
    final CliRun run = check("T1 s1 r(x,0) w(x,1)\nT2 s2 r(x,1)\n", "--json");

    // Then
    assertEquals(1, run.exit(), run.err());
    final JsonNode json = MAPPER.readTree(run.out());
    assertEquals(MAPPER.readTree("{\"SSER\":\"UNKNOWN\",\"SER\":\"SATISFIED\",\"SI\":\"SATISFIED\"}"), json.get("verdicts"));
    assertTrue(json.get("reasons").get("SSER").asText().contains("real-time"), json.get("reasons").toString());
    assertEquals("MISSING_TIMESTAMPS", json.get("findings").get(0).get("kind").asText());
  }

  @Test
  void shouldTakeNullReadsFromTheInitialStateOnlyWhenInitialValueIsNull() throws Exception {
    // Given
    final String dsl = "T1 s1 r(x,null) w(x,1) @1..2\nT2 s2 r(x,1) @3..4\n";

    // When
    final CliRun absent = check(dsl, "--initial-value", "null");
    final CliRun zero = check(dsl);

    // Then
    assertEquals(0, absent.exit(), absent.out());
    assertEquals(1, zero.exit(), zero.out());
    assertTrue(zero.out().contains("\n[1] ThinAirRead (thin-air) violates SSER, SER, SI\n"), zero.out());
  }

  @Test
  void shouldListFewerButCountAllWhenMaxAnomaliesIsSmaller() throws Exception {
    // When
    final CliRun text = check(TWO_LOST_UPDATES, "--max-anomalies", "1");
    final CliRun json = check(TWO_LOST_UPDATES, "--max-anomalies", "1", "--json");

    // Then
    assertEquals(1, text.exit(), text.err());
    assertTrue(text.out().contains("\nAnomalies: showing 1 of 2; raise --max-anomalies to see more\n"), text.out());
    final JsonNode doc = MAPPER.readTree(json.out());
    assertEquals(1, doc.get("anomalies").size());
    assertEquals(2, doc.get("stats").get("anomaliesByName").get("LostUpdate").asLong());
    assertTrue(doc.get("stats").get("anomaliesTruncated").asBoolean());
  }

  @Test
  void shouldExit2NamingTheLineWhenATransactionIdRepeats() throws Exception {
    // When
    final CliRun run = check("T1 s1 r(x,0) w(x,1)\nT1 s2 r(x,1)\n", "--json");

    // Then
    assertEquals(2, run.exit(), run.out());
    assertEquals("", run.out());
    assertTrue(run.err().matches("isowatch: \\S+: line 2: DUPLICATE_TXN_ID: [^\n]*T1[^\n]*\n"), run.err());
  }

  @Test
  void shouldDrawTheEngineCycleWhenDotIsGiven() throws Exception {
    // Given
    final Path dir = tmp.resolve("dot");

    // When
    final CliRun run = check(LOST_UPDATE, "--dot", dir.toString());

    // Then
    assertEquals(1, run.exit(), run.err());
    final String dot = Files.readString(dir.resolve("anomaly-001-LostUpdate.dot"));
    assertTrue(dot.contains("  \"T1\" -> \"T2\" [label=\"WW x=1\", color=\"#c62828\""), dot);
    assertTrue(dot.contains("  \"T2\" -> \"T1\" [label=\"RW x=0\", color=\"#e07b00\""), dot);
    assertTrue(dot.contains("  \"T1\" [label=\"T1\\n[r(x,0), w(x,1)]\"];"), dot);
  }

  @Test
  void shouldFindTheSameAnomaliesWhateverTheCutFactorOfASegmentedCheck() throws Exception {
    // Given: 40 read-modify-writes on their own keys, then two lost updates; horizon 4 transactions
    final StringBuilder dsl = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      dsl.append("F").append(i).append(" q").append(i).append(" r(k").append(i).append(",0) w(k").append(i)
          .append(",1) @").append(10 * i + 1).append("..").append(10 * i + 2).append('\n');
    }
    dsl.append("T1 s1 r(x,0) w(x,1) @500..510\nT2 s2 r(x,0) w(x,2) @505..515\n");
    dsl.append("T3 s3 r(y,0) w(y,1) @600..610\nT4 s4 r(y,0) w(y,2) @605..615\n");

    // When
    final CliRun twice = check(dsl.toString(), "--json", "--grace", "1ms", "--horizon-txns", "4");
    final CliRun six = check(dsl.toString(), "--json", "--grace", "1ms", "--horizon-txns", "4",
        "--horizon-cut-factor", "6");

    // Then: both pruned, both report the two lost updates and nothing else
    for (final CliRun run : List.of(twice, six)) {
      assertEquals(1, run.exit(), run.err());
      final JsonNode json = MAPPER.readTree(run.out());
      assertEquals(2, json.get("anomalies").size(), run.out());
      assertEquals(2, json.get("stats").get("anomaliesByName").get("LostUpdate").asLong(), run.out());
      assertTrue(run.out().contains("HORIZON_PRUNED"), run.out());
    }
    assertEquals(MAPPER.readTree(twice.out()).get("anomalies"), MAPPER.readTree(six.out()).get("anomalies"));
  }

  @Test
  void shouldWaitForTheWriterOfAReadUpToTheAbsenceBoundWhenASegmentedCheckIsGivenOne() throws Exception {
    // Given: R reads x=5; its writer W comes last in the file, 4 ms of end times later; horizon 4
    // transactions, so R's ThinAirRead would be carried beyond a cut before W comes
    final StringBuilder dsl = new StringBuilder("R s0 r(x,5) @10..20\n");
    for (int i = 0; i < 40; i++) {
      dsl.append("F").append(i).append(" q").append(i).append(" r(k").append(i).append(",0) w(k").append(i)
          .append(",1) @").append(100 * i + 101).append("..").append(100 * i + 102).append('\n');
    }
    dsl.append("W s1 r(x,0) w(x,5) @5..15\n");

    // When
    final CliRun graceOnly = check(dsl.toString(), "--json", "--grace", "1ms", "--horizon-txns", "4");
    final CliRun bounded = check(dsl.toString(), "--json", "--grace", "1ms", "--absence-bound", "10ms",
        "--horizon-txns", "4");

    // Then: with the grace alone the read was a ThinAirRead, carried beyond a cut, and W retracts it
    // when it comes (docs/streaming.md, "Across cuts and restarts"); with the bound R's read still
    // waits when W comes. Either way nothing is violated
    assertEquals(0, graceOnly.exit(), graceOnly.out());
    assertEquals(0, MAPPER.readTree(graceOnly.out()).get("anomalies").size());
    assertEquals(0, bounded.exit(), bounded.out());
    assertEquals(0, MAPPER.readTree(bounded.out()).get("anomalies").size());

    // ... and with an aborted W the two differ: the ThinAirRead published before the cut stands (the
    // read was an aborted read, which violates the same levels), the waiting read is an AbortedRead
    final String aborted = dsl.toString().replace("W s1 r(x,0) w(x,5) @5..15", "W s1 r(x,0) w(x,5) aborted @5..15");
    final CliRun graceOnlyAborted = check(aborted, "--json", "--grace", "1ms", "--horizon-txns", "4");
    final CliRun boundedAborted = check(aborted, "--json", "--grace", "1ms", "--absence-bound", "10ms",
        "--horizon-txns", "4");
    assertEquals("ThinAirRead",
        MAPPER.readTree(graceOnlyAborted.out()).get("anomalies").get(0).get("name").asText(), graceOnlyAborted.out());
    assertEquals("AbortedRead",
        MAPPER.readTree(boundedAborted.out()).get("anomalies").get(0).get("name").asText(), boundedAborted.out());
  }

  @Test
  void shouldReportTheRetiredFiltersInTheJsonStatsOnlyWhenASegmentedCheckPruned() throws Exception {
    // Given: 40 read-modify-writes of one key, then a read of a value never written to it
    final StringBuilder dsl = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      dsl.append("F").append(i).append(" q r(x,").append(i).append(") w(x,").append(i + 1).append(") @")
          .append(10 * i + 1).append("..").append(10 * i + 2).append('\n');
    }
    dsl.append("Z z r(x,999) @900..910\n");

    // When
    final CliRun segmented = check(dsl.toString(), "--json", "--grace", "1ms", "--horizon-txns", "4");
    final CliRun whole = check(dsl.toString(), "--json");

    // Then: the thin-air read is one in both; only the segmented document has stats.retired
    final JsonNode retired = MAPPER.readTree(segmented.out()).get("stats").get("retired");
    // x=0 (the initial version) and x=1..36: the writes of the transactions pruned by the last cut
    assertEquals(37, retired.get("versions").asLong(), segmented.out());
    assertTrue(retired.get("falsePositiveRatio").asDouble() < retired.get("falsePositiveBound").asDouble(),
        segmented.out());
    assertEquals(0.001, retired.get("falsePositiveBound").asDouble(), segmented.out());
    assertEquals(1, MAPPER.readTree(segmented.out()).get("stats").get("anomaliesByName").get("ThinAirRead").asLong());
    assertEquals(null, MAPPER.readTree(whole.out()).get("stats").get("retired"), whole.out());
    // ... and next to it the exact run-sets: x=0..36 are one run, held exactly, the filters empty
    final JsonNode runs = MAPPER.readTree(segmented.out()).get("stats").get("retiredRuns");
    assertEquals(1, runs.get("runs").asLong(), segmented.out());
    assertEquals(16, runs.get("bytes").asLong(), segmented.out());
    assertEquals(37, runs.get("versions").asLong(), segmented.out());
    assertEquals(0, retired.get("filterBytes").asLong(), segmented.out());
    assertEquals(null, MAPPER.readTree(whole.out()).get("stats").get("retiredRuns"), whole.out());
  }
}
