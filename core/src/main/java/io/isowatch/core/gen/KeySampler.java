package io.isowatch.core.gen;

import java.util.SplittableRandom;

/** Draws a key index in {@code 0..keys-1}. */
@FunctionalInterface
public interface KeySampler {
  int next(SplittableRandom rnd);
}
