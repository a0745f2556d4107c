package io.isowatch.cli.bench;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.check.Level;
import io.isowatch.core.format.HistoryIO;
import io.isowatch.core.format.InvalidHistoryException;
import io.isowatch.core.gen.GeneratedHistory;
import io.isowatch.core.gen.GeneratorConfig;
import io.isowatch.core.gen.Injection;
import io.isowatch.core.gen.ListAppendHistoryGenerator;
import io.isowatch.core.gen.RegisterHistoryGenerator;
import io.isowatch.core.gen.MtHistoryGenerator;
import io.isowatch.core.history.History;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Measures the checker core on one in-memory history: load it (generate or parse, timed), measure
 * the heap it retains, then for each level on its own run warmups and timed repeats of the
 * engine's check ({@code OnlineChecker.check(history, opts)}, the engine {@code isowatch check}
 * runs), with heap peaks per run. Progress goes to the given writer.
 */
public final class CoreBenchmark {
  private final BenchEngine engine;
  private final List<Level> levels;
  private final int warmup;
  private final int repeat;
  private final PrintWriter progress;
  /** The level of a transaction that declares none, for MIXED; null when none. */
  private Level defaultLevel;
  /** What each loaded history's transactions declare (levels for MIXED), applied after the timed load. */
  private UnaryOperator<History> declare = UnaryOperator.identity();

  public CoreBenchmark(final List<Level> levels, final int warmup, final int repeat, final PrintWriter progress) {
    this(BenchEngine.ONLINE, levels, warmup, repeat, progress);
  }

  public CoreBenchmark(final BenchEngine engine, final List<Level> levels, final int warmup, final int repeat,
      final PrintWriter progress) {
    this.engine = engine;
    if (levels.isEmpty() || warmup < 0 || repeat < 1) {
      throw new IllegalArgumentException("need at least one level, warmup >= 0 and repeat >= 1");
    }
    this.levels = List.copyOf(levels);
    this.warmup = warmup;
    this.repeat = repeat;
    this.progress = progress;
  }

  /**
   * Declared levels for {@link Level#MIXED}: {@code declare} rewrites the loaded history (untimed),
   * {@code defaultLevel} judges a transaction that declares none.
   */
  public CoreBenchmark declaring(final Level defaultLevel, final UnaryOperator<History> declare) {
    this.defaultLevel = defaultLevel;
    this.declare = declare;
    return this;
  }

  public BenchReport run(final HistorySource source)
      throws IOException, InvalidHistoryException, InterruptedException {
    final String date = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    final MachineInfo machine = MachineInfo.current();
    try (HeapMeter meter = new HeapMeter()) {
      final Loaded raw = load(source);
      final Loaded loaded = new Loaded(declare.apply(raw.history), raw.input);
      final List<BenchReport.LevelResult> results = new ArrayList<>();
      for (final Level level : levels) {
        results.add(measure(level, loaded.history, meter));
      }
      return new BenchReport(machine, date, engine.cliName(), loaded.input, results);
    }
  }

  private Loaded load(final HistorySource source) throws IOException, InvalidHistoryException {
    final long before = HeapMeter.liveBytes();
    if (source instanceof HistorySource.Generated g) {
      final long t0 = System.nanoTime();
      final GeneratedHistory gh = MtHistoryGenerator.generateWithSummary(g.config());
      final double seconds = (System.nanoTime() - t0) / 1e9;
      progress.printf("generated %d transactions in %.2f s%n", gh.history().size(), seconds);
      progress.flush();
      final History h = gh.history();
      final long retained = HeapMeter.liveBytes() - before;
      final RunStats load = RunStats.of(List.of(seconds));
      return new Loaded(h, new BenchReport.Input("generated", describe(g.config()), h.size(),
          gh.summary().injected().size(), "generate", load, load.bestRate(h.size()), 0, retained,
          retained / (double) h.size()));
    }
    if (source instanceof HistorySource.GeneratedRegister g) {
      final RegisterHistoryGenerator.Config c = g.config();
      return generated(() -> {
        final History.Builder b = History.builder();
        final io.isowatch.core.gen.GenerationSummary summary = RegisterHistoryGenerator.generate(c, b::add);
        return new GeneratedHistory(b.build(), summary);
      }, "rw-register, level " + c.level() + ", " + c.sessions() + " sessions, " + c.keys() + " keys, " + c.ops()
          + " ops, read ratio " + c.readRatio() + ", seed " + c.seed(), before);
    }
    if (source instanceof HistorySource.GeneratedListAppend g) {
      final ListAppendHistoryGenerator.Config c = g.config();
      return generated(() -> ListAppendHistoryGenerator.generateWithSummary(c), "list-append, level " + c.level()
          + ", " + c.sessions() + " sessions, " + c.keys() + " active keys, 1-" + c.ops() + " ops, read ratio "
          + c.readRatio() + ", " + c.maxWritesPerKey() + " appends per key, seed " + c.seed(), before);
    }
    final HistorySource.File f = (HistorySource.File) source;
    final List<Double> times = new ArrayList<>();
    History h = null;
    for (int i = 0; i < warmup + repeat; i++) {
      h = null;
      final long t0 = System.nanoTime();
      h = HistoryIO.read(f.path(), f.format());
      final double seconds = (System.nanoTime() - t0) / 1e9;
      progress.printf("parse %s %d/%d: %.2f s%n", i < warmup ? "warmup" : "run", i < warmup ? i + 1 : i - warmup + 1,
          i < warmup ? warmup : repeat, seconds);
      progress.flush();
      if (i >= warmup) {
        times.add(seconds);
      }
    }
    final long retained = HeapMeter.liveBytes() - before;
    final RunStats load = RunStats.of(times);
    return new Loaded(h, new BenchReport.Input(f.path().toString(), "format " + f.format(), h.size(), 0, "parse",
        load, load.bestRate(h.size()), Files.size(f.path()), retained, retained / (double) h.size()));
  }

