package io.isowatch.agent.workload;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How a workload picks keys (MTC Section V-A1: uniform, zipfian, hotspot, exponential). Each
 * draw returns a key index in {@code [0, K)}; index 0 is the hottest key for the skewed ones.
 *
 * <p>Spellings accepted by {@link #parse}: {@code uniform}; {@code zipf} or {@code zipf:θ}
 * (P(i) ∝ 1/(i+1)^θ, default θ = 0.9); {@code hotspot} or {@code hotspot:A:F} (a fraction A of
 * accesses goes to the first fraction F of the keys, default 0.8:0.2); {@code exponential} or
 * {@code exponential:λ} (P(i) ∝ e^(−λi), default λ = 10/K, so about 63% of accesses go to the
 * first tenth of the keys).
 */
public sealed interface KeyDistribution
    permits KeyDistribution.Uniform, KeyDistribution.Zipf, KeyDistribution.Hotspot, KeyDistribution.Exponential {

  /** Binds the distribution to a key count, precomputing what sampling needs. */
  Sampler sampler(int keys);

  /** The canonical spelling, as {@link #parse} reads it. */
  String spec();

  /** Draws key indexes; not thread-safe (one per session). */
  interface Sampler {
    int next(SplittableRandom random);
  }

  /** Every key equally likely. */
  record Uniform() implements KeyDistribution {
    @Override
    public Sampler sampler(final int keys) {
      return random -> random.nextInt(keys);
    }

    @Override
    public String spec() {
      return "uniform";
    }
  }

  /** Zipfian with exponent θ ≥ 0 (θ = 0 is uniform). */
  record Zipf(double theta) implements KeyDistribution {
    public Zipf {
      if (!(theta >= 0) || Double.isInfinite(theta)) {
        throw new IllegalArgumentException("zipf exponent must be a finite number >= 0, got " + theta);
      }
    }

    @Override
    public Sampler sampler(final int keys) {
      final double[] weights = new double[keys];
      for (int i = 0; i < keys; i++) {
        weights[i] = 1.0 / Math.pow(i + 1, theta);
      }
      return new TableSampler(weights);
    }

    @Override
    public String spec() {
      return "zipf:" + theta;
    }
  }

  /**
   * A fraction {@code accessFraction} of accesses goes, uniformly, to the first {@code
   * keyFraction} of the keys (at least one key); the rest goes uniformly to the others.
   */
  record Hotspot(double accessFraction, double keyFraction) implements KeyDistribution {
    public Hotspot {
      if (!(accessFraction >= 0 && accessFraction <= 1)) {
        throw new IllegalArgumentException("hotspot access fraction must be in [0,1], got " + accessFraction);
      }
      if (!(keyFraction > 0 && keyFraction <= 1)) {
        throw new IllegalArgumentException("hotspot key fraction must be in (0,1], got " + keyFraction);
      }
    }

    @Override
    public Sampler sampler(final int keys) {
      final int hot = Math.max(1, Math.min(keys, (int) Math.ceil(keys * keyFraction)));
      final int cold = keys - hot;
      return random -> {
        if (cold == 0 || random.nextDouble() < accessFraction) {
          return random.nextInt(hot);
        }
        return hot + random.nextInt(cold);
      };
    }

    @Override
    public String spec() {
      return "hotspot:" + accessFraction + ":" + keyFraction;
    }
  }

  /** P(i) ∝ e^(−λi); a null λ means 10/K, fixed when bound to a key count. */
  record Exponential(Double lambda) implements KeyDistribution {
    public Exponential {
      if (lambda != null && (!(lambda > 0) || lambda.isInfinite())) {
        throw new IllegalArgumentException("exponential rate must be a finite number > 0, got " + lambda);
      }
    }

    @Override
    public Sampler sampler(final int keys) {
      final double rate = lambda != null ? lambda : 10.0 / keys;
      final double[] weights = new double[keys];
      for (int i = 0; i < keys; i++) {
        weights[i] = Math.exp(-rate * i);
      }
      return new TableSampler(weights);
    }

    @Override
    public String spec() {
      return lambda == null ? "exponential" : "exponential:" + lambda;
    }
  }

  /** Parses a spelling listed in the type's Javadoc. */
  static KeyDistribution parse(final String text) {
    final String s = text.trim().toLowerCase(Locale.ROOT);
    final String[] parts = s.split(":");
    try {
      return switch (parts[0]) {
        case "uniform" -> {
          requireArgs(parts, 0, text);
          yield new Uniform();
        }
        case "zipf", "zipfian" -> {
          requireArgs(parts, 1, text);
          yield new Zipf(parts.length > 1 ? Double.parseDouble(parts[1]) : 0.9);
        }
        case "hotspot" -> {
          requireArgs(parts, 2, text);
          if (parts.length == 2) {
            throw new IllegalArgumentException("hotspot takes both fractions, e.g. hotspot:0.8:0.2, got '" + text + "'");
          }
          yield parts.length == 1 ? new Hotspot(0.8, 0.2)
              : new Hotspot(Double.parseDouble(parts[1]), Double.parseDouble(parts[2]));
        }
        case "exponential", "exp" -> {
          requireArgs(parts, 1, text);
          yield new Exponential(parts.length > 1 ? Double.parseDouble(parts[1]) : null);
        }
        default -> throw new IllegalArgumentException("unknown key distribution '" + text
            + "' (expected uniform, zipf[:θ], hotspot[:A:F] or exponential[:λ])");
      };
    } catch (final NumberFormatException e) {
      throw new IllegalArgumentException("bad number in key distribution '" + text + "'", e);
    }
  }

  private static void requireArgs(final String[] parts, final int max, final String text) {
    if (parts.length - 1 > max) {
      throw new IllegalArgumentException("too many parameters in key distribution '" + text + "'");
    }
  }

  /** Inverse-CDF sampling over a precomputed weight table. */
  final class TableSampler implements Sampler {
    private final double[] cdf;

    TableSampler(final double[] weights) {
      cdf = new double[weights.length];
      double sum = 0;
      for (int i = 0; i < weights.length; i++) {
        sum += weights[i];
        cdf[i] = sum;
      }
      for (int i = 0; i < cdf.length; i++) {
        cdf[i] /= sum;
      }
    }

    @Override
    public int next(final SplittableRandom random) {
      final double u = random.nextDouble();
      int lo = 0;
      int hi = cdf.length - 1;
      while (lo < hi) {
        final int mid = (lo + hi) >>> 1;
        if (cdf[mid] > u) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      return lo;
    }
  }
}
