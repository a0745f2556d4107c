package io.isowatch.streams.replay;

import java.io.PrintWriter;
import java.util.function.LongSupplier;

/** Shows the progress of a replay's phases (a bar on stderr, or nothing with {@code --quiet}). */
@FunctionalInterface
public interface Progress {
  /** Nothing shown. */
  Progress NONE = (label, total, done) -> () -> { };

  /**
   * Starts showing a phase; closing the returned handle shows its final state.
   *
   * @param done how many of {@code total} records are done so far
   */
  Phase phase(String label, long total, LongSupplier done);

  /** A phase being shown. */
  interface Phase extends AutoCloseable {
    @Override
    void close();
  }

  /** A {@link ProgressBar} on {@code err}, redrawn in place when stderr is a terminal. */
  static Progress bar(final PrintWriter err) {
    final boolean terminal = ProgressBar.stderrIsTerminal();
    return (label, total, done) -> ProgressBar.start(err, terminal, label, total, done)::close;
  }
}
