package io.isowatch.core.online;

/**
 * A cut in progress: the state being replaced and the first retained π position. While the
 * retained transactions are processed again into the new state, a read of a version whose writer
 * was pruned was already checked by the old state (with more edges than the new one can have),
 * so it is neither pending nor a stale read (docs/segmentation.md, "How").
 */
record CutReplay(OnlineState old, int cut) implements ReplayOracle {
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
}
