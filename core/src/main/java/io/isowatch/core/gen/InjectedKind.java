package io.isowatch.core.gen;

import io.isowatch.core.check.Level;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The anomalies the generator can inject, each as the minimal mini-transaction pattern of MTC
 * Figure 5 / Table I on fresh keys and fresh sessions (so the pattern is the whole counterexample
 * and no background transaction joins its cycle). {@link #patternName()} is the name the checker is
 * expected to report it under.
 */
// The levels each pattern violates as the checker lists them (docs/levels.md).
public enum InjectedKind {
  /** MTC 5(m): two transactions read x=0 and both overwrite it (Divergence). */
  LOST_UPDATE("LostUpdate", 2, EnumSet.of(Level.SI, Level.RR, Level.SER, Level.SSER)),
  /** MTC 5(n): both read x and y; one writes x, the other y. Allowed by SI. */
  WRITE_SKEW("WriteSkew", 2, EnumSet.of(Level.RR, Level.SER, Level.SSER)),
  /** MTC 5(j): T1 writes x and y; T2 reads the older y, then T1's x. */
  FRACTURED_READ("FracturedRead", 2, EnumSet.range(Level.RA, Level.SSER)),
  /** MTC 5(i): T3 reads y from T2, then the older x from T1, though T2 overwrote T1's x. */
  NON_MONOTONIC_READ("NonMonotonicRead", 3, EnumSet.range(Level.RC, Level.SSER)),
  /** MTC 5(k): T2 saw T1's x and wrote y; T3 sees T2's y but misses T1's x. */
  CAUSALITY_VIOLATION("CausalityViolation", 3, EnumSet.range(Level.CC, Level.SSER)),
  /** MTC 5(l): T1 writes x, T2 writes y; T3 sees only x, T4 sees only y. */
  LONG_FORK("LongFork", 4, EnumSet.of(Level.PC, Level.SI, Level.RR, Level.SER, Level.SSER)),
  /** MTC 5(h): T3 misses the write of T2, which precedes it in its session. */
  SESSION_GUARANTEE_VIOLATION("SessionGuaranteeViolation", 3, EnumSet.of(Level.CC, Level.PC, Level.SI, Level.SER,
      Level.SSER)),
  /** MTC 5(b), Adya G1a: a committed transaction reads a value written by an aborted one. */
  ABORTED_READ("AbortedRead", 2, EnumSet.allOf(Level.class)),
  /** MTC 5(a): a transaction reads a value nobody wrote. */
  THIN_AIR_READ("ThinAirRead", 1, EnumSet.allOf(Level.class)),
  /** MTC 5(f), Adya G1b: a transaction reads a value its writer later overwrote itself. */
  INTERMEDIATE_READ("IntermediateRead", 2, EnumSet.allOf(Level.class));

  private final String patternName;
  private final int transactions;
  private final Set<Level> violates;

  InjectedKind(final String patternName, final int transactions, final Set<Level> violates) {
    this.patternName = patternName;
    this.transactions = transactions;
    this.violates = Set.copyOf(violates);
  }

  /** The MTC Table I name, as used on the command line and by the checker. */
  public String patternName() {
    return patternName;
  }

  /** How many transactions one instance of the pattern adds. */
  public int transactions() {
    return transactions;
  }

  /** The levels one instance alone violates. */
  public Set<Level> violates() {
    return violates;
  }

  /** Reads a pattern name ({@code LostUpdate}) or a constant name ({@code LOST_UPDATE}), any case. */
  public static InjectedKind parse(final String s) {
    final String wanted = s.trim().replace("_", "").replace("-", "").toLowerCase(Locale.ROOT);
    for (final InjectedKind k : values()) {
      if (k.patternName.toLowerCase(Locale.ROOT).equals(wanted)) {
        return k;
      }
    }
    throw new IllegalArgumentException("unknown anomaly '" + s + "' (expected one of " + names() + ")");
  }

  private static String names() {
    final StringBuilder sb = new StringBuilder();
    for (final InjectedKind k : values()) {
      sb.append(sb.length() == 0 ? "" : ", ").append(k.patternName);
    }
    return sb.toString();
  }
}
