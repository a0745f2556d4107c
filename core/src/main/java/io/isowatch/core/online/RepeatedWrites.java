package io.isowatch.core.online;

/**
 * What a state knows of values written more than once: the repeats declared ahead of their
 * writers ({@link RepeatedValues}: the whole history's from a {@link WholeHistoryCheck}, the
 * buffer's at a flush), whether the whole history's were declared (then a flush need not look),
 * and whether a repeat was seen among processed writes. Carried from state to state by a cut.
 */
final class RepeatedWrites {
  /** Written values declared repeated ahead of their writers, or null. */
  private RepeatedValues declared;
  /** A {@link WholeHistoryCheck} declared the repeated values of the whole history. */
  private boolean wholeHistory;
  /** Some processed write repeated a value. */
  private boolean seen;

  /** Whether (key, v) was declared repeated ahead of its writers. */
  boolean declared(final String key, final long v) {
    return declared != null && declared.contains(key, v);
  }

  /** The values declared repeated, or null. */
  RepeatedValues declaredValues() {
    return declared;
  }

  /** Whether the whole history's repeats were declared (a {@link WholeHistoryCheck} only). */
  boolean wholeHistoryDeclared() {
    return wholeHistory;
  }

  boolean seen() {
    return seen;
  }

  void markSeen() {
    seen = true;
  }

  /** A {@link WholeHistoryCheck}'s declaration: the repeats of the whole history (null: none). */
  void declareWholeHistory(final RepeatedValues repeated) {
    declared = repeated;
    wholeHistory = true;
  }

  /** Adds the repeats among transactions still buffered at a flush. */
  void declareAlso(final RepeatedValues more) {
    declared = RepeatedValues.union(declared, more);
  }

  /** What a cut or a restore carries into a new state (whether a repeat was seen comes with the counters). */
  void carry(final RepeatedValues values, final boolean whole) {
    declared = values;
    wholeHistory = whole;
  }

  void restoreSeen(final boolean repeatSeen) {
    seen = repeatSeen;
  }
}
