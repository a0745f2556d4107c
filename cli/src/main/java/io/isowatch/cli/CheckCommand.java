package io.isowatch.cli;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Finding;
import io.isowatch.core.check.FindingKind;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.online.Horizon;
import io.isowatch.core.online.OnlineOptions;
import io.isowatch.core.profile.Promise;
import io.isowatch.core.profile.PromiseJudgement;
import io.isowatch.core.report.DotWriter;
import io.isowatch.core.report.JsonReport;
import io.isowatch.core.report.TextReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code isowatch check}: reads a history, decides the requested levels and prints the text report
 * (or the JSON document with {@code --json}) on stdout. Exit codes: see {@link ExitCodes}. When the
 * input is invalid (exit 2) stdout stays empty, with or without {@code --json}, and stderr gets one
 * line per problem naming the file and line.
 */
@Command(
    name = "check",
    sortOptions = false,
    description = "Check a history for SSER, SER and SI and explain every anomaly.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:every requested level is SATISFIED (with --promise: every promised level is SATISFIED)",
      "1:some requested level is VIOLATED or UNKNOWN (with --promise: some promised level is)",
      "2:invalid input or usage (nothing on stdout; the reason on stderr)",
      "3:internal error"
    })
public final class CheckCommand implements Callable<Integer> {
  private final Services services;

  @Spec private CommandSpec spec;

  @Mixin private CheckFlags checkFlags;

  @Mixin private HistoryFormatOption historyFormat;

  @Option(names = "--json", description = "Print one JSON document instead of the text report.")
  private boolean json;

  @Option(names = "--dot", paramLabel = "DIR", description = "Also write one Graphviz file per anomaly into DIR.")
  private Path dotDir;

  @Option(names = "--horizon-txns", paramLabel = "N",
      description = "Segmented check (docs/segmentation.md): retain only the last N processed transactions; "
          + "the history is streamed through the online engine in file order with --grace, so memory stays "
          + "bounded. Reads older than the horizon become STALE_READ_BEYOND_HORIZON findings.")
  private Long horizonTxns;

  @Option(names = "--horizon", paramLabel = "DURATION", converter = Converters.MicrosConverter.class,
      description = "Segmented check: retain only the transactions within DURATION (e.g. 30s, 10m) of the "
          + "latest processed end time; with --horizon-txns, both bounds apply.")
  private Long horizonMicros;

  @Option(names = "--horizon-cut-factor", paramLabel = "F", defaultValue = "" + Horizon.DEFAULT_CUT_FACTOR,
      description = "Segmented check: the engine also cuts by itself when it retains F horizons (default: "
          + "${DEFAULT-VALUE}). A cut replays the retained horizon: about 1/(F-1) extra work per transaction "
          + "for up to F horizons in memory. What is checked does not depend on it.")
  private double horizonCutFactor;

  @Option(names = "--segment-on-snapshots",
      description = "Segmented check: cut only right before a snapshot transaction (a read-only transaction "
          + "reading every key, as isowatch agent --snapshot-every emits).")
  private boolean segmentOnSnapshots;

  @Option(names = "--grace", paramLabel = "DURATION", defaultValue = "10s", converter = Converters.MicrosConverter.class,
      description = "Segmented check only: how far out of end-time order a transaction may come in the file and "
          + "still be checked in order; later ones are LATE_TRANSACTION findings (default: ${DEFAULT-VALUE}).")
  private long graceMicros;

  @Option(names = "--absence-bound", paramLabel = "DURATION", converter = Converters.MicrosConverter.class,
      description = "Segmented check only: how far out of end-time order the writer of a value may come in the "
          + "file after a read of it, before the read is a ThinAirRead (default: --grace; a smaller value counts "
          + "as --grace). A writer coming later still retracts it (docs/streaming.md).")
  private Long absenceMicros;

  @Parameters(paramLabel = "FILE", description = "The history file, or - for stdin.")
  private String file;

  public CheckCommand(final Services services) {
    this.services = services;
  }

  @Override
  public Integer call() throws IOException {
    io.isowatch.core.debug.DebugTimings.mark("check: start");
    final CheckOptions options = checkFlags.options();
    final HistoryFormat format = historyFormat.format();
    final Horizon horizon = horizon();
    if (!horizon.enabled()) {
      // Kept through an OutOfMemoryError's unwinding (see Fatal), cleared once the check is done.
      Fatal.hint("check without a horizon holds the whole history", "or bound it with --horizon-txns N");
    }
    final CheckResult result = horizon.enabled()
        ? StreamedCheck.run(file, format, services, options, OnlineOptions.streaming(graceMicros).withHorizon(horizon)
            .withAbsence(absenceMicros == null ? graceMicros : absenceMicros)
            // As the whole-history check: a time far ahead of the other sessions' is not trusted.
            .withFutureBound(OnlineOptions.DEFAULT_FUTURE_MICROS), durationText(graceMicros))
        : services.readingCheck() != null ? HistoryInput.check(file, format, services, options)
        : services.engine().check(HistoryInput.read(file, format, services), options);
    Fatal.hint("");
    io.isowatch.core.debug.DebugTimings.mark("check: result");
    if (result.hasInvalidInput()) {
      throw new CliFailure(invalidInputMessage(HistoryInput.displayName(file), result.findings()));
    }
    if (dotDir != null) {
      writeDot(result);
    }
    final int exit = printReport(result, checkFlags.promise().orElse(null), json, services, spec.commandLine().getOut());
    io.isowatch.core.debug.DebugTimings.mark("check: report printed");
    return exit;
  }

