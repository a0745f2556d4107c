package io.isowatch.core.online;

/**
 * What replaying a segment into a new state must not change (docs/segmentation.md, "How"): the
 * replay redoes counted work of the state the segment came from, so after it the counters and the
 * keys' open-order flags are that state's. Taken from the replaced state by a cut, read from the
 * checkpoint by a restore.
 */
record CarriedCounters(long input, long committed, long aborted, long promoted, long operations, long longRmw,
    long largeReadOnly, long duplicates, long late, boolean missingTimes, boolean repeatSeen, int[] heads,
    boolean[] ambiguous) {

  static CarriedCounters of(final OnlineState s) {
    final Counters c = s.counters;
    return new CarriedCounters(c.input(), c.committed(), c.aborted(), c.promoted(), c.operations(), c.longRmw(),
        c.largeReadOnly(), c.duplicates(), c.late(), c.missingTimes(), s.repeats.seen(), s.chains.headCounts(),
        s.chains.ambiguousFlags());
  }

  void applyTo(final OnlineState s) {
    s.counters.restore(this);
    s.repeats.restoreSeen(repeatSeen);
    s.chains.setOrderFlags(heads, ambiguous);
  }
}
