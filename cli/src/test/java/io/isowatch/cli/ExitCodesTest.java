package io.isowatch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import io.isowatch.core.online.Horizon;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Issue 10 item 7: an {@link Error} or an unexpected exception ends every command with exit 3 and a
 * line saying what happened, never 0, 1 or 2 (picocli lets errors through its exception handler,
 * which used to end the JVM with exit 1, "VIOLATED or UNKNOWN").
 */
class ExitCodesTest extends LostUpdateFixture {
  private static final String OOM_LINE = Fatal.oomLine(Runtime.getRuntime().maxMemory(), "", "");
  /** What a check without a horizon says: it holds the whole history. */
  private static final String OOM_WHOLE_HISTORY = Fatal.oomLine(Runtime.getRuntime().maxMemory(),
      "check without a horizon holds the whole history", "or bound it with --horizon-txns N");

  @BeforeEach
  void forgetEarlierFailedThreads() {
    Fatal.reset();
  }

  @AfterEach
  void forgetFailedThreads() {
    Fatal.reset();
  }

  /** The throwables a command may meet, by what the line must say. */
  static Stream<Arguments> throwables() {
    return Stream.of(
        Arguments.of((Supplier<Throwable>) () -> new OutOfMemoryError("Java heap space"), OOM_LINE),
        Arguments.of((Supplier<Throwable>) () -> new OutOfMemoryError("GC overhead limit exceeded"), OOM_LINE),
        Arguments.of((Supplier<Throwable>) StackOverflowError::new,
            "isowatch: internal error: the stack overflowed (a bug in IsoWatch: a recursion without a bound)"),
        Arguments.of((Supplier<Throwable>) () -> new AssertionError("invariant"),
            "isowatch: internal error: java.lang.AssertionError: invariant"),
        Arguments.of((Supplier<Throwable>) () -> new NoClassDefFoundError("org/x/Y"),
            "isowatch: internal error: java.lang.NoClassDefFoundError: org/x/Y"),
        Arguments.of((Supplier<Throwable>) () -> new NullPointerException("npe"),
            "isowatch: internal error: java.lang.NullPointerException: npe"),
        Arguments.of((Supplier<Throwable>) () -> new IllegalStateException("wrapped", new OutOfMemoryError("Java heap space")),
            OOM_LINE));
  }

  @ParameterizedTest
  @MethodSource("throwables")
  void shouldExit3WithOneClearLineWhenReadingTheHistoryThrows(final Supplier<Throwable> thrown, final String line) {
    for (final List<String> args : List.of(
        List.of("check", history.toString()),
        List.of("check", "--horizon-txns", "10", history.toString()),
        List.of("check", "--json", history.toString()),
        List.of("convert", "--to", "jsonl", history.toString()),
        List.of("replay", "--file", history.toString()))) {
      // Given
      final Services services = new CliRun.Fake().services().withReader((in, format) -> sneakyThrow(thrown.get()));

      // When
      final CliRun run = CliRun.run(services, args.toArray(String[]::new));

      // Then
      assertEquals(3, run.exit(), args + ": " + run.err());
      assertEquals("", run.out(), args.toString());
      final boolean wholeHistory = args.get(0).equals("check") && !args.contains("--horizon-txns");
      assertEquals(wholeHistory && line.equals(OOM_LINE) ? OOM_WHOLE_HISTORY : line,
          run.err().lines().findFirst().orElse(""), args.toString());
    }
  }

  @ParameterizedTest
  @MethodSource("throwables")
  void shouldExit3WithOneClearLineWhenTheJsonlReaderThreadMeetsAThrowable(final Supplier<Throwable> thrown,
      final String line) {
    // Given: check --horizon streams JSONL from stdin, parsed on its reader thread (JsonlReadAhead);
    // the stream fails after thousands of valid lines, inside that thread
    final byte[] lines = jsonlLines(6000).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    final Services services = new CliRun.Fake().services().withStdin(() -> new java.io.InputStream() {
      private int pos;

      @Override
      public int read() {
        return pos < lines.length ? lines[pos++] & 0xff : sneakyThrow(thrown.get());
      }

      @Override
      public int read(final byte[] b, final int off, final int len) {
        if (pos >= lines.length) {
          return sneakyThrow(thrown.get());
        }
        final int n = Math.min(len, lines.length - pos);
        System.arraycopy(lines, pos, b, off, n);
        pos += n;
        return n;
      }
    });

    // When
    final CliRun run = CliRun.run(services, "check", "--horizon-txns", "100", "-");

    // Then: as if the main thread had met it
    assertEquals(3, run.exit(), run.err());
    assertEquals("", run.out());
    final String first = run.err().lines().findFirst().orElse("");
    if (line.equals(OOM_LINE)) {
      assertTrue(first.startsWith("isowatch: out of memory: the Java heap"), first);
    } else {
      assertEquals(line, first);
    }
  }

