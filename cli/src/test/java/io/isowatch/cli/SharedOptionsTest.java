package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** {@code --config} is one option, the same in every command that reads the checker's configuration. */
class SharedOptionsTest {
  @Test
  void shouldDeclareTheSameConfigOptionInRunResetDlqReplayAndReplay() {
    // Given
    final CommandLine main = Main.commandLine(new CliRun.Fake().services());
    final List<CommandLine> commands = List.of(main.getSubcommands().get("run"), main.getSubcommands().get("reset"),
        main.getSubcommands().get("dlq").getSubcommands().get("replay"), main.getSubcommands().get("replay"));

    // Then
    final OptionSpec first = commands.get(0).getCommandSpec().findOption("--config");
    assertNotNull(first);
    for (final CommandLine c : commands) {
      final OptionSpec o = c.getCommandSpec().findOption("--config");
      assertNotNull(o, c.getCommandName());
      assertEquals(List.of(first.description()), List.of(o.description()), c.getCommandName());
      assertEquals(first.paramLabel(), o.paramLabel(), c.getCommandName());
      assertEquals(java.nio.file.Path.class, o.type(), c.getCommandName());
    }
  }
}
