package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.testkit.ResultFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConvertCommandTest {
  @TempDir Path tmp;
  private Path history;

  @BeforeEach
  void writeHistory() throws Exception {
    history = tmp.resolve("h.txt");
    Files.writeString(history, ResultFixtures.LOST_UPDATE_DSL);
  }

  @Test
  void shouldWriteToStdoutInTheTargetFormatWhenNoOutIsGiven() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake();

    // When
    final CliRun run = CliRun.run(fake.services(), "convert", "--from", "text", "--to", "jsonl", history.toString());

    // Then
    assertEquals(0, run.exit(), run.err());
    assertEquals("JSONL s1-3 [r(x,0), w(x,1)]\nJSONL s2-7 [r(x,0), w(x,2)]\n", run.out());
    assertEquals(List.of(HistoryFormat.TEXT), fake.formatsRead);
    assertEquals("", run.err());
  }

  @Test
  void shouldWriteTheFileAndNothingToStdoutWhenOutIsGiven() throws Exception {
    // Given
    final CliRun.Fake fake = new CliRun.Fake();
    final Path out = tmp.resolve("out.txt");

    // When
    final CliRun run = CliRun.run(fake.services(), "convert", "--to", "TEXT", "--out", out.toString(), history.toString());

    // Then
    assertEquals(0, run.exit(), run.err());
    assertEquals("", run.out());
    assertEquals("TEXT s1-3 [r(x,0), w(x,1)]\nTEXT s2-7 [r(x,0), w(x,2)]\n", Files.readString(out));
    assertEquals(List.of(HistoryFormat.AUTO), fake.formatsRead);
  }

  @Test
  void shouldExit2WithUsageWhenTheTargetFormatIsNotWritable() {
    // Given
    final CliRun.Fake fake = new CliRun.Fake();

    for (final String to : List.of("elle", "auto")) {
      // When
      final CliRun run = CliRun.run(fake.services(), "convert", "--to", to, history.toString());

      // Then
      assertEquals(2, run.exit(), to);
      assertEquals("", run.out());
      assertTrue(run.err().startsWith("--to must be jsonl or text, got " + to + "\n"), run.err());
      assertTrue(run.err().contains("Usage: isowatch convert"), run.err());
    }
    assertTrue(fake.formatsRead.isEmpty(), "read the input despite an unwritable target");
  }

  @Test
  void shouldExit2WhenToIsMissing() {
    // When
    final CliRun run = CliRun.run(new CliRun.Fake().services(), "convert", history.toString());

    // Then
    assertEquals(2, run.exit());
    assertTrue(run.err().contains("Missing required option: '--to=FORMAT'"), run.err());
  }

  @Test
  void shouldLeaveNoOutputFileWhenTheInputIsInvalid() {
    // Given
    final Services services = new CliRun.Fake().services().withReader((in, format) -> {
      throw new InvalidHistoryException(12, "op 'x' is neither r nor w");
    });
    final Path out = tmp.resolve("out.jsonl");

    // When
    final CliRun run = CliRun.run(services, "convert", "--to", "jsonl", "--out", out.toString(), history.toString());

    // Then
    assertEquals(2, run.exit());
    assertEquals("isowatch: " + history + ": line 12: op 'x' is neither r nor w\n", run.err());
    assertFalse(Files.exists(out), "an output file was created for an invalid input");
  }

  @Test
  void shouldExit2WhenTheOutputCannotBeWritten() {
    // Given
    final Path out = tmp.resolve("no-such-dir/out.jsonl");

    // When
    final CliRun run = CliRun.run(new CliRun.Fake().services(), "convert", "--to", "jsonl", "--out", out.toString(),
        history.toString());

    // Then
    assertEquals(2, run.exit());
    assertTrue(run.err().startsWith("isowatch: cannot write " + out + ": "), run.err());
    assertFalse(run.err().contains("\tat "), "stack trace: " + run.err());
  }
}
