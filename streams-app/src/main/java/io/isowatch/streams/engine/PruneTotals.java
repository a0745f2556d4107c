package io.isowatch.streams.engine;

/**
 * What a tenant engine's cuts did so far (docs/segmentation.md): the cuts asked by the prune
 * punctuator and those the engine made by itself on reaching its self-cut size alike.
 *
 * @param cuts cuts made
 * @param pruned transactions pruned by them
 * @param seconds time spent in them
 */
public record PruneTotals(long cuts, long pruned, double seconds) {
  public static final PruneTotals NONE = new PruneTotals(0, 0, 0);
}
