package io.isowatch.core.gen;

import java.util.SplittableRandom;

/**
 * The background workload's choices: which session runs next, which shape, which keys. Holds only
 * per-key and per-session data, so its memory does not grow with the history.
 */
final class Workload {
  private static final int DISTINCT_KEY_TRIES = 32;

  private final SplittableRandom rnd;
  private final String[] keyNames;
  private final String[] sessionNames;
  private final KeySampler sampler;
  private final MtShape[] readOnly;
  private final MtShape[] writing;
  private final double readOnlyRatio;

  Workload(final GeneratorConfig config, final SplittableRandom rnd) {
    this.rnd = rnd;
    keyNames = names("k", config.keys());
    sessionNames = names("s", config.sessions());
    sampler = config.distribution().sampler(config.keys());
    readOnly = config.shapes().stream().filter(MtShape::isReadOnly).toArray(MtShape[]::new);
    writing = config.shapes().stream().filter(s -> !s.isReadOnly()).toArray(MtShape[]::new);
    readOnlyRatio = config.readOnlyRatio();
  }

  SplittableRandom rnd() {
    return rnd;
  }

  int keys() {
    return keyNames.length;
  }

  int sessions() {
    return sessionNames.length;
  }

  String keyName(final int k) {
    return keyNames[k];
  }

  String sessionName(final int s) {
    return sessionNames[s];
  }

  int nextSession() {
    return rnd.nextInt(sessionNames.length);
  }

  MtShape nextShape() {
    // The config guarantees the chosen side is non-empty whenever its probability is positive.
    final MtShape[] from = rnd.nextDouble() < readOnlyRatio ? readOnly : writing;
    return from[rnd.nextInt(from.length)];
  }

  int nextKey() {
    return sampler.next(rnd);
  }

  /** A key other than {@code first}, drawn from the same distribution while that converges. */
  int nextKeyOtherThan(final int first) {
    for (int i = 0; i < DISTINCT_KEY_TRIES; i++) {
      final int k = sampler.next(rnd);
      if (k != first) {
        return k;
      }
    }
    // A distribution concentrated on one key: fall back to a uniform other key.
    return (first + 1 + rnd.nextInt(keyNames.length - 1)) % keyNames.length;
  }

  private static String[] names(final String prefix, final int n) {
    final String[] out = new String[n];
    for (int i = 0; i < n; i++) {
      out[i] = prefix + i;
    }
    return out;
  }
}
