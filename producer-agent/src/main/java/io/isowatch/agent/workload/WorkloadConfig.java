package io.isowatch.agent.workload;

import io.isowatch.core.gen.KeyDistribution;

/**
 * What transactions to draw (MTC Section V-A1 parameters, minus sessions and count, which belong
 * to the run).
 *
 * @param keys the key space
 * @param distribution how keys are picked (the generator's, {@code isowatch generate --dist})
 * @param shapes the shapes drawn from
 * @param readOnlyRatio probability of drawing a read-only shape; null draws every shape uniformly
 * @param seed the seed; each session derives its own stream from it, so a session's sequence of
 *     plans is reproducible (the interleaving across sessions is not)
 * @param listAppend the list-append workload, which replaces the shapes (a read-only ratio then
 *     says how often a transaction only reads); null for mini-transactions over registers
 */
public record WorkloadConfig(
    KeySpace keys, KeyDistribution distribution, ShapeMix shapes, Double readOnlyRatio, long seed,
    ListAppend listAppend) {

  /** Mini-transactions over registers (the agent's workload before list-append). */
  public WorkloadConfig(
      final KeySpace keys, final KeyDistribution distribution, final ShapeMix shapes, final Double readOnlyRatio,
      final long seed) {
    this(keys, distribution, shapes, readOnlyRatio, seed, null);
  }

  public WorkloadConfig {
    if (listAppend != null) {
      // Shapes do not apply; a ratio is a plain probability.
      if (readOnlyRatio != null && !(readOnlyRatio >= 0 && readOnlyRatio <= 1)) {
        throw new IllegalArgumentException("--read-only-ratio must be in [0,1], got " + readOnlyRatio);
      }
    } else {
      checkShapes(keys, shapes, readOnlyRatio);
    }
  }

  private static void checkShapes(final KeySpace keys, final ShapeMix shapes, final Double readOnlyRatio) {
    if (shapes.maxSlots() > 1 && keys.size() < 2) {
      throw new IllegalArgumentException("shapes " + shapes.spec() + " use two keys; --keys must be at least 2");
    }
    if (readOnlyRatio != null) {
      if (!(readOnlyRatio >= 0 && readOnlyRatio <= 1)) {
        throw new IllegalArgumentException("--read-only-ratio must be in [0,1], got " + readOnlyRatio);
      }
      if (readOnlyRatio > 0 && shapes.readOnlyShapes().isEmpty()) {
        throw new IllegalArgumentException("--read-only-ratio " + readOnlyRatio
            + " needs a read-only shape (R1 or R1R2) in --shapes " + shapes.spec());
      }
      if (readOnlyRatio < 1 && shapes.writingShapes().isEmpty()) {
        throw new IllegalArgumentException("--read-only-ratio " + readOnlyRatio
            + " needs a writing shape in --shapes " + shapes.spec());
      }
    }
  }

  /** True for the list-append workload. */
  public boolean lists() {
    return listAppend != null;
  }
}
