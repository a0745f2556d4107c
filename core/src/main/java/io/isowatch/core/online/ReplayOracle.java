package io.isowatch.core.online;

/**
 * While the retained transactions of a segment are processed again into a new state (a cut, or a
 * restore from a checkpoint), answers whether a read of (key, value) was already checked by the
 * state the segment came from: its version was written by a transaction pruned by the cut, so the
 * read is neither pending nor stale (docs/segmentation.md, "How" and "Checkpoints"). The answer
 * depends on (key, value) only, which is what lets a checkpoint record it.
 */
@FunctionalInterface
interface ReplayOracle {
  /** Whether the replaced state resolved a read of key {@code k} returning {@code v} (null: absent). */
  boolean alreadyChecked(int k, Long v);

  /**
   * The same answer, told whether a transaction of the segment already replayed wrote (k, v)
   * ({@code v} non-null, found in the new state): an oracle may use that to answer without the
   * replaced state's tables, but must answer exactly as {@link #alreadyChecked(int, Long)}.
   */
  default boolean alreadyChecked(final int k, final Long v, final boolean writtenInSegment) {
    return alreadyChecked(k, v);
  }
}
