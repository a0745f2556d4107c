package io.isowatch.core.check;

/**
 * A non-cycle anomaly found while resolving reads: the read at {@code opIndex} of transaction
 * {@code reader} on {@code key} returned {@code value}. Transaction and key ids are those of the
 * engine's {@link DependencyView}.
 *
 * @param kind which anomaly (MTC Table I (a)-(g))
 * @param reader the reading transaction
 * @param writer the transaction the value came from, or -1 when there is none
 * @param key key id
 * @param value the value read (null: absent)
 * @param expected what a correct read would have returned, where defined (own last write, first
 *     read); null otherwise
 * @param opIndex position of the offending read in the reader's ops
 */
public record ReadAnomaly(Kind kind, int reader, int writer, int key, Long value, Long expected, int opIndex) {

  /** The seven non-cycle anomalies, with their Adya/Elle type. */
  public enum Kind {
    ThinAirRead("thin-air"),
    AbortedRead("G1a"),
    IntermediateRead("G1b"),
    FutureRead("internal"),
    NotMyOwnWrite("internal"),
    NotMyLastWrite("internal"),
    NonRepeatableReads("internal");

    private final String type;

    Kind(final String type) {
      this.type = type;
    }

    /**
     * The levels it violates: all of them, except that two reads of one key returning different
     * versions are allowed by both readings of Read Committed (a "fuzzy read"); from RA up, every
     * read of a transaction is ordered after the writers it saw (docs/levels.md).
     */
    public java.util.Set<io.isowatch.core.check.Level> violates() {
      if (this != NonRepeatableReads) {
        return java.util.EnumSet.allOf(Level.class);
      }
      final java.util.EnumSet<Level> levels = java.util.EnumSet.copyOf(Level.RA.andStronger());
      levels.add(Level.RR); // the second read's writer overwrote the first's version, or the reverse: G-single
      return levels;
    }

    /** The Adya/Elle type reported for it. */
    public String type() {
      return type;
    }
  }
}
