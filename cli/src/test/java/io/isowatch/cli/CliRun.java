package io.isowatch.cli;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.format.HistoryFormat;
import io.isowatch.core.format.WriteReport;
import io.isowatch.core.history.History;
import io.isowatch.core.testkit.HistoryDsl;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * Runs {@code isowatch} in-process with captured stdout and stderr.
 *
 * @param exit the exit code picocli's execute returned
 * @param out everything written to stdout
 * @param err everything written to stderr
 */
public record CliRun(int exit, String out, String err) {
  /** The repository root: surefire runs tests in the module directory, one level below it. */
  static final Path REPO_ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();

  /** Runs {@code isowatch} with {@code args} on {@code services}. */
  public static CliRun run(final Services services, final String... args) {
    return execute(Main.commandLine(services), args);
  }

  /** Runs {@code isowatch} with {@code args} on the command line {@link Main#main} builds for them. */
  public static CliRun runAsMain(final Services services, final String... args) {
    return execute(Main.commandLineFor(services, args), args);
  }

  /** Runs one command object on its own (not through {@link Main}). */
  public static CliRun of(final Object command, final String... args) {
    return execute(new CommandLine(command), args);
  }

  private static CliRun execute(final CommandLine cl, final String... args) {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    final int exit = cl.execute(args);
    return new CliRun(exit, out.toString(), err.toString());
  }

  /**
   * Runs {@code isowatch check OPTIONS FILE} on the real checker, where FILE is {@code dsl} written
   * into {@code dir} and read back in the test history language, so the test does not depend on
   * the file formats.
   */
  static CliRun checkDsl(final Path dir, final String dsl, final String... options) throws IOException {
    final Path file = Files.writeString(dir.resolve("h-" + Integer.toHexString(dsl.hashCode())), dsl);
    final Services services = Services.real().withReader((in, format) -> dsl(in));
    final String[] args = new String[options.length + 2];
    args[0] = "check";
    System.arraycopy(options, 0, args, 1, options.length);
    args[args.length - 1] = file.toString();
    return run(services, args);
  }

  /** Reads a stream written in the test history language. */
  static History dsl(final InputStream in) throws IOException {
    return HistoryDsl.history(new String(in.readAllBytes(), StandardCharsets.UTF_8));
  }

  /**
   * Services that read files written in the test history language, write each transaction as
   * {@code FORMAT txn [ops]}, take stdin from {@code stdin}, and answer every check with {@code
   * result} while recording what was asked.
   */
  static final class Fake {
    final List<HistoryFormat> formatsRead = new ArrayList<>();
    final List<CheckOptions> options = new ArrayList<>();
    final List<History> histories = new ArrayList<>();
    private CheckResult result;
    private String stdin = "";

    Fake answering(final CheckResult r) {
      this.result = r;
      return this;
    }

    Fake withStdin(final String text) {
      this.stdin = text;
      return this;
    }

    Services services() {
      return new Services(
          (in, format) -> {
            formatsRead.add(format);
            return dsl(in);
          },
          (history, format, w) -> {
            for (final var t : history.transactions()) {
              w.write(format + " " + t + "\n");
            }
            return WriteReport.lossless(history.size());
          },
          (history, opts) -> {
            histories.add(history);
            options.add(opts);
            return result;
          },
          () -> new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
          false);
    }
  }
}
