package io.isowatch.cli;

import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.UnwritableHistoryException;
import io.isowatch.core.format.WriteReport;
import io.isowatch.core.history.History;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
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
 * text, to stdout or {@code --out FILE}.
 *
 * <p>The input is read completely before anything is written, and {@code --out} is written to a
 * temporary file moved into place at the end, so a failure (exit 2) leaves no partial output file.
 * What the target format cannot carry (text has no aborted transactions, times or tenants) is
 * dropped with one warning line on stderr, and the exit code stays 0; a history the format cannot
 * express at all (e.g. non-integer keys in text) is exit 2.
 */
@Command(
    name = "convert",
    sortOptions = false,
    description = "Convert a history between formats.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:converted (a warning on stderr says what the target format could not carry)",
      "2:invalid input or usage, or a history the target format cannot express (the reason on stderr)",
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
    final WriteReport report;
    try {
      report = out == null ? writeStdout(history) : writeFile(history);
    } catch (final UnwritableHistoryException e) {
      throw new CliFailure("cannot write " + HistoryInput.displayName(file) + " as "
          + to.name().toLowerCase(Locale.ROOT) + ": " + e.getMessage());
    }
    if (!report.isLossless()) {
      spec.commandLine().getErr().println("isowatch: warning: " + loss(to, report));
    }
    return ExitCodes.OK;
  }

  private WriteReport writeStdout(final History history) throws IOException {
    final PrintWriter stdout = spec.commandLine().getOut();
    final WriteReport report = services.writer().write(history, to, stdout);
    stdout.flush();
    return report;
  }

  private WriteReport writeFile(final History history) {
    final Path target = out.toAbsolutePath();
    if (!Files.isDirectory(target.getParent())) {
      throw new CliFailure("cannot write " + out + ": no such directory " + target.getParent());
    }
    Path tmp = null;
    try {
      tmp = Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
      final WriteReport report;
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        report = services.writer().write(history, to, w);
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      tmp = null;
      return report;
    } catch (final IOException e) {
      throw new CliFailure("cannot write " + out + ": " + e.getMessage());
    } finally {
      deleteTemp(tmp);
    }
  }

  private void deleteTemp(final Path tmp) {
    if (tmp == null) {
      return;
    }
    try {
      Files.deleteIfExists(tmp);
    } catch (final IOException e) {
      spec.commandLine().getErr().println("isowatch: warning: could not delete " + tmp + ": " + e.getMessage());
    }
  }

  /** {@code text cannot carry everything: left out 1 aborted transaction(s); …}. */
  static String loss(final HistoryFormat format, final WriteReport r) {
    final List<String> parts = new ArrayList<>();
    if (r.droppedAborted() > 0) {
      parts.add("left out " + r.droppedAborted() + " aborted transaction(s)");
    }
    if (r.droppedUnknown() > 0) {
      parts.add("left out " + r.droppedUnknown() + " transaction(s) of unknown outcome");
    }
    if (r.droppedEmpty() > 0) {
      parts.add("left out " + r.droppedEmpty() + " transaction(s) without operations");
    }
    if (r.timesDiscarded() > 0) {
      parts.add("dropped the start/end times of " + r.timesDiscarded() + " transaction(s)");
    }
    if (r.metadataDiscarded() > 0) {
      parts.add("dropped the tenant/level of " + r.metadataDiscarded() + " transaction(s)");
    }
    if (r.idsRenumbered()) {
      parts.add("renumbered sessions and transaction ids");
    }
    return format.name().toLowerCase(Locale.ROOT) + " cannot carry everything: " + String.join("; ", parts);
  }
}
