package io.isowatch.core.check;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The isolation levels IsoWatch decides, declared weakest first (docs/levels.md has the
 * definitions, a minimal history for each and the hierarchy). Every history that satisfies a
 * level satisfies each level declared before it ({@link #implies}), except for Adya's two levels,
 * which have no session order: {@link #PL2} is implied by every other level, and {@link #RR} only
 * by SER and SSER (it implies PL2 alone). On key-value histories (no predicate reads) PL-2.99
 * forbids every cycle PL-3 forbids, so RR is SER without session order.
 *
 * <ul>
 *   <li>{@link #PL2}: Adya's PL-2, no G0, G1a, G1b or G1c: reads see committed, final writes, and
 *       WR ∪ WW is acyclic for some version order (no session order, as in Adya's DSG);
 *   <li>{@link #RC}: Read Committed as the axiom of Biswas-Enea (paper 002): some commit order
 *       extends SO ∪ WR and orders before the writer a read returns every other writer of the key
 *       that an earlier read of the same transaction read from;
 *   <li>{@link #RA}: Read Atomic: the same, for every writer the transaction read from or follows in
 *       its session (no fractured reads);
 *   <li>{@link #CC}: transactional causal consistency: the same, for every writer that precedes the
 *       transaction in (SO ∪ WR)+;
 *   <li>{@link #PC}: prefix consistency (Prefix axiom): CC, and every transaction sees a prefix of
 *       the commit order;
 *   <li>{@link #SI}: some dependency graph has (SO ∪ WR ∪ WW) ; RW? acyclic (MTC Def. 6);
 *   <li>{@link #RR}: Adya's PL-2.99 (no G1, no G2-item): WR ∪ WW ∪ RW acyclic for some version
 *       order, without session order;
 *   <li>{@link #SER}: some dependency graph has SO ∪ WR ∪ WW ∪ RW acyclic (MTC Def. 5);
 *   <li>{@link #SSER}: some dependency graph has RT ∪ SO ∪ WR ∪ WW ∪ RW acyclic (MTC Def. 4);
 *   <li>{@link #MIXED}: each transaction at the level it declared (paper 003, Definition 6): one
 *       commit order extends SO ∪ WR and satisfies, for every read, the axiom of its reader's level
 *       (RC, RA, CC, PC, SI or SER). It is not on the chain: SER and SSER imply it (every declared
 *       level is at most SER), it implies nothing but itself. Declared last, so reports list it last.
 * </ul>
 *
 * <p>All also require the internal-consistency axiom (Int) and a committed writer for every value
 * read. SO is included for SSER because the model assumes SO ⊆ RT; adding it keeps SSER ⊆ SER
 * even when client clocks are skewed.
 */
public enum Level {
  PL2,
  RC,
  RA,
  CC,
  PC,
  SI,
  RR,
  SER,
  SSER,
  MIXED;

  /** The levels a transaction may declare for {@link #MIXED}: those with commit-order axioms, weakest first. */
  public static final List<Level> MIXABLE = List.of(RC, RA, CC, PC, SI, SER);

  /** The levels IsoWatch decided before issue 12, strongest first: the default of {@code --levels}. */
  public static final Set<Level> CLASSIC = Collections.unmodifiableSet(EnumSet.of(SI, SER, SSER));

  /** Levels whose decision needs each key's version order, so a blind write can leave them open. */
  public static final Set<Level> NEED_VERSION_ORDER = Collections.unmodifiableSet(EnumSet.of(PC, SI, RR, SER, SSER));

  /** The levels {@link WeakLevelCheck} decides (docs/levels.md, "How IsoWatch decides each level"). */
  public static final Set<Level> WEAK = Collections.unmodifiableSet(EnumSet.of(PL2, RC, RA, CC, RR));

  /** This level and every level that implies it: what a violation of this level also violates. */
  public Set<Level> andStronger() {
    final EnumSet<Level> out = EnumSet.noneOf(Level.class);
    for (final Level l : values()) {
      if (l.implies(this)) {
        out.add(l);
      }
    }
    return Collections.unmodifiableSet(out);
  }

  /** Whether every history satisfying this level satisfies {@code weaker} (reflexive). */
  public boolean implies(final Level weaker) {
    // Declaration order is the hierarchy, but for Adya's levels, which ignore session order, and
    // MIXED, which depends on what each transaction declared (at most SER).
    if (this == MIXED) {
      return weaker == MIXED;
    }
    if (weaker == MIXED) {
      return this == SER || this == SSER || this == MIXED;
    }
    if (this == PL2 || this == RR) {
      return weaker == this || weaker == PL2;
    }
    if (weaker == RR) {
      return this == SER || this == SSER;
    }
    return ordinal() >= weaker.ordinal();
  }

  /**
   * The levels as an unmodifiable set that iterates strongest first (SSER, SER, RR, SI, ...),
   * whatever the order of {@code levels}: the order of the Avro contracts ("strongest first").
   */
  public static Set<Level> strongestFirst(final Collection<Level> levels) {
    final List<Level> all = List.of(values());
    final LinkedHashSet<Level> ordered = new LinkedHashSet<>();
    for (int i = all.size() - 1; i >= 0; i--) {
      if (levels.contains(all.get(i))) {
        ordered.add(all.get(i));
      }
    }
    return Collections.unmodifiableSet(ordered);
  }

  /**
   * The levels of {@code violates} that a check shows: SSER, SER and SI (shown whatever was
   * requested, as before the weak levels) and the requested ones. An anomaly lists those only, so
   * that a check of the classic levels reports exactly what it reported before.
   */
  public static Set<Level> shown(final Set<Level> violates, final Set<Level> requested) {
    final EnumSet<Level> out = EnumSet.noneOf(Level.class);
    for (final Level l : violates) {
      if (CLASSIC.contains(l) || requested.contains(l)) {
        out.add(l);
      }
    }
    return out;
  }

  /** The levels weakest first, the order of reports: a reader sees the strongest level that holds last. */
  public static List<Level> weakestFirst(final Collection<Level> levels) {
    return java.util.stream.Stream.of(values()).filter(levels::contains).toList();
  }

  public static Level parse(final String s) {
    return switch (s.trim().toUpperCase(Locale.ROOT).replace('_', '-')) {
      case "SSER", "STRICT-SERIALIZABLE" -> SSER;
      case "SER", "SERIALIZABLE" -> SER;
      case "SI", "SNAPSHOT", "SNAPSHOT-ISOLATION" -> SI;
      case "RR", "PL-2.99", "PL2.99", "REPEATABLE-READ" -> RR;
      case "PC", "PREFIX", "PREFIX-CONSISTENCY" -> PC;
      case "CC", "CAUSAL", "CAUSAL-CONSISTENCY", "TCC" -> CC;
      case "RA", "READ-ATOMIC" -> RA;
      case "RC", "READ-COMMITTED" -> RC;
      case "PL2", "PL-2", "ADYA-RC" -> PL2;
      case "MIXED", "DECLARED" -> MIXED;
      default -> throw new IllegalArgumentException(
          "unknown level '" + s + "' (expected one of PL2, RC, RA, CC, PC, SI, RR, SER, SSER, MIXED)");
    };
  }
}
