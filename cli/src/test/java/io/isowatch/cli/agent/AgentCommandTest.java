package io.isowatch.cli.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.agent.cli.AgentCommand;
import io.isowatch.agent.cli.Durations;
import io.isowatch.cli.CliRun;
import io.isowatch.cli.Main;
import io.isowatch.cli.Services;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.history.History;
import io.isowatch.core.listappend.ListAppendCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine.Command;

class AgentCommandTest {
  private static CliRun run(final String... args) {
    return CliRun.of(new AgentCommand(), args);
  }

  @Test
  void shouldRecordAHistoryAndPrintTheSummaryWhenRunAgainstH2(@TempDir final Path dir) throws Exception {
    // Given
    final Path file = dir.resolve("h2.jsonl");

    // When
    final CliRun r = run("--target", "h2", "--isolation", "snapshot", "--sessions", "4", "--keys", "20",
        "--txns", "400", "--seed", "1", "--out", file.toString(), "--progress", "0", "--reconnect-after-abort");

    // Then
    assertEquals(0, r.exit(), r.err());
    final History h = HistoryIO.read(file, HistoryFormat.JSONL);
    assertEquals(400, h.size());
    assertTrue(r.out().contains("agent summary"), r.out());
    assertTrue(r.out().contains("transactions  400 in"), r.out());
    assertTrue(r.out().contains("abort rate"), r.out());
    assertTrue(r.out().contains("seed 1"), r.out());
    assertTrue(h.transactions().stream().allMatch(t -> "snapshot".equals(t.level())));
  }

  @Test
  void shouldRecordAndCheckAListAppendHistoryWhenAskedForTheListAppendWorkload(@TempDir final Path dir)
      throws Exception {
    // Given
    final Path file = dir.resolve("lists.jsonl");

    // When
    final CliRun r = run("--target", "h2", "--isolation", "serializable", "--workload", "list-append", "--sessions", "2",
        "--keys", "4", "--txns", "200", "--seed", "3", "--out", file.toString(), "--check", "--progress", "0");

    // Then: the 200 transactions and the final read, with appends and list reads, decided
    assertEquals(0, r.exit(), r.err());
    final History h = HistoryIO.read(file, HistoryFormat.JSONL);
    assertEquals(201, h.size());
    assertTrue(ListAppendCheck.isListAppend(h));
    assertTrue(h.transactions().stream().flatMap(t -> t.ops().stream()).anyMatch(op -> op.isAppend()));
    assertTrue(r.err().contains("list-append of 1-4 ops per transaction"), r.err());
    // H2's SERIALIZABLE holds SI (H2AgentTest) but lets write skew through on lists: SI is what it promises here.
    assertTrue(r.out().contains("SI SATISFIED"), r.out());
  }

  @Test
  void shouldRefuseListAppendOptionsThatDoNotApply() {
    // Given / When / Then
    assertTrue(run("--target", "faulty", "--workload", "list-append", "--txns", "10", "--out", "-").err()
        .contains("--workload list-append needs a JDBC target"));
    assertTrue(run("--target", "h2", "--workload", "list-append", "--shapes", "R1", "--txns", "10", "--out", "-").err()
        .contains("--shapes applies to --workload mini-transactions"));
    assertTrue(run("--target", "h2", "--ops-per-txn", "3", "--txns", "10", "--out", "-").err()
        .contains("--ops-per-txn applies to --workload list-append"));
    assertTrue(run("--target", "h2", "--workload", "bank", "--txns", "10", "--out", "-").err()
        .contains("unknown --workload 'bank'"));
    assertEquals(2, run("--target", "h2", "--workload", "list-append", "--ops-per-txn", "0", "--txns", "10",
        "--out", "-").exit());
  }

