package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.KeyDistribution;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.online.OnlineChecker;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerateCommandTest {
  @TempDir
  Path dir;

  @Test
  void shouldWriteTheGeneratedHistoryAsJsonlWhenGivenAFile() throws Exception {
    // Given
    final Path out = dir.resolve("h.jsonl");

    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--txns", "2000", "--sessions", "7", "--keys", "40",
        "--dist", "hotspot", "--level", "si", "--seed", "9", "--inject", "LostUpdate:2,WriteSkew", "--out",
        out.toString());

    // Then: the file reads back as exactly the history the generator makes in memory.
    assertEquals(0, run.exit(), run.err());
    final History expected = MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(2000)
        .withSessions(7).withKeys(40).withDistribution(KeyDistribution.parse("hotspot"))
        .withLevel(SimulatedLevel.SI).withSeed(9).withInjections(Injection.parseList("LostUpdate:2,WriteSkew")));
    assertEquals(expected, HistoryIO.read(out, HistoryFormat.AUTO));
    assertEquals(2000, Files.readAllLines(out).size());
    assertTrue(run.out().startsWith("generated 2000 transactions ("), run.out());
    assertTrue(run.out().contains("injected LostUpdate at #1800: inj1-a-0,inj1-b-0 on inj1-x"), run.out());
    assertTrue(run.out().contains("injected WriteSkew at #1804: inj3-a-0,inj3-b-0 on inj3-x,inj3-y"), run.out());
    // SI allows write skew (and the SI background has some of its own): only the lost updates count.
    final CheckResult r = OnlineChecker.check(HistoryIO.read(out, HistoryFormat.JSONL),
        CheckOptions.defaults().withLevels(Set.of(Level.SI)));
    assertEquals(Map.of("LostUpdate", 2L), r.stats().anomaliesByName(), r.anomalies()::toString);
  }

  @Test
  void shouldWriteABlindWriteRegisterHistoryThatCheckDecidesWhenTheWorkloadIsRwRegister() throws Exception {
    // Given
    final Path out = dir.resolve("rw.jsonl");

    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--workload", "rw-register", "--txns", "1000", "--sessions",
        "10", "--keys", "100", "--ops", "8", "--read-ratio", "0.5", "--seed", "3", "--out", out.toString());

    // Then: blind writes everywhere, and the search of version orders decides every level (serial database)
    assertEquals(0, run.exit(), run.err());
    final History h = HistoryIO.read(out, HistoryFormat.JSONL);
    assertEquals(1000, h.size());
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults());
    assertTrue(r.findings().stream().anyMatch(f -> f.kind() == io.isowatch.core.check.FindingKind.BLIND_WRITE));
    assertEquals(Map.of(Level.SSER, io.isowatch.core.check.Verdict.SATISFIED, Level.SER,
        io.isowatch.core.check.Verdict.SATISFIED, Level.SI, io.isowatch.core.check.Verdict.SATISFIED), r.verdicts(),
        r.reasons()::toString);
  }

  @Test
  void shouldRefuseAnUnknownWorkload() {
    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--workload", "bank", "--out", dir.resolve("x").toString());

    // Then
    assertEquals(2, run.exit());
    assertTrue(run.err().contains("unknown workload 'bank' (expected mt, rw-register or list-append)"), run.err());
  }

  @Test
  void shouldWriteAListAppendHistoryThatCheckDecidesWhenTheWorkloadIsListAppend() throws Exception {
    // Given
    final Path out = dir.resolve("la.jsonl");

    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--workload", "list-append", "--txns", "2000", "--sessions",
        "20", "--keys", "10", "--max-writes-per-key", "16", "--level", "si", "--seed", "3", "--out", out.toString());

    // Then: appends and list reads, and the simulated SI database's history satisfies SI
    assertEquals(0, run.exit(), run.err());
    final History h = HistoryIO.read(out, HistoryFormat.JSONL);
    assertEquals(2000, h.size());
    assertTrue(h.transactions().stream().flatMap(t -> t.ops().stream()).anyMatch(io.isowatch.core.history.Op::isAppend));
    assertTrue(h.transactions().stream().flatMap(t -> t.ops().stream())
        .anyMatch(io.isowatch.core.history.Op::isListRead));
    final CheckResult r = OnlineChecker.check(h, CheckOptions.defaults().withLevels(java.util.Set.of(Level.SI)));
    assertEquals(io.isowatch.core.check.Verdict.SATISFIED, r.verdicts().get(Level.SI), r.reasons()::toString);
  }

  @Test
  void shouldExitTwoNamingTheSupportedWorkloadWhenAnInjectionIsAskedForAnotherWorkload() {
    for (final String w : java.util.List.of("rw-register", "list-append")) {
      // When
      final CliRun run = CliRun.of(new GenerateCommand(), "--workload", w, "--txns", "100", "--inject", "LostUpdate:2",
          "--out", dir.resolve(w + ".jsonl").toString());

      // Then: refused, not a history silently written without the anomalies
      assertEquals(2, run.exit(), w + ": " + run.err());
      assertEquals("error: --inject is supported only with --workload mt (mini-transactions); the " + w + " workload "
          + "generates histories of a correct simulated database, without injected anomalies", run.err().strip());
      assertFalse(Files.exists(dir.resolve(w + ".jsonl")), w);
    }
  }

  @Test
  void shouldWriteToStandardOutputAndReportOnStandardErrorWhenOutIsDash() throws Exception {
    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--txns", "50", "--no-times", "--out", "-");

    // Then
    assertEquals(0, run.exit(), run.err());
    final History h = HistoryIO.read(new ByteArrayInputStream(run.out().getBytes(StandardCharsets.UTF_8)),
        HistoryFormat.JSONL);
    assertEquals(MtHistoryGenerator.generateHistory(GeneratorConfig.defaults().withTransactions(50)
        .withTimestamps(false)), h);
    assertFalse(run.out().contains("\"start\""), run.out());
    assertEquals("generated 50 transactions (50 committed, 0 aborted) to standard output", run.err().strip());
  }

  @Test
  void shouldExitTwoWithTheKnownNamesWhenAnInjectionIsUnknown() {
    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--txns", "100", "--inject", "LostUpdate:2,Dirty",
        "--out", dir.resolve("h.jsonl").toString());

    // Then
    assertEquals(2, run.exit());
    assertTrue(run.err().contains("unknown anomaly 'Dirty'"), run.err());
    assertTrue(run.err().contains("WriteSkew"), run.err());
    assertFalse(Files.exists(dir.resolve("h.jsonl")));
  }

  @Test
  void shouldExitTwoWithAClearMessageWhenOptionsContradictEachOther() {
    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--txns", "3", "--inject", "LongFork", "--out",
        dir.resolve("h.jsonl").toString());

    // Then
    assertEquals(2, run.exit());
    assertEquals("error: the injections need 4 transactions but the history has only 3", run.err().strip());
    assertFalse(Files.exists(dir.resolve("h.jsonl")));
  }

  @Test
  void shouldExitTwoWhenTheDistributionIsMisspelled() {
    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--dist", "zipf:x", "--out", "-");

    // Then
    assertEquals(2, run.exit());
    assertTrue(run.err().contains("Invalid value for option '--dist': bad number in key distribution 'zipf:x'"),
        run.err());
  }

  @Test
  void shouldExitTwoWhenOutIsMissing() {
    // When
    final CliRun run = CliRun.of(new GenerateCommand(), "--txns", "10");

    // Then
    assertEquals(2, run.exit());
    assertTrue(run.err().contains("Missing required option: '--out=FILE'"), run.err());
  }
}
