package io.isowatch.streams.replay;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A progress bar for long replays, on stderr: done/total records, rate and ETA. On a terminal it is
 * redrawn in place every {@value #TERMINAL_REDRAW_MS} ms; otherwise (a log, CI) a plain line is
 * printed every {@value #PLAIN_EVERY_S} s. {@link #line} is the pure formatting, tested as a unit.
 */
public final class ProgressBar implements AutoCloseable {
  static final long TERMINAL_REDRAW_MS = 250;
  static final long PLAIN_EVERY_S = 5;
  private static final int BAR_WIDTH = 24;

  private final PrintWriter err;
  private final boolean terminal;
  private final String label;
  private final long total;
  private final LongSupplier done;
  private final long startNanos = System.nanoTime();
  private final ScheduledExecutorService ticker;
  private boolean closed;

  private ProgressBar(final PrintWriter err, final boolean terminal, final String label, final long total,
      final LongSupplier done) {
    this.err = err;
    this.terminal = terminal;
    this.label = label;
    this.total = total;
    this.done = done;
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      final Thread t = new Thread(r, "replay-progress");
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Starts drawing the progress of a phase.
   *
   * @param done how many of {@code total} are done so far (called from the ticker thread)
   */
  public static ProgressBar start(final PrintWriter err, final boolean terminal, final String label,
      final long total, final LongSupplier done) {
    final ProgressBar bar = new ProgressBar(err, terminal, label, total, done);
    final long period = terminal ? TERMINAL_REDRAW_MS : TimeUnit.SECONDS.toMillis(PLAIN_EVERY_S);
    bar.ticker.scheduleAtFixedRate(bar::draw, terminal ? 0 : period, period, TimeUnit.MILLISECONDS);
    return bar;
  }

  /** True when stderr is a terminal (Linux: fd 2 is a tty device), so the bar can be redrawn in place. */
  public static boolean stderrIsTerminal() {
    try {
      final String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (final java.io.IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }

  private synchronized void draw() {
    if (closed) {
      return;
    }
    final String text = line(label, done.getAsLong(), total, Duration.ofNanos(System.nanoTime() - startNanos));
    if (terminal) {
      // \r and "erase to end of line": the bar overwrites itself.
      err.print("\r" + text + "\u001b[K");
    } else {
      err.println(text);
    }
    err.flush();
  }

  /** Draws the final state and ends the line; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    ticker.shutdownNow();
    final String text = line(label, done.getAsLong(), total, Duration.ofNanos(System.nanoTime() - startNanos));
    err.println(terminal ? "\r" + text + "\u001b[K" : text);
    err.flush();
    closed = true;
  }

  /**
   * One progress line, e.g. {@code checking [##########··············] 41,000/100,000 records
   * 41%  8,200/s  ETA 0:07}.
   *
   * @param done how many records are done (clamped to [0, total])
   * @param total how many there are; 0 shows an empty phase as complete
   * @param elapsed time since the phase started; the rate is done/elapsed
   */
  public static String line(final String label, final long done, final long total, final Duration elapsed) {
    final long clamped = Math.max(0, Math.min(done, total));
    final double fraction = total == 0 ? 1.0 : (double) clamped / total;
    final int filled = (int) Math.floor(fraction * BAR_WIDTH);
    final String bar = "#".repeat(filled) + "·".repeat(BAR_WIDTH - filled);
    final double seconds = elapsed.toNanos() / 1e9;
    final double rate = seconds > 0 ? clamped / seconds : 0;
    final String eta;
    if (clamped >= total) {
      eta = "done in " + clock(Math.round(seconds));
    } else if (rate <= 0) {
      eta = "ETA --:--";
    } else {
      eta = "ETA " + clock(Math.round((total - clamped) / rate));
    }
    return String.format(Locale.ROOT, "%s [%s] %,d/%,d records %3d%%  %s/s  %s",
        label, bar, clamped, total, (int) Math.floor(fraction * 100), rate(rate), eta);
  }

  /** Whole records per second, with one decimal below 10 (a slow start is not "0/s"). */
  static String rate(final double perSecond) {
    return perSecond < 10
        ? String.format(Locale.ROOT, "%.1f", perSecond)
        : String.format(Locale.ROOT, "%,.0f", perSecond);
  }

  /** m:ss, or h:mm:ss from an hour. */
  static String clock(final long seconds) {
    final long h = seconds / 3600;
    final long m = (seconds % 3600) / 60;
    final long s = seconds % 60;
    return h > 0 ? String.format(Locale.ROOT, "%d:%02d:%02d", h, m, s) : String.format(Locale.ROOT, "%d:%02d", m, s);
  }
}
