package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.format.UnwritableHistoryException;
import io.isowatch.core.format.WriteReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConvertCommandTest extends LostUpdateFixture {
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

  @Test
  void shouldReplaceAnExistingOutputFileWhenOutIsGiven() throws Exception {
    // Given
    final Path out = Files.writeString(tmp.resolve("out.jsonl"), "old content that is longer than the new one\n".repeat(5));

    // When
    final CliRun run = CliRun.run(new CliRun.Fake().services(), "convert", "--to", "jsonl", "--out", out.toString(),
        history.toString());

    // Then
    assertEquals(0, run.exit(), run.err());
    assertEquals("JSONL s1-3 [r(x,0), w(x,1)]\nJSONL s2-7 [r(x,0), w(x,2)]\n", Files.readString(out));
    try (var files = Files.list(tmp)) {
      assertEquals(List.of("h.txt", "out.jsonl"), files.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void shouldWarnOnOneLineWhenTheTargetFormatDropsSomething() {
    // Given
    final Services services = new CliRun.Fake().services()
        .withWriter((h, format, w) -> new WriteReport(2, 1, 2, 3, 4, 5, true));

    // When
    final CliRun run = CliRun.run(services, "convert", "--to", "text", history.toString());

    // Then
    assertEquals(0, run.exit(), run.err());
    assertEquals("isowatch: warning: text cannot carry everything: left out 1 aborted transaction(s); "
        + "left out 2 transaction(s) of unknown outcome; left out 3 transaction(s) without operations; "
        + "dropped the start/end times of 4 transaction(s); dropped the tenant/level of 5 transaction(s); "
        + "renumbered sessions and transaction ids\n", run.err());
  }

  @Test
  void shouldExit2AndLeaveNoFileWhenTheFormatCannotExpressTheHistory() throws Exception {
    // Given
    final Services services = new CliRun.Fake().services().withWriter((h, format, w) -> {
      w.write("partial");
      throw new UnwritableHistoryException("key 'x' is not a non-negative integer");
    });
    final Path out = tmp.resolve("out.txt");

    // When
    final CliRun run = CliRun.run(services, "convert", "--to", "text", "--out", out.toString(), history.toString());

    // Then
    assertEquals(2, run.exit());
    assertEquals("isowatch: cannot write " + history + " as text: key 'x' is not a non-negative integer\n", run.err());
    assertFalse(Files.exists(out), "an output file was left behind");
    try (var files = Files.list(tmp)) {
      assertEquals(1, files.count(), "a temporary file was left behind");
    }
  }
}
