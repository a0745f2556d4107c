package io.isowatch.core.check;

/**
 * One step u→v of a counterexample cycle with every dependency that holds from u to v, as a
 * bitmask over {@link EdgeKind} ordinals, and the ids of the dependency edges behind it (ids of the
 * engine's {@link DependencyView}). SO is set when u precedes v in session order, directly or not;
 * RT when u precedes v in real time.
 */
public record CycleStep(int from, int to, int mask, int[] edgeIds) {
  public static final int SO = 1 << EdgeKind.SO.ordinal();
  public static final int RT = 1 << EdgeKind.RT.ordinal();
  public static final int WR = 1 << EdgeKind.WR.ordinal();
  public static final int WW = 1 << EdgeKind.WW.ordinal();
  public static final int RW = 1 << EdgeKind.RW.ordinal();

  /** Some dependency of SER's graph holds: SO, WR, WW or RW. */
  public boolean inSerGraph() {
    return has(SO | WR | WW | RW);
  }

  /** The same step with real time dropped. */
  public CycleStep withoutRealTime() {
    return new CycleStep(from, to, mask & ~RT, edgeIds);
  }

  public boolean has(final int kinds) {
    return (mask & kinds) != 0;
  }

  /** Only an anti-dependency holds: the step SI lets follow a dependency, but not another RW. */
  public boolean rwOnly() {
    return mask == RW;
  }

  /** The step holds only because of real time. */
  public boolean needsRealTime() {
    return has(RT) && !has(WW | WR | SO);
  }

  /** The step holds only because of session order. */
  public boolean needsSession() {
    return has(SO) && !has(WW | WR);
  }
}
