package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.format.JsonlHistoryWriter;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.MtHistoryGenerator;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10 item 7, for real: {@code isowatch} in a child JVM with a heap too small for the history
 * ends with exit 3 and one line saying so (the -Xmx in effect, ISOWATCH_JAVA_OPTS), never with the
 * JVM's exit 1 for an uncaught OutOfMemoryError, which reads as "VIOLATED or UNKNOWN"; a grace that
 * holds back more than the heap keeps is named; hostile EDN is exit 2, not a StackOverflowError.
 */
class OutOfMemoryExitIT {
  /** 100,000 generated transactions, about 2.4 s of end time (about 41,000 per second). */
  private static final long TRANSACTIONS = 100_000;

  @TempDir static Path tmp;
  private static Path history;

  private record Exit(int code, String out, String err) {}

  @BeforeAll
  static void generateHistory() throws IOException {
    history = tmp.resolve("h100k.jsonl");
    try (Writer w = Files.newBufferedWriter(history, StandardCharsets.UTF_8);
        JsonlHistoryWriter out = new JsonlHistoryWriter(w)) {
      MtHistoryGenerator.generate(GeneratorConfig.defaults().withSeed(8).withTransactions(TRANSACTIONS), out::write);
    }
  }

  @Test
  void shouldExit3WithTheHeapLineWhenTheHistoryDoesNotFitTheHeap() throws Exception {
    // When: a whole-history check (it holds the history) in 32 MiB
    final Exit exit = isowatch("-Xmx32m", "check", "--json", history.toString());

    // Then
    assertEquals(3, exit.code(), exit.err());
    assertEquals("", exit.out());
    assertTrue(exit.err().matches("isowatch: out of memory: the Java heap \\(-Xmx\\d+m in effect\\) is too small for this"
        + " run \\(check without a horizon holds the whole history\\); raise it with ISOWATCH_JAVA_OPTS=-Xmx\\d+[mg]"
        + " or bound it with --horizon-txns N\n"), exit.err());
  }

  @Test
  void shouldExit3NamingTheGraceWhenTheGraceHoldsBackMoreThanTheHeapKeeps() throws Exception {
    // When: --grace 1s holds back about 41,000 transactions; the horizon keeps at most 4,000
    final Exit exit = isowatch("-Xmx64m", "check", "--horizon-txns", "2000", "--grace", "1s", history.toString());

    // Then: stopped by the budget before the heap was gone, or out of memory with the grace named
    assertEquals(3, exit.code(), exit.err());
    assertEquals("", exit.out());
    assertEquals(1, exit.err().lines().count(), exit.err());
    assertTrue(exit.err().contains("--grace 1s holds back about ") && exit.err().contains("-Xmx")
        && exit.err().contains("ISOWATCH_JAVA_OPTS=-Xmx"), exit.err());
  }

  @Test
  void shouldExit0WhenTheSameHistoryIsCheckedWithAGraceThatFits() throws Exception {
    // When: the same heap and horizon with a grace of 1 ms
    final Exit exit = isowatch("-Xmx64m", "check", "--horizon-txns", "2000", "--grace", "1ms", "--json",
        history.toString());

    // Then: no false refusal
    assertEquals(0, exit.code(), exit.err());
    assertTrue(exit.out().contains("\"verdicts\""), exit.out());
  }

  @Test
  void shouldExit2NamingTheLimitWhenAnEdnFileNestsDiscardsTooDeeply() throws Exception {
    // Given: the reported case, which died with StackOverflowError and exit 1
    final Path edn = Files.writeString(tmp.resolve("deep.edn"), "#_[".repeat(100_000));

    // When
    final Exit exit = isowatch("-Xmx64m", "check", "--format", "elle", edn.toString());

    // Then
    assertEquals(2, exit.code(), exit.err());
    assertEquals("isowatch: " + edn + ": line 1: EDN: forms nested too deeply (input limit max-depth=256, system"
        + " property isowatch.input.max-depth)\n", exit.err());
  }

  private static Exit isowatch(final String heap, final String... args) throws Exception {
    final String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    final List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), heap,
        "-cp", classPath, "io.isowatch.cli.Main"));
    command.addAll(List.of(args));
    final Path out = Files.createTempFile(tmp, "out", ".txt");
    final Path err = Files.createTempFile(tmp, "err", ".txt");
    final Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("isowatch " + String.join(" ", args) + " did not finish in 5 minutes");
    }
    return new Exit(p.exitValue(), Files.readString(out), Files.readString(err));
  }
}
