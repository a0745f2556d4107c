package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;

/**
 * What the segmenting wrapper needs of the processed transactions to place a cut
 * (docs/segmentation.md): the latest π time released (the time horizon counts back from it) and,
 * when cuts are aligned on snapshots, the π positions of the snapshot transactions (read-only,
 * every key). Rebuilt by a cut's replay, as the rest of a state.
 */
final class CutPoints {
  private long latestReleasedTime = Long.MIN_VALUE;
  private final IntList snapshots = new IntList(16);

  /** Notes a processed transaction: its π time ({@link TxnIndex#NO_END} if none), and whether it is a snapshot. */
  void processed(final long time, final boolean snapshot, final int piPos) {
    if (time != TxnIndex.NO_END && time > latestReleasedTime) {
      latestReleasedTime = time;
    }
    if (snapshot) {
      snapshots.add(piPos);
    }
  }

  /** The latest π time of a released transaction with a time, or {@code Long.MIN_VALUE}. */
  long latestReleasedTime() {
    return latestReleasedTime;
  }

  /** The greatest snapshot position at most {@code limit}, or 0 if none. */
  int lastSnapshotAtMost(final int limit) {
    int best = 0;
    for (int i = 0; i < snapshots.size(); i++) {
      final int pos = snapshots.get(i);
      if (pos <= limit) {
        best = Math.max(best, pos);
      }
    }
    return best;
  }
}
