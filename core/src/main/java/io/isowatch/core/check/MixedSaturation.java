package io.isowatch.core.check;

import io.isowatch.core.check.MixedStep.Rule;
import io.isowatch.core.check.WeakGraph.Arc;
import io.isowatch.core.check.WeakGraph.Read;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Derives, to a fixpoint, the precedences every commit order of a mixed history must have (paper
 * 003, Definition 6: one commit order, each read judged by the axiom of its reader's level). The
 * facts are SO ∪ WR and the initial transaction first; RC and RA readers add their axioms' arcs
 * once (their premises do not depend on the order), CC readers' premises come from the closure of
 * the facts; PC, SI and SER readers' premises depend on the order, so their axioms are applied,
 * forwards and backwards, to the precedences known so far ({@link KnownOrder}), until nothing
 * changes. Each one derived is forced, so a cycle proves that no commit order exists.
 */
final class MixedSaturation {
  private static final int INIT = WeakGraph.INIT;

  private final WeakGraph g;
  private final Level[] level;
  private final int nodes;
  private final KnownOrder known;
  private final Map<String, int[]> writersOf = new HashMap<>();
  private final int[][] preds;
  private final int[][] conflicts;
  /** For CC readers: their predecessors in (SO ∪ WR)+; null when no reader is CC. */
  private long[][] causal;

  MixedSaturation(final WeakGraph g, final Level[] level) {
    this.g = g;
    this.level = level;
    this.nodes = g.n + 1;
    this.known = new KnownOrder(nodes);
    this.preds = new int[nodes][];
    this.conflicts = new int[nodes][];
    final Map<String, List<Integer>> writers = new HashMap<>();
    for (int t = 1; t <= g.n; t++) {
      for (final String k : g.writtenKeys(t)) {
        writers.computeIfAbsent(k, x -> new ArrayList<>()).add(t);
      }
    }
    writers.forEach((k, ws) -> writersOf.put(k, ws.stream().mapToInt(Integer::intValue).toArray()));
  }

  /** The writers of {@code key} other than the initial transaction. */
  int[] writers(final String key) {
    return writersOf.getOrDefault(key, new int[0]);
  }

  /**
   * Saturates. Returns the steps of a cycle (no commit order exists), or null when the known
   * precedences stay acyclic; then {@link #order()} gives a commit order that has them all.
   */
  List<MixedStep> run() {
    final List<Arc> base = g.baseArcs();
    final List<Arc> g1c = ArcCycles.cycle(base, g.n);
    if (g1c != null) {
      return g1c.stream().map(a -> MixedStep.fact(a.from(), a.to(), a.kind() == EdgeKind.SO ? Rule.SO : Rule.WR,
          a.key(), a.value())).toList();
    }
    final List<MixedStep> facts = new ArrayList<>();
    for (int t = 1; t <= g.n; t++) {
      facts.add(MixedStep.fact(INIT, t, Rule.INIT, null, null));
    }
    for (final Arc a : base) {
      facts.add(MixedStep.fact(a.from(), a.to(), a.kind() == EdgeKind.SO ? Rule.SO : Rule.WR, a.key(), a.value()));
    }
    known.closeFacts(facts);
    // Right after the facts, what precedes a node is exactly what precedes it in (SO ∪ WR)+: CC's
    // premise, fixed whatever the commit order (kept only when some reader is CC).
    for (int t = 1; t <= g.n; t++) {
      if (level[t] == Level.CC) {
        causal = new long[nodes][];
        for (int v = 1; v <= g.n; v++) {
          if (level[v] == Level.CC) {
            causal[v] = known.beforeOf(v);
          }
        }
        break;
      }
    }
    final AxiomArcs axioms = new AxiomArcs(g, base);
    for (int t = 1; t <= g.n; t++) {
      // CC's arcs come from its premise in the saturation loop: deriving them here builds per-node
      // maps of causal writers, quadratic in memory on long histories.
      if (level[t] == Level.RC || level[t] == Level.RA) {
        final List<Arc> derived = new ArrayList<>();
        axioms.derive(t, level[t], derived);
        for (final Arc a : derived) {
          final Read r = a.why().read();
          if (!known.add(new MixedStep(a.from(), a.to(), Rule.AXIOM, r.key(), r.value(), r.reader(), r.writer(), -1, a))) {
            return known.cycleThrough(known.closing());
          }
        }
      }
    }
    return saturate();
  }

  /** A copy to explore one case of a case split on. */
  MixedSaturation copy() {
    return new MixedSaturation(this);
  }

  private MixedSaturation(final MixedSaturation o) {
    this.g = o.g;
    this.level = o.level;
    this.nodes = o.nodes;
    this.known = new KnownOrder(o.known);
    this.writersOf.putAll(o.writersOf);
    this.preds = o.preds;
    this.conflicts = o.conflicts;
    this.causal = o.causal;
  }

  /** Assumes {@code steps} (one case of a case split) and saturates again: a cycle, or null. */
  List<MixedStep> assume(final List<MixedStep> steps) {
    for (final MixedStep s : steps) {
      if (!known.add(s)) {
        return known.cycleThrough(known.closing());
      }
    }
    return saturate();
  }

  private List<MixedStep> saturate() {
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int t3 = 1; t3 <= g.n; t3++) {
        if (level[t3] != Level.CC && level[t3] != Level.PC && level[t3] != Level.SI && level[t3] != Level.SER) {
          continue;
        }
        for (final Read r : g.reads[t3]) {
          final int before0 = known.stepCount();
          if (!apply(r)) {
            return known.cycleThrough(known.closing());
          }
          changed |= known.stepCount() != before0;
        }
      }
    }
    return null;
  }

  /**
   * Applies the axiom of the reader's level to read {@code r}, for every other writer of its key:
   * backwards first (a writer known to follow the one read must not satisfy the premise), then
   * forwards (a writer that satisfies it precedes the one read). Backwards first finds the shorter
   * cycles: a lost update between two SER readers closes as two READER_FIRST steps.
   */
  private boolean apply(final Read r) {
    final int t3 = r.reader();
    final int t1 = r.writer();
    for (final int t2 : writers(r.key())) {
      if (t2 == t1 || t2 == t3) {
        continue;
      }
      if (level[t3] != Level.CC && (t1 == INIT || known.known(t1, t2)) && !backwards(r, t2)) {
        return false;
      }
      final int via = premise(level[t3], t2, t3);
      if (via >= 0 && !known.known(t2, t1)
          && !known.add(new MixedStep(t2, t1, Rule.PREMISE, r.key(), r.value(), t3, t1, via, null))) {
        return false;
      }
    }
    return true;
  }

  /** Writer {@code t2} commits after the writer {@code r} read: it must not satisfy the premise. */
  private boolean backwards(final Read r, final int t2) {
    final int t3 = r.reader();
    final int t1 = r.writer();
    if (level[t3] == Level.SER) {
      return known.known(t3, t2) || known.add(new MixedStep(t3, t2, Rule.READER_FIRST, r.key(), r.value(), t3, t1, -1, null));
    }
    for (final int t4 : predecessors(t3)) {
      if (t4 != t2 && !known.known(t4, t2)
          && !known.add(new MixedStep(t4, t2, Rule.PREDECESSOR_FIRST, r.key(), r.value(), t3, t1, t4, null))) {
        return false;
      }
    }
    if (level[t3] == Level.SI) {
      for (final int t4 : conflicting(t3)) {
        if (t4 == t2) {
          continue;
        }
        if (known.known(t4, t3) && !known.known(t4, t2)
            && !known.add(new MixedStep(t4, t2, Rule.PREDECESSOR_FIRST, r.key(), r.value(), t3, t1, t4, null))) {
          return false;
        }
        if (known.known(t2, t4) && !known.known(t3, t4)
            && !known.add(new MixedStep(t3, t4, Rule.CONFLICT_AFTER, r.key(), r.value(), t3, t1, t2, null))) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Whether writer {@code t2} satisfies the premise of {@code l}'s axiom for reader {@code t3} on
   * what is known: the transaction through which it does (t3 itself for SER, a predecessor t4 in
   * SO ∪ WR for Prefix, a conflicting writer for SI's Conflict), or -1.
   */
  int premise(final Level l, final int t2, final int t3) {
    if (l == Level.SER) {
      return known.known(t2, t3) ? t3 : -1;
    }
    if (l == Level.CC) {
      return causallyBefore(t2, t3) ? t3 : -1;
    }
    for (final int t4 : predecessors(t3)) {
      if (t4 == t2 || known.known(t2, t4)) {
        return t4;
      }
    }
    if (l == Level.SI) {
      for (final int t4 : conflicting(t3)) {
        if (known.known(t4, t3) && (t4 == t2 || known.known(t2, t4))) {
          return t4;
        }
      }
    }
    return -1;
  }

  /** The direct predecessors of {@code t} in SO ∪ WR, the initial transaction left out. */
  int[] predecessors(final int t) {
    if (preds[t] == null) {
      preds[t] = computePredecessors(t).stream().mapToInt(Integer::intValue).toArray();
    }
    return preds[t];
  }

  /** The other writers of the keys {@code t} writes (SI's Conflict axiom). */
  int[] conflicting(final int t) {
    if (conflicts[t] == null) {
      conflicts[t] = computeConflicting(t).stream().mapToInt(Integer::intValue).toArray();
    }
    return conflicts[t];
  }

  private List<Integer> computePredecessors(final int t) {
    final List<Integer> out = new ArrayList<>(4);
    if (g.soPred[t] > 0) {
      out.add(g.soPred[t]);
    }
    for (final Read r : g.reads[t]) {
      if (r.writer() != INIT && !out.contains(r.writer())) {
        out.add(r.writer());
      }
    }
    return out;
  }

  private List<Integer> computeConflicting(final int t) {
    final List<Integer> out = new ArrayList<>();
    for (final String k : g.writtenKeys(t)) {
      for (final int w : writers(k)) {
        if (w != t && !out.contains(w)) {
          out.add(w);
        }
      }
    }
    return out;
  }

  /** Whether {@code u} is known to commit before {@code v}. */
  boolean known(final int u, final int v) {
    return known.known(u, v);
  }

  /** Why {@code from} precedes {@code to} by steps recorded before {@code step}, or null. */
  List<MixedStep> pathBefore(final int from, final int to, final MixedStep step) {
    return known.pathBefore(from, to, step);
  }

  /** A path of facts (SO, WR) from {@code from} to {@code to}, or null. */
  List<MixedStep> causalPath(final int from, final int to) {
    return known.causalPath(from, to);
  }

  /** A commit order with every known precedence (nodes 1..n, earliest input first among the free). */
  int[] order() {
    return known.order(g.n);
  }

  /** Whether {@code u} precedes CC reader {@code t} in (SO ∪ WR)+. */
  boolean causallyBefore(final int u, final int t) {
    return (causal[t][u >>> 6] & (1L << u)) != 0;
  }

}
