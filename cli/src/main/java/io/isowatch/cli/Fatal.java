package io.isowatch.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What {@code isowatch} does when a command cannot finish for a reason that is not the input's
 * fault: an {@link Error} ({@link OutOfMemoryError}, {@link StackOverflowError}, …) or an unexpected
 * exception, in the main thread or any other. Each ends the process with {@link
 * ExitCodes#INTERNAL} and one line on stderr saying what happened, never with 0, 1 or 2, which a
 * script would read as a verdict or as invalid input.
 *
 * <p>Running out of heap is reported as such, with the {@code -Xmx} in effect and how to raise it.
 * That line is built before it is needed ({@link #hint} rebuilds it while there is memory), so it
 * can be written when no allocation succeeds any more: directly to file descriptor 2.
 */
public final class Fatal {
  /** The environment variable the {@code ./isowatch} launcher passes to the JVM. */
  static final String JAVA_OPTS_VARIABLE = "ISOWATCH_JAVA_OPTS";
  /** Frames of a stack trace printed for a bug; a StackOverflowError has thousands. */
  private static final int MAX_FRAMES = 40;

  private static final FileOutputStream RAW_ERR = new FileOutputStream(FileDescriptor.err);
  private static final long MAX_HEAP = Runtime.getRuntime().maxMemory();
  private static volatile String hint = "";
  private static volatile String oomLine = oomLine(MAX_HEAP, "", "");
  private static volatile byte[] oomBytes = (oomLine + "\n").getBytes(StandardCharsets.UTF_8);
  private static volatile boolean threadFailed;

  private Fatal() {}

  /**
   * Names what the command is doing that may need much memory, so that running out of it says so,
   * e.g. "--grace 1s holds back about 52000 transactions". Cheap enough to call every few thousand
   * transactions; an empty string clears it.
   */
  public static void hint(final String what) {
    hint(what, "");
  }

  /** As {@link #hint(String)}, with what else than a larger heap would help, e.g. "or lower --grace". */
  public static void hint(final String what, final String remedy) {
    final String line = oomLine(MAX_HEAP, what, remedy);
    hint = what;
    oomLine = line;
    oomBytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** The current hint, for tests. */
  static String hint() {
    return hint;
  }

  /**
   * Reports {@code t}, which ended a command, on {@code err} and returns {@link ExitCodes#INTERNAL}.
   * Never throws: when even reporting fails for lack of memory, the prepared line goes to fd 2.
   */
  public static int report(final Throwable t, final PrintWriter err) {
    return report(t, err, "");
  }

  private static int report(final Throwable t, final PrintWriter err, final String where) {
    try {
      final OutOfMemoryError oom = outOfMemory(t);
      if (oom != null && !isArrayLimit(oom)) {
        err.println(oomLine);
      } else {
        err.println(line(t, where));
        printTrace(t, err);
      }
      err.flush();
    } catch (final OutOfMemoryError e) {
      writeRaw(oomBytes);
    } catch (final RuntimeException | StackOverflowError e) {
      writeRaw(("isowatch: internal error: " + t.getClass().getName() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return ExitCodes.INTERNAL;
  }

  /**
   * Installs the handler for throwables that end a thread other than main (a reader, a sink, a
   * worker): an {@link Error} halts the process at once with exit 3 (its state is unknown, and a main
   * thread waiting for that thread would wait for ever); an exception is reported and makes the
   * process exit 3 when the command ends ({@link #exitCode}). Threads with their own handler (Kafka
   * Streams', Kafka clients') keep it.
   */
  public static void installThreadHandler(final PrintWriter err) {
    Thread.setDefaultUncaughtExceptionHandler((thread, e) -> onUncaught(thread, e, err, true));
  }

  /** The handler's body; {@code halt} false in tests, which must not stop their JVM. */
  static void onUncaught(final Thread thread, final Throwable e, final PrintWriter err, final boolean halt) {
    threadFailed = true;
    report(e, err, " in thread '" + thread.getName() + "'");
    if (halt && e instanceof Error) {
      Runtime.getRuntime().halt(ExitCodes.INTERNAL);
    }
  }

  /** The exit code of a command that returned {@code code}: 3 if another thread failed meanwhile. */
  public static int exitCode(final int code) {
    return threadFailed ? ExitCodes.INTERNAL : code;
  }

  /** Forgets a failed thread (tests). */
  static void reset() {
    threadFailed = false;
    hint("");
  }

  /** The line for an OutOfMemoryError, e.g. with {@code -Xmx256m} in effect. */
  static String oomLine(final long maxHeap, final String what, final String remedy) {
    return "isowatch: out of memory: the Java heap (-Xmx" + mebibytes(maxHeap) + "m in effect) is too small for this run"
        + (what.isEmpty() ? "" : " (" + what + ")")
        + "; raise it with " + JAVA_OPTS_VARIABLE + "=-Xmx" + suggested(maxHeap)
        + (remedy.isEmpty() ? "" : " " + remedy);
  }

  /** The first line for any other throwable; {@code where} is empty or names the thread. */
  static String line(final Throwable t, final String where) {
    final String head = "isowatch: internal error" + where + ": ";
    if (t instanceof StackOverflowError) {
      return head + "the stack overflowed (a bug in IsoWatch: a recursion without a bound)";
    }
    final OutOfMemoryError oom = outOfMemory(t);
    if (oom != null) {
      return head + oom + " (a bug in IsoWatch: an array beyond the JVM's limit)";
    }
    return head + t;
  }

  private static void printTrace(final Throwable t, final PrintWriter err) {
    final StackTraceElement[] frames = t.getStackTrace();
    if (frames.length <= MAX_FRAMES && !(t instanceof StackOverflowError)) {
      t.printStackTrace(err);
      return;
    }
    for (int i = 0; i < Math.min(frames.length, MAX_FRAMES); i++) {
      err.println("\tat " + frames[i]);
    }
    err.println("\t... " + (frames.length - Math.min(frames.length, MAX_FRAMES)) + " more frames");
  }

  private static OutOfMemoryError outOfMemory(final Throwable t) {
    Throwable c = t;
    for (int depth = 0; c != null && depth < 16; depth++, c = c.getCause()) {
      if (c instanceof OutOfMemoryError oom) {
        return oom;
      }
    }
    return null;
  }

  // "Requested array size exceeds VM limit" is no lack of heap: more -Xmx would not help.
  private static boolean isArrayLimit(final OutOfMemoryError e) {
    final String m = e.getMessage();
    return m != null && m.toLowerCase(Locale.ROOT).contains("array size");
  }

  private static long mebibytes(final long bytes) {
    return bytes == Long.MAX_VALUE ? -1 : bytes >> 20;
  }

  /** Twice the current heap, in a unit a person would type. */
  private static String suggested(final long maxHeap) {
    final long mib = Math.max(512, 2 * mebibytes(maxHeap));
    return mib % 1024 == 0 ? (mib >> 10) + "g" : mib + "m";
  }

  private static void writeRaw(final byte[] line) {
    try {
      RAW_ERR.write(line);
      RAW_ERR.flush();
    } catch (final IOException | RuntimeException e) {
      // stderr is gone: the exit code is all that is left to say it.
    }
  }
}