  /**
   * Prints a result as {@code check} does (the JSON document or the text report) and returns
   * {@code check}'s exit code for it; {@code replay} prints through here too.
   */
  static int printReport(final CheckResult result, final boolean json, final Services services,
      final PrintWriter out) throws java.io.IOException {
    return printReport(result, null, json, services, out);
  }

  /**
   * As {@link #printReport(CheckResult, boolean, Services, PrintWriter)}, read against {@code promise}
   * when not null: the report separates "promise broken" from "weaker than X but allowed", and the
   * exit code is {@link #exitCode}'s.
   */
  static int printReport(final CheckResult result, final Promise promise, final boolean json, final Services services,
      final PrintWriter out) throws java.io.IOException {
    final PromiseJudgement judgement = promise == null ? null : PromiseJudgement.of(promise, result.verdicts());
    if (json) {
      JsonReport.write(result, judgement, out);
    } else {
      out.print(new TextReport(services.colour()).render(result, judgement));
      out.flush();
    }
    return exitCode(result, judgement);
  }

  /**
   * Without a promise: 0 when every decided level is SATISFIED, else 1. With one: 1 only when a
   * promised level is VIOLATED or UNKNOWN; a violated level outside the promise is allowed (0).
   */
  static int exitCode(final CheckResult result, final PromiseJudgement judgement) {
    if (judgement == null) {
      return result.allSatisfied() ? ExitCodes.OK : ExitCodes.NOT_SATISFIED;
    }
    return judgement.outcome() == PromiseJudgement.Outcome.KEPT ? ExitCodes.OK : ExitCodes.NOT_SATISFIED;
  }

  /** A duration as the options take it: {@code 1s}, {@code 250ms}, {@code 10us}. */
  static String durationText(final long micros) {
    if (micros != 0 && micros % 1_000_000 == 0) {
      return micros / 1_000_000 + "s";
    }
    return micros != 0 && micros % 1_000 == 0 ? micros / 1_000 + "ms" : micros + "us";
  }

  private Horizon horizon() {
    if (horizonTxns != null && horizonTxns < 1) {
      throw new ParameterException(spec.commandLine(), "--horizon-txns must be >= 1, got " + horizonTxns);
    }
    Horizon h = Horizon.NONE;
    if (horizonTxns != null) {
      h = h.withTransactions(horizonTxns);
    }
    if (horizonMicros != null) {
      h = h.withMicros(horizonMicros);
    }
    if (!Horizon.isCutFactor(horizonCutFactor)) {
      throw new ParameterException(spec.commandLine(), "--horizon-cut-factor must be in [" + Horizon.MIN_CUT_FACTOR
          + ", " + Horizon.MAX_CUT_FACTOR + "], got " + horizonCutFactor);
    }
    if (segmentOnSnapshots && !h.enabled()) {
      throw new ParameterException(spec.commandLine(), "--segment-on-snapshots needs --horizon-txns or --horizon");
    }
    return h.withSnapshots(segmentOnSnapshots).withCutFactor(horizonCutFactor);
  }

  /** One line per contract-breaking finding: {@code FILE: line 12: DUPLICATE_TXN_ID: … (txns …)}. */
  public static String invalidInputMessage(final String name, final List<Finding> findings) {
    return findings.stream()
        .filter(f -> f.kind().severity() == FindingKind.Severity.INVALID)
        .map(f -> name + ": " + lines(f) + f.kind() + ": " + f.message()
            + (f.txns().isEmpty() ? "" : " (txns " + String.join(", ", f.txns()) + ")"))
        .collect(Collectors.joining("\n"));
  }

  private static String lines(final Finding f) {
    if (f.lines().isEmpty()) {
      return "";
    }
    final String list = f.lines().stream().map(String::valueOf).collect(Collectors.joining(", "));
    return (f.lines().size() == 1 ? "line " : "lines ") + list + ": ";
  }

  private void writeDot(final CheckResult result) {
    try {
      final List<Path> files = DotWriter.write(result.anomalies(), dotDir);
      spec.commandLine().getErr().println("isowatch: wrote " + files.size() + " DOT file(s) to " + dotDir);
    } catch (final IOException e) {
      throw new CliFailure("cannot write DOT files to " + dotDir + ": " + e.getMessage());
    }
  }
}
