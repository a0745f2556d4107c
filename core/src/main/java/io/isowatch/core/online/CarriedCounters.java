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
    return new CarriedCounters(s.input, s.committed, s.aborted, s.promoted, s.operations, s.longRmw,
        s.largeReadOnly, s.duplicates, s.late, s.missingTimes, s.repeatSeen, s.keys.headCounts(),
        s.keys.ambiguousFlags());
  }

  void applyTo(final OnlineState s) {
    s.input = input;
    s.committed = committed;
    s.aborted = aborted;
    s.promoted = promoted;
    s.operations = operations;
    s.longRmw = longRmw;
    s.largeReadOnly = largeReadOnly;
    s.duplicates = duplicates;
    s.late = late;
    s.missingTimes = missingTimes;
    s.repeatSeen = repeatSeen;
    s.keys.setFlags(heads, ambiguous);
  }
}
