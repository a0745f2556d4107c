package io.isowatch.core.check;

/** Kinds of dependency edge between two transactions (Adya; MTC Definition 3). */
public enum EdgeKind {
  /** Session order: same session, the source ran first. */
  SO,
  /** Real-time order: the source ended before the target started (beyond the skew tolerance). */
  RT,
  /** Write-read: the target read a value the source wrote. */
  WR,
  /** Write-write: the target installed the next version after the source's on the key. */
  WW,
  /** Read-write (anti-dependency): the source read a version the target overwrote. */
  RW
}
