package io.isowatch.core.check;

/**
 * A three-valued verdict for one isolation level.
 *
 * <ul>
 *   <li>{@link #SATISFIED}: the history provably satisfies the level.
 *   <li>{@link #VIOLATED}: the history provably violates it; at least one anomaly is the proof.
 *   <li>{@link #UNKNOWN}: the checker cannot decide without guessing (e.g. blind writes leave the
 *       version order open, or SSER without timestamps); the findings say why.
 * </ul>
 */
public enum Verdict {
  SATISFIED,
  VIOLATED,
  UNKNOWN
}
