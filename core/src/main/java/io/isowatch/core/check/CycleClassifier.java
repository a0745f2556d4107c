package io.isowatch.core.check;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Names a cycle three ways: its Adya class (Adya 1999; Elle's -process and -realtime variants),
 * the MTC Table I pattern it matches, if any, and the levels it violates.
 *
 * <ul>
 *   <li>G0: every step is a write dependency (or session/real-time order), at least one WW.
 *   <li>G1c: every step is a dependency other than RW.
 *   <li>G-single: exactly one step is only an anti-dependency (RW); G2-item: two or more.
 * </ul>
 *
 * <p>Levels (MTC Definitions 4-6): every cycle violates SSER; SER unless a step needs real time;
 * SI unless a step needs real time or two RW-only steps are adjacent (SI allows (SO ∪ WR ∪ WW) ;
 * RW? steps only). Steps carry every kind that holds between their transactions, with SO and RT
 * transitive; when every step holds in SER's graph, RT is ignored.
 */
final class CycleClassifier {
  private CycleClassifier() {}

  record Classification(String type, String name, Set<Level> violates) {}

  /** Finds where, in a transaction's program order, it first read a key (or -1). */
  interface ReadPosition {
    int firstRead(int txn, int key);
  }

  /** Key of a step's first WR edge, and key of a step's first RW edge; -1 if none. */
  interface StepKeys {
    int wrKey(CycleStep step);

    int rwKey(CycleStep step);
  }

  static Classification classify(final List<CycleStep> given, final ReadPosition pos, final StepKeys keys) {
    // A cycle all of whose steps lie in SER's graph violates SER whatever real time adds, so it is
    // read without RT (a step with RT and RW is an RW step); only a cycle that needs RT keeps it.
    final List<CycleStep> steps = given.stream().allMatch(CycleStep::inSerGraph)
        ? given.stream().map(CycleStep::withoutRealTime).toList() : given;
    final int n = steps.size();
    int rwOnly = 0;
    boolean realTime = false;
    boolean session = false;
    boolean allWriteOrder = true;
    boolean anyWw = false;
    boolean adjacentRw = false;
    for (int i = 0; i < n; i++) {
      final CycleStep s = steps.get(i);
      if (s.rwOnly()) {
        rwOnly++;
        if (steps.get((i + 1) % n).rwOnly()) {
          adjacentRw = true;
        }
      }
      realTime |= s.needsRealTime();
      session |= s.needsSession();
      allWriteOrder &= s.has(CycleStep.WW | CycleStep.SO | CycleStep.RT);
      anyWw |= s.has(CycleStep.WW);
    }
    final String base;
    if (allWriteOrder && anyWw) {
      base = "G0";
    } else if (rwOnly == 0) {
      base = "G1c";
    } else if (rwOnly == 1) {
      base = "G-single";
    } else {
      base = "G2-item";
    }
    final String type = base + (realTime ? "-realtime" : session ? "-process" : "");
    final String name = name(steps, rwOnly, pos, keys);
    return new Classification(type, name, levels(steps, realTime, rwOnly, adjacentRw, name));
  }

  /**
   * The levels a cycle of certain edges violates (docs/levels.md): SSER always; SER unless a step
   * needs real time, and RR too (PL-2.99 forbids every item cycle) unless a step needs session order; SI unless two RW-only steps are
   * adjacent; CC and PC when at most one step is RW-only (with read-modify-write, the writer after
   * the RW step precedes the reader in (SO ∪ WR)+ and wrote the key after the version read); PC also
   * when two or more RW-only steps, none adjacent, are joined by SO or WR steps (a long fork); RA when
   * that writer is the reader's direct WR or SO predecessor (a two-step cycle) or a session
   * predecessor (every other step SO); RC when, moreover,
   * the reader read from it before the stale read (NonMonotonicRead); PL2 only for G0/G1c without
   * session order.
   */
  private static Set<Level> levels(final List<CycleStep> steps, final boolean realTime, final int rwOnly,
      final boolean adjacentRw, final String name) {
    final Set<Level> levels = EnumSet.of(Level.SSER);
    if (realTime) {
      return levels;
    }
    levels.add(Level.SER);
    // Adya's levels have no session order: only a cycle that holds without it violates them.
    final boolean sessionFree = steps.stream().noneMatch(CycleStep::needsSession);
    if (sessionFree) {
      levels.add(Level.RR);
    }
    final int n = steps.size();
    if (!adjacentRw && rwOnly < n) {
      levels.add(Level.SI);
    }
    if (rwOnly == 0) {
      final Set<Level> all = EnumSet.allOf(Level.class);
      // MIXED is decided by MixedLevelCheck, which gives its own counterexample.
      all.remove(Level.MIXED);
      if (!sessionFree) {
        all.remove(Level.PL2);
        all.remove(Level.RR);
      }
      return all;
    }
    if (rwOnly >= 2 && !adjacentRw && steps.stream().allMatch(s -> s.rwOnly() || s.has(CycleStep.WR | CycleStep.SO))) {
      // A long fork breaks paper 002's Prefix axiom: each RW-only step R -> W puts R before W in any
      // commit order (W read-modify-wrote a version at or after the one R read), so, with the SO/WR
      // paths between the steps, the writer of one RW step precedes the writer of the previous one,
      // which causally precedes the reader of the version that first writer overwrote: that reader
      // sees no prefix. PC allows lost updates, not long forks.
      levels.add(Level.PC);
    }
    if (rwOnly == 1) {
      levels.add(Level.PC);
      levels.add(Level.CC);
      final CycleStep dep = steps.get(0).rwOnly() ? steps.get(1 % n) : steps.get(0);
      // Session order is transitive: a path of SO steps alone makes the writer a session predecessor.
      final boolean sessionPath = steps.stream().allMatch(st -> st.rwOnly() || st.has(CycleStep.SO));
      if ((n == 2 && dep.has(CycleStep.WR | CycleStep.SO)) || sessionPath) {
        levels.add(Level.RA);
        if ("NonMonotonicRead".equals(name)) {
          levels.add(Level.RC);
        }
      }
    }
    return levels;
  }

  private static String name(
      final List<CycleStep> steps, final int rwOnly, final ReadPosition pos, final StepKeys keys) {
    final int n = steps.size();
    final boolean othersCausal = steps.stream()
        .allMatch(s -> s.rwOnly() || s.has(CycleStep.WR | CycleStep.SO));
    if (n == 2 && rwOnly == 2) {
      return "WriteSkew";
    }
    if (n == 2 && rwOnly == 0 && steps.stream().anyMatch(CycleStep::needsSession)
        && steps.stream().allMatch(s -> s.has(CycleStep.WR | CycleStep.SO) && !s.has(CycleStep.WW))) {
      // A transaction read from a later transaction of its own session (SO one way, WR back).
      return "SessionGuaranteeViolation";
    }
    if (rwOnly == 1 && steps.stream().allMatch(s -> s.rwOnly() || s.needsSession())) {
      return "SessionGuaranteeViolation";
    }
    if (rwOnly == 1 && n == 2) {
      final CycleStep dep = steps.get(0).rwOnly() ? steps.get(1) : steps.get(0);
      final CycleStep anti = steps.get(0).rwOnly() ? steps.get(0) : steps.get(1);
      final int newKey = keys.wrKey(dep);
      final int oldKey = keys.rwKey(anti);
      if (newKey >= 0 && oldKey >= 0 && newKey != oldKey) {
        // The reader is where the dependency ends and the anti-dependency starts.
        final int reader = dep.to();
        return pos.firstRead(reader, newKey) < pos.firstRead(reader, oldKey)
            ? "NonMonotonicRead" : "FracturedRead";
      }
      return null;
    }
    final boolean anyWr = steps.stream().anyMatch(s -> s.has(CycleStep.WR));
    if (rwOnly == 1 && n >= 3 && othersCausal && anyWr) {
      return "CausalityViolation";
    }
    if (rwOnly == 2 && othersCausal && !adjacentRwOnly(steps)) {
      return "LongFork";
    }
    return null;
  }

  private static boolean adjacentRwOnly(final List<CycleStep> steps) {
    final int n = steps.size();
    for (int i = 0; i < n; i++) {
      if (steps.get(i).rwOnly() && steps.get((i + 1) % n).rwOnly()) {
        return true;
      }
    }
    return false;
  }
}
