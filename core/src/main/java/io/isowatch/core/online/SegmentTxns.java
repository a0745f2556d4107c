package io.isowatch.core.online;

import io.isowatch.core.history.Transaction;

/**
 * The transactions a new state is rebuilt from (a cut, a restore): first the {@code retained}
 * processed ones in π order, then the buffered ones in the order the buffer gives them up
 * ({@link ReorderBuffer#slots()}), each with its rank and session id. The order fixes the slots
 * of the new state, so a restore gives every transaction the slot the cut gave it.
 */
record SegmentTxns(Transaction[] txns, long[] ranks, int[] sessions, int retained) {
  int size() {
    return txns.length;
  }

  /** The retained transactions (from π position {@code cut}) and the buffer of {@code s}. */
  static SegmentTxns of(final OnlineState s, final int cut) {
    final int released = s.txns.released();
    final io.isowatch.core.graph.IntList buffered = s.buffer.slots();
    final int n = released - cut + buffered.size();
    final Transaction[] txns = new Transaction[n];
    final long[] ranks = new long[n];
    final int[] sessions = new int[n];
    for (int i = 0; i < n; i++) {
      final int slot = i < released - cut ? s.txns.releasedAt(cut + i) : buffered.get(i - (released - cut));
      txns[i] = s.txns.txn(slot);
      ranks[i] = s.txns.rank(slot);
      sessions[i] = s.txns.session(slot);
    }
    return new SegmentTxns(txns, ranks, sessions, released - cut);
  }
}
