package io.isowatch.core.gen;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Exact Zipfian sampling by inverse CDF: one table of {@code keys} doubles, a binary search per
 * draw. Exact for every θ (the closed-form YCSB method excludes θ = 1).
 */
final class ZipfSampler implements KeySampler {
  private final double[] cdf;

  ZipfSampler(final int keys, final double theta) {
    cdf = new double[keys];
    double sum = 0;
    for (int i = 0; i < keys; i++) {
      sum += 1.0 / Math.pow(i + 1, theta);
      cdf[i] = sum;
    }
    for (int i = 0; i < keys; i++) {
      cdf[i] /= sum;
    }
    // Rounding may leave the last entry a hair below 1; a draw of 0.9999999 must still land.
    cdf[keys - 1] = 1.0;
  }

  @Override
  public int next(final SplittableRandom rnd) {
    final int i = Arrays.binarySearch(cdf, rnd.nextDouble());
    return i >= 0 ? i : -i - 1;
  }
}
