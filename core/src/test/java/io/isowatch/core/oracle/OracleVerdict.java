package io.isowatch.core.oracle;

import io.isowatch.core.check.Level;

/**
 * What the brute-force oracle decided for one history.
 *
 * @param sser whether the history satisfies SSER, or null when some counted transaction lacks a
 *     start, or an end while committed, and SER holds (then SSER cannot be decided)
 * @param ser whether the history satisfies SER
 * @param si whether the history satisfies SI
 * @param sserWithKnownRt whether some dependency graph is acyclic when only the real-time edges
 *     between transactions that both have times are added: false proves SSER violated even when
 *     {@code sser} is null
 * @param counted how many transactions were counted as committed (including promoted unknown ones)
 * @param choices how many (WR, WW) choices were enumerated before the answer was known
 */
public record OracleVerdict(
    Boolean sser, boolean ser, boolean si, boolean sserWithKnownRt, int counted, long choices) {

  /** The verdict for one level: true, false, or null when undecidable (SSER only). */
  public Boolean holds(final Level level) {
    return switch (level) {
      case SSER -> sser;
      case SER -> ser;
      case SI -> si;
      default -> throw new IllegalArgumentException("this oracle decides SSER, SER and SI only (WeakLevelOracle decides "
          + "the others), not " + level);
    };
  }

  /** True when the level is certainly violated (for SSER also when only known RT edges prove it). */
  public boolean certainlyViolated(final Level level) {
    if (level == Level.SSER) {
      return !sserWithKnownRt;
    }
    return Boolean.FALSE.equals(holds(level));
  }

  static OracleVerdict allFalse(final int counted) {
    return new OracleVerdict(false, false, false, false, counted, 0);
  }
}
