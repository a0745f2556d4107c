package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TopicsCommandTest {
  @Test
  void shouldPrintOneRowPerTopicWhenListing() {
    // Given
    final CommandLine cmd = TopicsCommand.commandLine();
    final StringWriter out = new StringWriter();
    cmd.setOut(new PrintWriter(out));
    // When
    final int exit = cmd.execute("list");
    // Then
    final List<String> lines = out.toString().lines().toList();
    assertEquals(0, exit);
    assertEquals("name\tpartitions\treplication\tconfigs\tkey\tvalue", lines.get(0));
    assertEquals(
        "isowatch.txn-events.v1\t6\tbroker-default\t{cleanup.policy=delete, retention.ms=604800000}"
            + "\ttenant id (UTF-8 string)\tio.isowatch.schemas.TransactionEvent",
        lines.get(1));
    assertEquals(5, lines.size());
  }

  @Test
  void shouldExitWithUsageErrorWhenBootstrapServersAreMissing() {
    // Given
    final CommandLine cmd = TopicsCommand.commandLine();
    cmd.setErr(new PrintWriter(new StringWriter()));
    // When
    final int exit = cmd.execute("create");
    // Then
    assertEquals(2, exit);
  }
}
