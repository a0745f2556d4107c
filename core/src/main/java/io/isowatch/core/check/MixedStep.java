package io.isowatch.core.check;

/**
 * One known precedence of the mixed check: {@code from} commits before {@code to}, and why. A fact
 * (the initial transaction, session order, a read from a writer) or a consequence of the axiom of
 * {@code reader}'s declared level on its read of {@code key}={@code value} from {@code writer}.
 *
 * @param other the third transaction the rule used (the writer seen, the predecessor or the
 *     conflicting writer), or -1
 * @param arc for {@link Rule#AXIOM}: the derived arc of {@link AxiomArcs} with its path; else null
 */
record MixedStep(int from, int to, Rule rule, String key, Long value, int reader, int writer, int other,
    WeakGraph.Arc arc) {

  /** Why a step holds. */
  enum Rule {
    /** The initial transaction precedes every other. */
    INIT,
    /** Session order. */
    SO,
    /** {@code to} read a value {@code from} wrote. */
    WR,
    /** An RC, RA or CC reader's axiom, whose premise does not depend on the commit order. */
    AXIOM,
    /** The axiom itself: {@code from} (a writer of the key) satisfies the premise, so it precedes the writer read. */
    PREMISE,
    /** SER's axiom read backwards: {@code from} is the reader, {@code to} a writer of the key after the one read. */
    READER_FIRST,
    /** PC/SI's Prefix axiom read backwards: {@code from} precedes the reader in SO ∪ WR, {@code to} writes the key after the one read. */
    PREDECESSOR_FIRST,
    /** SI's Conflict axiom read backwards: {@code to}, writing a key the reader writes, cannot precede the reader. */
    CONFLICT_AFTER,
    /** One case of a case split ({@link MixedSearch}): assumed, not derived. */
    CASE
  }

  static MixedStep fact(final int from, final int to, final Rule rule, final String key, final Long value) {
    return new MixedStep(from, to, rule, key, value, -1, -1, -1, null);
  }

  boolean derived() {
    return rule != Rule.INIT && rule != Rule.SO && rule != Rule.WR;
  }
}
