package io.isowatch.cli.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Timings of the measured (post-warmup) runs of one benchmark step.
 *
 * @param seconds every measured run, in run order
 * @param best the fastest run
 * @param median the median run (mean of the middle two for an even count)
 */
public record RunStats(List<Double> seconds, double best, double median) {
  public RunStats {
    seconds = List.copyOf(seconds);
  }

  public static RunStats of(final List<Double> seconds) {
    if (seconds.isEmpty()) {
      throw new IllegalArgumentException("at least one measured run is needed");
    }
    final List<Double> sorted = new ArrayList<>(seconds);
    Collections.sort(sorted);
    final int n = sorted.size();
    final double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    return new RunStats(seconds, sorted.get(0), median);
  }

  /** Items per second at the best run. */
  public double bestRate(final long items) {
    return items / best;
  }

  /** Items per second at the median run. */
  public double medianRate(final long items) {
    return items / median;
  }
}
