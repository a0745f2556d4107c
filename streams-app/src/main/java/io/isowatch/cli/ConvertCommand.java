package io.isowatch.cli;

import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.history.History;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch convert}: reads a history in any supported format and writes it as JSONL or
 * text, to stdout or {@code --out FILE}. The input is read completely before any output is
 * written, so an invalid input (exit 2) leaves no partial output behind.
 */
@Command(
    name = "convert",
    sortOptions = false,
    description = "Convert a history between formats.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:converted",
      "2:invalid input or usage (the reason on stderr)",
      "3:internal error"
    })
public final class ConvertCommand implements Callable<Integer> {
  private static final Set<HistoryFormat> WRITABLE = EnumSet.of(HistoryFormat.JSONL, HistoryFormat.TEXT);

  private final Services services;

  @Spec private CommandSpec spec;

  @Option(names = "--from", paramLabel = "FORMAT", defaultValue = "auto",
      converter = Converters.FormatConverter.class,
      description = "auto|jsonl|text|elle|aion (default: ${DEFAULT-VALUE}, sniffs the content).")
  private HistoryFormat from;

  @Option(names = "--to", paramLabel = "FORMAT", required = true,
      converter = Converters.FormatConverter.class, description = "jsonl|text.")
  private HistoryFormat to;

  @Option(names = "--out", paramLabel = "FILE", description = "Write here instead of stdout.")
  private Path out;

  @Parameters(paramLabel = "FILE", description = "The history file, or - for stdin.")
  private String file;

  public ConvertCommand(final Services services) {
    this.services = services;
  }

  @Override
  public Integer call() throws IOException {
    if (!WRITABLE.contains(to)) {
      throw new ParameterException(spec.commandLine(),
          "--to must be jsonl or text, got " + to.name().toLowerCase(Locale.ROOT));
    }
    final History history = HistoryInput.read(file, from, services);
    if (out == null) {
      final PrintWriter stdout = spec.commandLine().getOut();
      services.writer().write(history, to, stdout);
      stdout.flush();
    } else {
      writeFile(history);
    }
    return ExitCodes.OK;
  }

  private void writeFile(final History history) {
    try (Writer w = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
      services.writer().write(history, to, w);
    } catch (final IOException e) {
      throw new CliFailure("cannot write " + out + ": " + e.getMessage());
    }
  }
}