  @ParameterizedTest
  @CsvSource({
    "uniform, uniform",
    "zipf:0.9, zipf:0.9",
    "zipf, zipf:0.99",
    "hotspot, hotspot:0.2:0.8",
    "hotspot:0.8:0.2, hotspot:0.2:0.8",
    "hotspot:0.1:0.9, hotspot:0.1:0.9",
    "exponential, exponential:10.0"})
  void shouldAcceptTheDocumentedDistributionsInTheGeneratorsSpelling(final String dist, final String spec) {
    // Given / When: the and README's spellings
    final CliRun r = run("--target", "faulty", "--sessions", "2", "--keys", "10", "--txns", "20", "--seed", "3",
        "--dist", dist, "--check", "--progress", "0");

    // Then: read as isowatch generate reads them (one KeyDistribution)
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("10 keys, " + spec + ", shapes"), r.out());
  }

  @Test
  void shouldReportInjectedFaultsAndTheirDetectionWhenChecking() {
    // Given / When
    final CliRun r = run("--target", "faulty:lostupdate=0.2,session=0.2", "--sessions", "4", "--keys", "8",
        "--txns", "2000", "--seed", "2", "--check", "--progress", "0");

    // Then
    assertEquals(0, r.exit(), r.err());
    assertTrue(r.out().contains("lostupdate detected as LostUpdate"), r.out());
    assertTrue(r.out().contains("session detected as SessionGuaranteeViolation"), r.out());
    assertTrue(r.out().contains("SER VIOLATED"), r.out());
  }

  @Test
  void shouldRequireARegistryAndATenantWhenPublishingToKafka() {
    // Given / When
    final CliRun noRegistry = run("--target", "h2", "--txns", "10", "--kafka", "localhost:9092", "--tenant", "t1");
    final CliRun noTenant = run("--target", "h2", "--txns", "10", "--kafka", "localhost:9092",
        "--registry", "http://127.0.0.1:8081");
    final CliRun registryPath = run("--target", "h2", "--txns", "10", "--kafka", "localhost:9092",
        "--registry", "http://127.0.0.1:8081/apis", "--tenant", "t1");

    // Then
    assertEquals(2, noRegistry.exit());
    assertTrue(noRegistry.err().contains("--kafka needs --registry URL"), noRegistry.err());
    assertEquals(2, noTenant.exit());
    assertTrue(noTenant.err().contains("--kafka needs --tenant T"), noTenant.err());
    assertEquals(2, registryPath.exit());
    assertTrue(registryPath.err().contains("registry URL must be the base URL without a path"), registryPath.err());
  }

  @Test
  void shouldRejectSnapshotIsolationOnPostgresBeforeConnecting() {
    // Given / When
    final CliRun r = run("--target", "jdbc:postgresql://127.0.0.1:1/none", "--isolation", "snapshot",
        "--txns", "10", "--out", "-");

    // Then
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("isolation level snapshot is not supported by postgresql"), r.err());
  }

  @Test
  void shouldExitOneWithTheReasonWhenTheDatabaseIsUnreachable(@TempDir final Path dir) {
    // Given / When
    final CliRun r = run("--target", "jdbc:postgresql://127.0.0.1:1/none", "--txns", "10",
        "--out", dir.resolve("x.jsonl").toString(), "--progress", "0");

    // Then
    assertEquals(1, r.exit());
    assertTrue(r.err().contains("cannot prepare the target: cannot connect to jdbc:postgresql://127.0.0.1:1/none"), r.err());
  }

  @Test
  void shouldRejectBadOptionsAsUsageErrors() {
    // Given / When / Then
    assertTrue(run("--target", "h2", "--txns", "10", "--out", "-", "--dist", "gauss").err()
        .contains("unknown key distribution 'gauss'"));
    assertTrue(run("--target", "h2", "--txns", "10", "--out", "-", "--shapes", "W1").err()
        .contains("W1 must be preceded by R1"));
    assertTrue(run("--target", "h2", "--txns", "10").err().contains("nothing would be recorded"));
    assertEquals(2, run("--target", "h2", "--txns", "0", "--out", "-").exit());
    assertEquals(2, run("--target", "h2", "--duration", "ten", "--out", "-").exit());
  }

  @Test
  void shouldBeTheAgentSubcommandOfIsowatch() {
    // Given / When
    final List<Object> commands = Main.commandLine(Services.real()).getSubcommands().values().stream()
        .map(picocli.CommandLine::getCommand).toList();

    // Then
    assertTrue(commands.stream().anyMatch(c -> c instanceof AgentCommand), "found " + commands);
    assertEquals("agent", AgentCommand.class.getAnnotation(Command.class).name());
  }

  @Test
  void shouldParseDurationsInEveryAcceptedSpelling() {
    // Given / When / Then
    assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
    assertEquals(Duration.ofMinutes(90), Durations.parse("1h30m"));
    assertEquals(Duration.ofSeconds(30), Durations.parse("PT30S"));
    assertEquals(Duration.ZERO, Durations.parse("0"));
  }
}
