package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.core.format.JsonlHistoryWriter;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.InjectedKind;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Issue 6's CI-sized run: a generated history of 10^6 transactions, written to a file as it is
 * generated (never held in memory), checked by {@code isowatch check --horizon-txns 20000} in a
 * child JVM limited to {@code -Xmx256m}, once as a file and once piped to stdin. It must finish, report the anomalies injected near the end
 * of the history, and report a stale read of a value overwritten near the start as
 * STALE_READ_BEYOND_HORIZON with its SSER violation, never as thin air.
 */
class SegmentedMillionIT {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentedMillionIT.class);
  private static final long TRANSACTIONS = Long.getLong("isowatch.segmented.txns", 1_000_000L);
  private static final String STALE_KEY = "k1";

  @Test
  void shouldFindTheAnomaliesPlantedNearTheEndWhenAMillionTransactionsAreCheckedWithASmallHorizonIn256Mb()
      throws Exception {
    checkInSmallHeap(false);
  }

  /** The same history piped to {@code check -}: a pipe must stream as a file does, not be read whole. */
  @Test
  void shouldFindTheSameAnomaliesIn256MbWhenTheMillionTransactionsComeThroughStdin() throws Exception {
    checkInSmallHeap(true);
  }

  private static synchronized Path history() throws Exception {
    final Path file = Path.of("target", "segmented-million.jsonl").toAbsolutePath();
    if (!Files.exists(file)) {
      writeHistory(file);
    }
    return file;
  }

  private static void checkInSmallHeap(final boolean viaStdin) throws Exception {
    // Given: LostUpdate, WriteSkew and AbortedRead injected at 99.9%, then one stale read of the
    // first value written to k1
    final Path file = history();
    final String run = viaStdin ? "stdin" : "file";
    final Path json = Path.of("target", "segmented-million-" + run + ".json").toAbsolutePath();
    final Path log = Path.of("target", "segmented-million-" + run + ".log").toAbsolutePath();

    // When
    final String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    final long started = System.nanoTime();
    final ProcessBuilder builder = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
        "-Xmx256m", "-cp", classPath, "io.isowatch.cli.Main", "check", "--horizon-txns", "20000", "--grace", "1ms",
        "--json", viaStdin ? "-" : file.toString())
        .redirectOutput(json.toFile()).redirectError(log.toFile());
    if (viaStdin) {
      builder.redirectInput(file.toFile());
    }
    final Process p = builder.start();
    final boolean finished = p.waitFor(10, TimeUnit.MINUTES);
    if (!finished) {
      p.destroyForcibly();
    }
    LOG.info("Segmented check finished=[{}] seconds=[{}] log=[{}]", finished, (System.nanoTime() - started) / 1e9, log);

    // Then
    assertTrue(finished, "the check did not finish in 10 minutes");
    assertEquals(1, p.exitValue(), "exit code; stderr: " + Files.readString(log));
    final JsonNode result = new ObjectMapper().readTree(json.toFile());
    final List<String> anomalies = new ArrayList<>();
    for (final JsonNode a : result.get("anomalies")) {
      final Set<String> txns = new TreeSet<>();
      a.get("txns").forEach(t -> txns.add(t.asText()));
      anomalies.add(a.get("name").asText() + " " + txns);
    }
    assertEquals(List.of("AbortedRead [inj4-a-0, inj4-b-0]", "LostUpdate [inj1-a-0, inj1-b-0]",
        "LostUpdate [inj2-a-0, inj2-b-0]", "WriteSkew [inj3-a-0, inj3-b-0]", "StaleReadBeyondHorizon [stale-1]"),
        anomalies);
    final List<String> kinds = new ArrayList<>();
    result.get("findings").forEach(f -> kinds.add(f.get("kind").asText()));
    assertTrue(kinds.contains("STALE_READ_BEYOND_HORIZON"), kinds.toString());
    assertTrue(kinds.contains("HORIZON_PRUNED"), kinds.toString());
    assertTrue(!kinds.contains("LATE_TRANSACTION"), kinds.toString());
    assertEquals(TRANSACTIONS + 1, result.get("stats").get("transactions").asLong());
    assertEquals("VIOLATED", result.get("verdicts").get("SSER").asText());
  }

  /** Writes the history as it is generated (never held in memory); renamed into place when whole. */
  private static void writeHistory(final Path file) throws Exception {
    final GeneratorConfig config = GeneratorConfig.defaults().withSeed(6).withTransactions(TRANSACTIONS)
        .withInjections(List.of(new Injection(InjectedKind.LOST_UPDATE, 2), new Injection(InjectedKind.WRITE_SKEW, 1),
            new Injection(InjectedKind.ABORTED_READ, 1)))
        .withInjectAt(0.999);
    final long[] firstValue = {Long.MIN_VALUE};
    final long[] overwrites = {0};
    final long[] lastEnd = {0};
    final Path partial = file.resolveSibling(file.getFileName() + ".partial");
    try (Writer w = Files.newBufferedWriter(partial, StandardCharsets.UTF_8);
        JsonlHistoryWriter out = new JsonlHistoryWriter(w)) {
      MtHistoryGenerator.generate(config, t -> {
        lastEnd[0] = Math.max(lastEnd[0], t.end());
        for (final Op op : t.ops()) {
          if (op.isWrite() && op.key().equals(STALE_KEY) && t.status() == TxnStatus.COMMITTED) {
            if (firstValue[0] == Long.MIN_VALUE) {
              firstValue[0] = op.value();
            } else {
              overwrites[0]++;
            }
          }
        }
        out.write(t);
      });
      out.write(new Transaction("stale-1", "stale-reader", 0, TxnStatus.COMMITTED, lastEnd[0] + 10, lastEnd[0] + 20,
          List.of(Op.read(STALE_KEY, firstValue[0])), null, null, 0));
    }
    assertTrue(overwrites[0] > 10, "k1 was overwritten only " + overwrites[0] + " times");
    Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }
}
