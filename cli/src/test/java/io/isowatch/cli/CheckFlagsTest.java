package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.format.HistoryFormat;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code check} and {@code replay} take the check options from one {@link CheckFlags} mixin (and
 * the history format from one {@link HistoryFormatOption}): the same names, labels, types and
 * defaults, and with nothing given the core's {@link CheckOptions#defaults()}.
 */
class CheckFlagsTest {
  private static final List<String> SHARED = List.of("--levels", "--promise", "--initial-value", "--rt-skew-us",
      "--max-anomalies", "--format");

  @Test
  void shouldDeclareTheSameCheckOptionsWithTheSameDefaultsInCheckAndReplay() {
    // Given
    final CommandSpec check = subcommand("check");
    final CommandSpec replay = subcommand("replay");

    // Then
    for (final String name : SHARED) {
      final OptionSpec c = check.findOption(name);
      final OptionSpec r = replay.findOption(name);
      assertNotNull(c, "check lacks " + name);
      assertNotNull(r, "replay lacks " + name);
      assertEquals(c.defaultValue(), r.defaultValue(), name);
      assertEquals(c.paramLabel(), r.paramLabel(), name);
      assertEquals(c.type(), r.type(), name);
      assertEquals(List.of(c.description()), List.of(r.description()), name);
    }
    assertEquals(CheckFlags.DEFAULT_LEVELS, check.findOption("--levels").defaultValue());
    assertEquals(CheckFlags.DEFAULT_LEVELS, subcommand("bench").findOption("--levels").defaultValue());
  }

  @Test
  void shouldAddOnlyTheLevelsTheStreamingCheckerDecidesWhenReplayIsGivenAPromise() {
    // Given: replay with a promise of PostgreSQL READ COMMITTED (RC, PL2; not given: RA, SI)
    final CheckFlags replay = flags("replay", "--file", "h.txt", "--promise", "postgres:read-committed");

    // When: the streaming checker decides what CarriedLevels reads from its check.levels validator
    final CheckOptions options = replay.options(io.isowatch.streams.CarriedLevels.all());

    // Then: every level it decides of those the promise asks for, and check decides them all
    assertEquals(EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.SI, Level.SER).stream()
        .filter(io.isowatch.streams.CarriedLevels.all()::contains).toList(), List.copyOf(options.levels()));
    assertTrue(options.levels().containsAll(EnumSet.of(Level.SI, Level.SER)), options.levels().toString());
    assertEquals(EnumSet.of(Level.PL2, Level.RC, Level.RA, Level.SI, Level.SER), replay.options().levels());
  }

  @Test
  void shouldReadTheCoreDefaultsWhenNoCheckOptionIsGivenToCheckOrReplay() {
    // When
    final CheckFlags check = flags("check", "h.txt");
    final CheckFlags replay = flags("replay", "--file", "h.txt");

    // Then
    assertEquals(CheckOptions.defaults(), check.options());
    assertEquals(CheckOptions.defaults(), replay.options());
    assertEquals(HistoryFormat.AUTO, format("check", "h.txt"));
    assertEquals(HistoryFormat.AUTO, format("replay", "--file", "h.txt"));
  }

  @Test
  void shouldReadTheSameOptionsWhenCheckAndReplayAreGivenTheSameFlags() {
    // Given
    final String[] given = {"--levels", "si,serializable", "--initial-value", "null", "--rt-skew-us", "250",
        "--max-anomalies", "5"};

    // When
    final CheckFlags check = flags("check", concat(given, "h.txt"));
    final CheckFlags replay = flags("replay", concat(given, "--file", "h.txt"));

    // Then
    final CheckOptions expected = new CheckOptions(EnumSet.of(Level.SER, Level.SI), null, 250, 5);
    assertEquals(expected, check.options());
    assertEquals(expected, replay.options());
  }

  @Test
  void shouldTellTheOptionsGivenFromThoseLeftAtTheirDefaultWhenReplayingATopic() {
    // When
    final CheckFlags replay = flags("replay", "--topic", "t", "--from-beginning", "--levels", "SER");

    // Then
    assertTrue(replay.given("--levels"));
    assertFalse(replay.given("--initial-value"));
    assertFalse(replay.given("--rt-skew-us"));
    assertFalse(replay.given("--max-anomalies"));
  }

  @Test
  void shouldRejectTheSameOutOfRangeValuesInCheckAndReplay() {
    for (final String[] bad : List.of(new String[] {"--rt-skew-us", "-1"}, new String[] {"--max-anomalies", "0"})) {
      // When
      final CheckFlags check = flags("check", concat(bad, "h.txt"));
      final CheckFlags replay = flags("replay", concat(bad, "--file", "h.txt"));

      // Then
      final String c = assertThrowsParameter(check);
      assertEquals(c, assertThrowsParameter(replay));
      assertTrue(c.startsWith(bad[0] + " must be"), c);
    }
  }

  private static String assertThrowsParameter(final CheckFlags flags) {
    return org.junit.jupiter.api.Assertions.assertThrows(CommandLine.ParameterException.class, flags::options)
        .getMessage();
  }

  private static CommandSpec subcommand(final String name) {
    return Main.commandLine(new CliRun.Fake().services()).getSubcommands().get(name).getCommandSpec();
  }

  /** The command's CheckFlags after parsing {@code args} (nothing runs). */
  private static CheckFlags flags(final String command, final String... args) {
    return (CheckFlags) parsed(command, args).mixins().get("checkFlags").userObject();
  }

  private static HistoryFormat format(final String command, final String... args) {
    return ((HistoryFormatOption) parsed(command, args).mixins().get("historyFormat").userObject()).format();
  }

  private static CommandSpec parsed(final String command, final String... args) {
    final CommandLine cl = Main.commandLine(new CliRun.Fake().services());
    final List<String> all = new ArrayList<>(List.of(command));
    all.addAll(List.of(args));
    cl.parseArgs(all.toArray(String[]::new));
    return cl.getSubcommands().get(command).getCommandSpec();
  }

  private static String[] concat(final String[] head, final String... tail) {
    final List<String> all = new ArrayList<>(List.of(head));
    all.addAll(List.of(tail));
    return all.toArray(String[]::new);
  }
}