  @Test
  void shouldExit2NamingTheLineWhenTheJsonlReaderThreadMeetsAnInvalidLine() {
    // Given: line 5000 of a streamed JSONL input is cut short
    final String text = jsonlLines(6000).replaceFirst("\\{\"session\":\"s\\d\",\"txn\":\"t4999\"[^\n]*", "{\"session\":");
    final Services services = new CliRun.Fake().withStdin(text).services();

    // When
    final CliRun run = CliRun.run(services, "check", "--horizon-txns", "100", "-");

    // Then
    assertEquals(2, run.exit(), run.err());
    assertEquals("", run.out());
    assertTrue(run.err().startsWith("isowatch: <stdin>: line 5000: malformed JSON"), run.err());
  }

  /** {@code n} valid JSONL lines, one write each to its own value, ids t0…, each line ended. */
  private static String jsonlLines(final int n) {
    final StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append("{\"session\":\"s").append(i % 5).append("\",\"txn\":\"t").append(i)
          .append("\",\"status\":\"committed\",\"start\":").append(1000 + 10L * i).append(",\"end\":")
          .append(1005 + 10L * i).append(",\"ops\":[{\"t\":\"w\",\"k\":\"k").append(i % 9)
          .append("\",\"v\":").append(i + 1).append("}]}\n");
    }
    return sb.toString();
  }

  @ParameterizedTest
  @MethodSource("throwables")
  void shouldExit3WhenTheCheckerOrTheWriterThrows(final Supplier<Throwable> thrown, final String line) {
    // Given
    final Services engine = new CliRun.Fake().services().withEngine((h, o) -> sneakyThrow(thrown.get()));
    final Services writer = new CliRun.Fake().services().withWriter((h, f, w) -> sneakyThrow(thrown.get()));

    // When
    final CliRun check = CliRun.run(engine, "check", history.toString());
    final CliRun convert = CliRun.run(writer, "convert", "--to", "text", history.toString());

    // Then
    assertEquals(3, check.exit(), check.err());
    assertEquals(line.equals(OOM_LINE) ? OOM_WHOLE_HISTORY : line, check.err().lines().findFirst().orElse(""));
    assertEquals(3, convert.exit(), convert.err());
    assertEquals(line, convert.err().lines().findFirst().orElse(""));
  }

  @Test
  void shouldPrintOnlyTheHeapLineWhenOutOfMemory() {
    // Given
    final Services services = new CliRun.Fake().services().withEngine((h, o) -> {
      throw new OutOfMemoryError("Java heap space");
    });

    // When
    final CliRun run = CliRun.run(services, "check", history.toString());

    // Then: one line, no stack trace; it names -Xmx, ISOWATCH_JAVA_OPTS and the horizon
    assertEquals(3, run.exit());
    assertTrue(run.err().matches("isowatch: out of memory: the Java heap \\(-Xmx\\d+m in effect\\) is too small for this run"
        + " \\(check without a horizon holds the whole history\\); raise it with ISOWATCH_JAVA_OPTS=-Xmx\\d+[mg]"
        + " or bound it with --horizon-txns N\n"), run.err());
  }

  @Test
  void shouldNameTheHeapInEffectAndTwiceItWhenOutOfMemory() {
    // When
    final String line = Fatal.oomLine(256L << 20, "", "");
    final String hinted = Fatal.oomLine(1L << 30, "--grace 1s holds back about 41000 transactions", "or lower --grace");

    // Then
    assertEquals("isowatch: out of memory: the Java heap (-Xmx256m in effect) is too small for this run;"
        + " raise it with ISOWATCH_JAVA_OPTS=-Xmx512m", line);
    assertEquals("isowatch: out of memory: the Java heap (-Xmx1024m in effect) is too small for this run"
        + " (--grace 1s holds back about 41000 transactions); raise it with ISOWATCH_JAVA_OPTS=-Xmx2g"
        + " or lower --grace", hinted);
  }

  @Test
  void shouldExit3WhenAnyCommandThrowsAnErrorOrAnException() {
    // run, topics, reset, dlq, bench, demo and agent execute through the same strategy as these two
    for (final Throwable t : List.of(new OutOfMemoryError("Java heap space"), new StackOverflowError(),
        new IllegalStateException("boom"), new ExceptionInInitializerError("static"))) {
      // Given
      final CommandLine callable = withCapturedStreams(Main.commandLine(new CliRun.Fake().services())
          .addSubcommand("throwing-callable", new ThrowingCallable(t)));
      final CommandLine runnable = withCapturedStreams(Main.commandLine(new CliRun.Fake().services())
          .addSubcommand("throwing-runnable", new ThrowingRunnable(t)));

      // When
      final int fromCallable = callable.execute("throwing-callable");
      final int fromRunnable = runnable.execute("throwing-runnable");

      // Then
      assertEquals(3, fromCallable, t.toString());
      assertEquals(3, fromRunnable, t.toString());
    }
  }

  @Test
  void shouldExit3WhenBuildingTheCommandLineThrows() {
    // Given
    final Supplier<CommandLine> broken = () -> {
      throw new ExceptionInInitializerError("no picocli");
    };
    final Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();

    // When
    final int exit;
    try {
      exit = Main.execute(broken, "check", "x");
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(before);
    }

    // Then
    assertEquals(3, exit);
  }

  @Test
  void shouldMakeTheProcessExit3WhenAnotherThreadFailed() {
    // Given
    final StringWriter err = new StringWriter();
    final Thread reader = new Thread(() -> { }, "isowatch-reader");

    // When
    Fatal.onUncaught(reader, new IllegalArgumentException("bad"), new PrintWriter(err, true), false);

    // Then: a command that returned 0, 1 or 2 meanwhile ends with 3
    assertEquals(3, Fatal.exitCode(0));
    assertEquals(3, Fatal.exitCode(1));
    assertEquals(3, Fatal.exitCode(2));
    assertEquals("isowatch: internal error in thread 'isowatch-reader': java.lang.IllegalArgumentException: bad",
        err.toString().lines().findFirst().orElse(""));
  }

  @Test
  void shouldPrintTheHeapLineWhenAnotherThreadRunsOutOfMemory() {
    // Given
    final StringWriter err = new StringWriter();

    // When
    Fatal.onUncaught(new Thread(() -> { }, "sink"), new OutOfMemoryError("Java heap space"), new PrintWriter(err, true),
        false);

    // Then
    assertEquals(OOM_LINE + "\n", err.toString());
    assertEquals(3, Fatal.exitCode(0));
  }

  @Test
  void shouldKeepTheExitCodeWhenNoOtherThreadFailed() {
    assertEquals(0, Fatal.exitCode(0));
    assertEquals(1, Fatal.exitCode(1));
    assertEquals(2, Fatal.exitCode(2));
  }

  @Test
  void shouldCutAStackOverflowsTraceWhenPrintingIt() {
    // Given: a real overflow, thousands of frames deep
    final StackOverflowError soe = assertThrows(StackOverflowError.class, ExitCodesTest::recurse);
    final StringWriter err = new StringWriter();

    // When
    final int exit = Fatal.report(soe, new PrintWriter(err, true));

    // Then
    assertEquals(3, exit);
    assertTrue(err.toString().lines().count() <= 42, "lines: " + err.toString().lines().count());
    assertTrue(err.toString().contains("more frames"), err.toString());
  }

  @Test
  void shouldStopARunWhenTheGraceHoldsBackMoreThanTheHeapKeeps() {
    // Given: 41 transactions per ms of end time, a grace of 1 s, a horizon of 20000, a heap 90% full
    final long[] used = {0};
    final GraceBudget budget = new GraceBudget(1_000_000, "1s", Horizon.ofTransactions(20_000), 256L << 20,
        () -> used[0], null);
    final long start = 1_000_000_000L;

    // When: first with room to spare, then with the heap nearly full
    for (int i = 0; i < 45_056; i++) {
      budget.accepted(txn(i, start + i * 1000L / 41), "h.jsonl", i + 1);
    }
    used[0] = (long) (0.9 * (256L << 20));
    final GraceBudget.GraceTooLarge e = assertThrows(GraceBudget.GraceTooLarge.class, () -> {
      for (int i = 45_056; i < 49_152; i++) {
        budget.accepted(txn(i, start + i * 1000L / 41), "h.jsonl", i + 1);
      }
    });

    // Then
    assertTrue(e.getMessage().matches("h\\.jsonl: line 46080: --grace 1s holds back about 4\\d{4} transactions here"
        + " \\(4\\d{4} per second of end time\\), more than the heap can keep: 90% of -Xmx256m is still in use after"
        + " garbage collection; lower --grace to the history's disorder, or raise the heap with"
        + " ISOWATCH_JAVA_OPTS=-Xmx512m"), e.getMessage());
    assertTrue(Fatal.hint().startsWith("--grace 1s holds back about "), Fatal.hint());
    budget.close();
    assertTrue(Fatal.hint().startsWith("--grace 1s holds back about "), "kept for the OOM line: " + Fatal.hint());
  }

  @Test
  void shouldNotStopARunWhenTheHorizonNotTheGraceFillsTheHeap() {
    // Given: a grace of 1 ms holds back about 41 transactions, the horizon 40000
    final GraceBudget budget = new GraceBudget(1_000, "1ms", Horizon.ofTransactions(20_000), 256L << 20,
        () -> (long) (0.95 * (256L << 20)), null);

    // When / Then: nothing thrown
    for (int i = 0; i < 20_000; i++) {
      budget.accepted(txn(i, 1_000_000_000L + i * 1000L / 41), "h.jsonl", i + 1);
    }
    assertTrue(budget.heldBack() < 100, "held " + budget.heldBack());
    budget.close();
  }

  @Test
  void shouldExit3WithTheGraceLineWhenTheBudgetStopsACheck() {
    // Given
    final Services services = new CliRun.Fake().services().withReader((in, format) -> {
      throw new GraceBudget.GraceTooLarge("h.jsonl: line 7: --grace 1s holds back about 41000 transactions here");
    });

    // When
    final CliRun run = CliRun.run(services, "check", "--horizon-txns", "10", history.toString());

    // Then
    assertEquals(3, run.exit());
    assertEquals("isowatch: h.jsonl: line 7: --grace 1s holds back about 41000 transactions here\n", run.err());
  }

  @Test
  void shouldExit2WhenAnInputLimitIsNotAPositiveInteger() {
    // Given
    System.setProperty("isowatch.input.max-depth", "deep");
    try {
      // When
      final CliRun run = CliRun.run(Services.real(), "check", history.toString());

      // Then
      assertEquals(2, run.exit(), run.err());
      assertEquals("isowatch: system property isowatch.input.max-depth must be an integer >= 1, got 'deep'\n", run.err());
    } finally {
      System.clearProperty("isowatch.input.max-depth");
    }
  }

  private static Transaction txn(final int i, final long end) {
    return new Transaction("t" + i, "s" + (i % 20), Transaction.NO_SEQ, TxnStatus.COMMITTED, end - 10, end,
        List.of(), null, null, i + 1);
  }

  private static int recurse() {
    return recurse() + 1;
  }

  private static CommandLine withCapturedStreams(final CommandLine cl) {
    cl.setOut(new PrintWriter(new StringWriter(), true));
    cl.setErr(new PrintWriter(new StringWriter(), true));
    return cl;
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable, R> R sneakyThrow(final Throwable t) throws T {
    throw (T) t;
  }

  @Command(name = "throwing-callable")
  static final class ThrowingCallable implements Callable<Integer> {
    private final Throwable t;

    ThrowingCallable(final Throwable t) {
      this.t = t;
    }

    @Override
    public Integer call() {
      return sneakyThrow(t);
    }
  }

  @Command(name = "throwing-runnable")
  static final class ThrowingRunnable implements Runnable {
    private final Throwable t;

    ThrowingRunnable(final Throwable t) {
      this.t = t;
    }

    @Override
    public void run() {
      sneakyThrow(t);
    }
  }
}
