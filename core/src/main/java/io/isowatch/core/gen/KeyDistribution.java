package io.isowatch.core.gen;

import java.util.Locale;

/**
 * How transactions pick keys among {@code 0..keys-1} (MTC Section V-A1: uniform, zipfian, hotspot
 * and exponential object access). Key {@code 0} is the hottest key of every skewed distribution.
 * The one implementation behind {@code isowatch generate --dist} and {@code isowatch agent --dist}.
 *
 * <p>Spellings ({@link #parse}): {@code uniform}; {@code zipf[:θ]} (θ = 0.99 by default); {@code
 * hotspot[:F1:F2]}, two fractions in either order, the smaller the share of keys that is hot and
 * the larger the share of accesses they get ({@code hotspot:0.2:0.8} and {@code hotspot:0.8:0.2}
 * both send 80% of accesses to the first 20% of keys, the default); {@code exponential[:λ]} (λ over
 * the key range, 10 by default).
 */
public sealed interface KeyDistribution {

  /** A sampler over {@code 0..keys-1}; its memory may grow with the number of keys only. */
  KeySampler sampler(int keys);

  /** The command-line spelling, which {@link #parse} reads back. */
  String spec();

  /** Every key equally likely. */
  record Uniform() implements KeyDistribution {
    @Override
    public KeySampler sampler(final int keys) {
      return rnd -> rnd.nextInt(keys);
    }

    @Override
    public String spec() {
      return "uniform";
    }
  }

  /**
   * Zipfian: key {@code i} has probability proportional to {@code 1/(i+1)^θ} (YCSB uses θ = 0.99).
   *
   * @param theta the skew, {@code >= 0}; 0 is uniform
   */
  record Zipf(double theta) implements KeyDistribution {
    public static final double DEFAULT_THETA = 0.99;

    public Zipf {
      if (!(theta >= 0) || Double.isInfinite(theta)) {
        throw new IllegalArgumentException("zipf θ must be a finite number >= 0, got " + theta);
      }
    }

    @Override
    public KeySampler sampler(final int keys) {
      return new ZipfSampler(keys, theta);
    }

    @Override
    public String spec() {
      return "zipf:" + theta;
    }
  }

  /**
   * Hotspot (YCSB): a hot set of the first {@code hotKeys} fraction of the keys (at least one key)
   * receives the {@code hotOps} fraction of accesses, uniformly within each set. A hot set gets at
   * least its share ({@code hotOps >= hotKeys}), which is what lets {@link #parse} read the two
   * fractions in either order.
   */
  record Hotspot(double hotKeys, double hotOps) implements KeyDistribution {
    public static final double DEFAULT_HOT_KEYS = 0.2;
    public static final double DEFAULT_HOT_OPS = 0.8;

    public Hotspot {
      if (!(hotKeys > 0 && hotKeys <= 1) || !(hotOps >= hotKeys && hotOps <= 1)) {
        throw new IllegalArgumentException(
            "hotspot needs 0 < hotKeys <= hotOps <= 1, got hotKeys " + hotKeys + ", hotOps " + hotOps);
      }
    }

    /** The hotspot of two fractions given in either order: the smaller is the share of keys. */
    public static Hotspot ofFractions(final double a, final double b) {
      return new Hotspot(Math.min(a, b), Math.max(a, b));
    }

    @Override
    public KeySampler sampler(final int keys) {
      final int hot = Math.max(1, (int) Math.ceil(hotKeys * keys));
      final int cold = keys - hot;
      return rnd -> {
        if (cold == 0 || rnd.nextDouble() < hotOps) {
          return rnd.nextInt(hot);
        }
        return hot + rnd.nextInt(cold);
      };
    }

    @Override
    public String spec() {
      return "hotspot:" + hotKeys + ":" + hotOps;
    }
  }

  /**
   * Exponential: key {@code i} has density proportional to {@code exp(-λ·i/keys)}, truncated to the
   * key range. With the default λ = 10, about 63% of accesses go to the first 10% of the keys.
   */
  record Exponential(double lambda) implements KeyDistribution {
    public static final double DEFAULT_LAMBDA = 10.0;

    public Exponential {
      if (!(lambda > 0) || Double.isInfinite(lambda)) {
        throw new IllegalArgumentException("exponential λ must be a finite number > 0, got " + lambda);
      }
    }

    @Override
    public KeySampler sampler(final int keys) {
      final double mass = -Math.expm1(-lambda);
      return rnd -> {
        // Inverse CDF of the exponential truncated to [0, 1), scaled to the key range.
        final double x = -Math.log1p(-rnd.nextDouble() * mass) / lambda;
        return Math.min(keys - 1, (int) (x * keys));
      };
    }

    @Override
    public String spec() {
      return "exponential:" + lambda;
    }
  }

  /** Reads {@code uniform}, {@code zipf[:θ]}, {@code hotspot[:F1:F2]}, {@code exponential[:λ]} (see above). */
  static KeyDistribution parse(final String text) {
    final String[] parts = text.trim().toLowerCase(Locale.ROOT).split(":");
    try {
      return switch (parts[0]) {
        case "uniform" -> {
          requireArgs(parts, 0, 0);
          yield new Uniform();
        }
        case "zipf", "zipfian" -> {
          requireArgs(parts, 0, 1);
          yield new Zipf(parts.length > 1 ? Double.parseDouble(parts[1]) : Zipf.DEFAULT_THETA);
        }
        case "hotspot" -> {
          if (parts.length == 2) {
            throw new IllegalArgumentException("hotspot takes both fractions, e.g. hotspot:"
                + Hotspot.DEFAULT_HOT_KEYS + ":" + Hotspot.DEFAULT_HOT_OPS + ", got '" + text + "'");
          }
          requireArgs(parts, 0, 2);
          yield parts.length == 1 ? new Hotspot(Hotspot.DEFAULT_HOT_KEYS, Hotspot.DEFAULT_HOT_OPS)
              : Hotspot.ofFractions(Double.parseDouble(parts[1]), Double.parseDouble(parts[2]));
        }
        case "exponential", "exp" -> {
          requireArgs(parts, 0, 1);
          yield new Exponential(parts.length > 1 ? Double.parseDouble(parts[1]) : Exponential.DEFAULT_LAMBDA);
        }
        default -> throw new IllegalArgumentException("unknown key distribution '" + text
            + "' (expected uniform, zipf[:θ], hotspot[:F1:F2] or exponential[:λ])");
      };
    } catch (final NumberFormatException e) {
      throw new IllegalArgumentException("bad number in key distribution '" + text + "'", e);
    }
  }

  private static void requireArgs(final String[] parts, final int min, final int max) {
    final int args = parts.length - 1;
    if (args < min || args > max) {
      throw new IllegalArgumentException(
          "'" + parts[0] + "' takes " + min + " to " + max + " ':'-separated parameters, got " + args);
    }
  }
}
