package io.isowatch.core.check;

/**
 * One step u→v of a counterexample cycle with every dependency that holds from u to v, as a
 * bitmask over {@link EdgeKind} ordinals, and the ids of the table edges behind it.
 */
record CycleStep(int from, int to, int mask, int[] edgeIds) {
  static final int SO = 1 << EdgeKind.SO.ordinal();
  static final int RT = 1 << EdgeKind.RT.ordinal();
  static final int WR = 1 << EdgeKind.WR.ordinal();
  static final int WW = 1 << EdgeKind.WW.ordinal();
  static final int RW = 1 << EdgeKind.RW.ordinal();

  /** Some dependency of SER's graph holds: SO, WR, WW or RW. */
  boolean inSerGraph() {
    return has(SO | WR | WW | RW);
  }

  /** The same step with real time dropped. */
  CycleStep withoutRealTime() {
    return new CycleStep(from, to, mask & ~RT, edgeIds);
  }

  boolean has(final int kinds) {
    return (mask & kinds) != 0;
  }

  /** Only an anti-dependency holds: the step SI lets follow a dependency, but not another RW. */
  boolean rwOnly() {
    return mask == RW;
  }

  /** The step holds only because of real time. */
  boolean needsRealTime() {
    return has(RT) && !has(WW | WR | SO);
  }

  /** The step holds only because of session order. */
  boolean needsSession() {
    return has(SO) && !has(WW | WR);
  }
}