  /** Generates the history in memory, timed once. */
  private Loaded generated(final Generation generation, final String description, final long before)
      throws IOException {
    final long t0 = System.nanoTime();
    final GeneratedHistory gh = generation.run();
    final double seconds = (System.nanoTime() - t0) / 1e9;
    progress.printf("generated %d transactions in %.2f s%n", gh.history().size(), seconds);
    progress.flush();
    final History h = gh.history();
    final long retained = HeapMeter.liveBytes() - before;
    final RunStats load = RunStats.of(List.of(seconds));
    return new Loaded(h, new BenchReport.Input("generated", description, h.size(), 0, "generate", load,
        load.bestRate(h.size()), 0, retained, retained / (double) h.size()));
  }

  /** One generator run. */
  @FunctionalInterface
  private interface Generation {
    GeneratedHistory run() throws IOException;
  }

  private BenchReport.LevelResult measure(final Level level, final History history, final HeapMeter meter)
      throws InterruptedException {
    final CheckOptions options = CheckOptions.defaults().withLevels(Set.of(level)).withDefaultLevel(defaultLevel);
    final long n = history.size();
    for (int i = 0; i < warmup; i++) {
      final long t0 = System.nanoTime();
      final CheckResult r = engine.check(history, options);
      progress.printf("%s warmup %d/%d: %.2f s (%s)%n", level, i + 1, warmup, (System.nanoTime() - t0) / 1e9,
          r.verdicts().get(level));
      progress.flush();
    }
    final List<Double> times = new ArrayList<>();
    CheckResult last = null;
    long peak = 0;
    long workingSet = 0;
    long collections = 0;
    long maxAfterGc = -1;
    for (int i = 0; i < repeat; i++) {
      final HeapMeter.Window window = meter.startWindow();
      final long t0 = System.nanoTime();
      last = engine.check(history, options);
      final double seconds = (System.nanoTime() - t0) / 1e9;
      final HeapMeter.Usage usage = window.close();
      times.add(seconds);
      if (usage.peakBytes() > peak) {
        peak = usage.peakBytes();
        workingSet = usage.peakBytes() - usage.baselineBytes();
      }
      collections += usage.collections();
      maxAfterGc = Math.max(maxAfterGc, usage.maxAfterGcBytes());
      progress.printf("%s run %d/%d: %.2f s (%s)%n", level, i + 1, repeat, seconds, last.verdicts().get(level));
      progress.flush();
    }
    final RunStats stats = RunStats.of(times);
    final Map<String, Long> anomalies = new HashMap<>(last.stats().anomaliesByName());
    return new BenchReport.LevelResult(level, last.verdicts().get(level), anomalies, stats, stats.bestRate(n),
        stats.medianRate(n), peak, peak / (double) n, workingSet / (double) n, collections,
        maxAfterGc < 0 ? -1 : maxAfterGc / (double) n);
  }

  private static String describe(final GeneratorConfig c) {
    return "level " + c.level() + ", " + c.sessions() + " sessions, " + c.keys() + " keys, " + c.distribution().spec()
        + ", read-only " + c.readOnlyRatio() + ", shapes " + c.shapes() + ", seed " + c.seed()
        + (c.injections().isEmpty() ? ""
            : ", inject " + c.injections().stream().map(Injection::spec).collect(Collectors.joining(",")));
  }

  private record Loaded(History history, BenchReport.Input input) {}
}
