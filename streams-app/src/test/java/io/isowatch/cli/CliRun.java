package io.isowatch.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs a picocli command in-process and captures its exit code and both output streams. */
record CliRun(int exitCode, String out, String err) {
  static CliRun of(final Object command, final String... args) {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final CommandLine cl = new CommandLine(command);
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    final int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }
}
