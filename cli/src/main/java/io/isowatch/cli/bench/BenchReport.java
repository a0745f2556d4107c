package io.isowatch.cli.bench;

import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import java.util.List;
import java.util.Map;

/**
 * The figures of one benchmark run; rendered as a table or as one JSON document.
 *
 * @param machine where it ran
 * @param date when it ran (ISO-8601, UTC)
 * @param engine the engine timed: {@code online}
 * @param input the history checked and what loading it cost
 * @param levels one result per level, each checked on its own
 */
public record BenchReport(MachineInfo machine, String date, String engine, Input input, List<LevelResult> levels) {
  public BenchReport {
    levels = List.copyOf(levels);
  }

  /**
   * The history under test.
   *
   * @param source {@code generated} or the file's path
   * @param description the generator settings, or the file's format
   * @param transactions transactions in the history
   * @param injected injected anomaly instances (generated histories only)
   * @param loadStep {@code generate} or {@code parse}
   * @param load timings of loading it (generation: one run; parsing: the measured repeats)
   * @param loadTxnPerSecond transactions loaded per second at the best run
   * @param fileBytes the file's size, or 0 when generated
   * @param retainedBytes heap the in-memory history holds, after full collections
   * @param retainedBytesPerTxn the same per transaction
   */
  public record Input(
      String source,
      String description,
      long transactions,
      long injected,
      String loadStep,
      RunStats load,
      double loadTxnPerSecond,
      long fileBytes,
      long retainedBytes,
      double retainedBytesPerTxn) {}

  /**
   * One level checked on its own ({@code CheckOptions.withLevels(Set.of(level))}).
   *
   * @param level the level
   * @param verdict the verdict of the last measured run
   * @param anomaliesByName exact anomaly counts of the last measured run
   * @param runs timings of the measured runs (after warmups)
   * @param bestTxnPerSecond transactions checked per second at the best run
   * @param medianTxnPerSecond transactions checked per second at the median run
   * @param peakHeapBytes the largest, over measured runs, sum of heap pools' peak usage during a
   *     run (history included; counts uncollected garbage too)
   * @param peakHeapBytesPerTxn the same per transaction
   * @param checkWorkingSetBytesPerTxn peak minus the live heap before that run, per transaction:
   *     what the check itself added
   * @param collections garbage collections during the measured runs
   * @param maxLiveAfterGcBytesPerTxn the largest heap in use right after a collection during a
   *     measured run, per transaction (history included); -1 if no collection happened
   */
  public record LevelResult(
      Level level,
      Verdict verdict,
      Map<String, Long> anomaliesByName,
      RunStats runs,
      double bestTxnPerSecond,
      double medianTxnPerSecond,
      long peakHeapBytes,
      double peakHeapBytesPerTxn,
      double checkWorkingSetBytesPerTxn,
      long collections,
      double maxLiveAfterGcBytesPerTxn) {
    public LevelResult {
      anomaliesByName = Map.copyOf(anomaliesByName);
    }
  }
}
