package io.isowatch.core.online;

/**
 * A cut in progress: the state being replaced and the first retained π position. While the
 * retained transactions are processed again into the new state, a read of a version whose writer
 * was pruned was already checked by the old state (with more edges than the new one can have),
 * so it is neither pending nor a stale read (docs/segmentation.md, "How").
 */
final class CutReplay implements ReplayOracle {
  private final OnlineState old;
  private final int cut;
  /**
   * The (key, value) of the old state's versions that were written again and whose writer is
   * pruned (see {@link #alreadyChecked(int, Long, boolean)}); null when made for {@link #pruned} only.
   */
  private final KeyValueTable prunedRepeated;

  /** For {@link #pruned} only. */
  CutReplay(final OnlineState old, final int cut) {
    this.old = old;
    this.cut = cut;
    this.prunedRepeated = null;
  }

  private CutReplay(final OnlineState old, final int cut, final KeyValueTable prunedRepeated) {
    this.old = old;
    this.cut = cut;
    this.prunedRepeated = prunedRepeated;
  }

  /** The oracle of a cut's replay: also notes the pruned versions written again (one pass over the versions). */
  static CutReplay forReplay(final OnlineState old, final int cut) {
    final CutReplay r = new CutReplay(old, cut);
    final VersionChains chains = old.chains;
    final KeyValueTable repeated = new KeyValueTable(16);
    for (int ver = 0; ver <= chains.lastVersion(); ver++) {
      if (chains.isRepeated(ver) && r.pruned(chains.writer(ver))) {
        repeated.put(chains.versionKey(ver), chains.rawValue(ver), ver);
      }
    }
    return new CutReplay(old, cut, repeated);
  }

  boolean pruned(final int slot) {
    if (slot == TxnIndex.INIT) {
      return true;
    }
    final int pos = old.txns.piPos(slot);
    return pos >= 0 && pos < cut;
  }

  /** Whether the old state resolved a read of (k, v) to a version written by a pruned transaction. */
  @Override
  public boolean alreadyChecked(final int k, final Long v) {
    if (k >= old.chains.keyCount()) {
      return false;
    }
    if (old.chains.readsInitial(k, v)) {
      return true;
    }
    if (v == null) {
      return false;
    }
    final int version = old.chains.find(k, v);
    return version >= 0 && pruned(old.chains.writer(version));
  }

  /**
   * The same answer, cheaper when a retained transaction wrote (k, v): the old state holds that
   * write too, so its version of (k, v) (the first one written) is a pruned writer's only if that
   * version was written again, which marked it repeated. Without such a version the answer is no,
   * and the old state's (key, value) table, as large as both segments, is not probed.
   */
  @Override
  public boolean alreadyChecked(final int k, final Long v, final boolean writtenInSegment) {
    if (writtenInSegment && prunedRepeated != null && k < old.chains.keyCount() && !old.chains.readsInitial(k, v)
        && prunedRepeated.get(k, v) < 0) {
      return false;
    }
    return alreadyChecked(k, v);
  }
}
