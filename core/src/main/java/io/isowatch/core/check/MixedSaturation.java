package io.isowatch.core.check;

import io.isowatch.core.check.MixedStep.Rule;
import io.isowatch.core.check.WeakGraph.Arc;
import io.isowatch.core.check.WeakGraph.Read;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Derives, to a fixpoint, the precedences every commit order of a mixed history must have (paper
 * 003, Definition 6: one commit order, each read judged by the axiom of its reader's level). The
 * facts are SO ∪ WR and the initial transaction first; RC, RA and CC readers add their axioms'
 * arcs once (their premises do not depend on the order); PC, SI and SER readers' premises do, so
 * their axioms are applied, forwards and backwards, to the precedences known so far, until nothing
 * changes. Each one derived is forced, so a cycle proves that no commit order exists. The known
 * precedences are kept transitively closed, as bit sets both ways.
 */
final class MixedSaturation {
  private static final int INIT = WeakGraph.INIT;

  private final WeakGraph g;
  private final Level[] level;
  private final int nodes;
  private final int words;
  /** after[u]: the nodes known to commit after u; before[v]: those known to commit before v. */
  private final long[][] after;
  private final long[][] before;
  private final List<List<MixedStep>> out = new ArrayList<>();
  private final Map<String, int[]> writersOf = new HashMap<>();
  private MixedStep closing;
  /** Steps recorded with the facts, before any derived one. */
  private int factCount;
  /** Steps recorded so far: a pass that records none ends the saturation. */
  private int stepCount;
  /** When each step was recorded: a step is explained by earlier ones only (no circular proof). */
  private final java.util.IdentityHashMap<MixedStep, Integer> recordedAt = new java.util.IdentityHashMap<>();
  private final int[][] preds;
  private final int[][] conflicts;
  /** For CC readers: their predecessors in (SO ∪ WR)+; null when no reader is CC. */
  private long[][] causal;

  MixedSaturation(final WeakGraph g, final Level[] level) {
    this.g = g;
    this.level = level;
    this.nodes = g.n + 1;
    this.words = (nodes + 63) >>> 6;
    this.after = new long[nodes][words];
    this.before = new long[nodes][words];
    this.preds = new int[nodes][];
    this.conflicts = new int[nodes][];
    for (int i = 0; i < nodes; i++) {
      out.add(new ArrayList<>(4));
    }
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
    closeFacts(facts);
    factCount = stepCount;
    // Right after the facts, what precedes a node is exactly what precedes it in (SO ∪ WR)+: CC's
    // premise, fixed whatever the commit order (kept only when some reader is CC).
    for (int t = 1; t <= g.n; t++) {
      if (level[t] == Level.CC) {
        causal = new long[nodes][];
        for (int v = 1; v <= g.n; v++) {
          if (level[v] == Level.CC) {
            causal[v] = before[v].clone();
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
          if (!add(new MixedStep(a.from(), a.to(), Rule.AXIOM, r.key(), r.value(), r.reader(), r.writer(), -1, a))) {
            return cycleThrough(closing);
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
    this.words = o.words;
    this.after = new long[nodes][];
    this.before = new long[nodes][];
    for (int i = 0; i < nodes; i++) {
      after[i] = o.after[i].clone();
      before[i] = o.before[i].clone();
      out.add(new ArrayList<>(o.out.get(i)));
    }
    this.writersOf.putAll(o.writersOf);
    this.preds = o.preds;
    this.conflicts = o.conflicts;
    this.causal = o.causal;
    this.stepCount = o.stepCount;
    this.factCount = o.factCount;
    this.recordedAt.putAll(o.recordedAt);
  }

  /** Assumes {@code steps} (one case of a case split) and saturates again: a cycle, or null. */
  List<MixedStep> assume(final List<MixedStep> steps) {
    for (final MixedStep s : steps) {
      if (!add(s)) {
        return cycleThrough(closing);
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
          final int before0 = stepCount;
          if (!apply(r)) {
            return cycleThrough(closing);
          }
          changed |= stepCount != before0;
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
      if (level[t3] != Level.CC && (t1 == INIT || known(t1, t2)) && !backwards(r, t2)) {
        return false;
      }
      final int via = premise(level[t3], t2, t3);
      if (via >= 0 && !known(t2, t1)
          && !add(new MixedStep(t2, t1, Rule.PREMISE, r.key(), r.value(), t3, t1, via, null))) {
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
      return known(t3, t2) || add(new MixedStep(t3, t2, Rule.READER_FIRST, r.key(), r.value(), t3, t1, -1, null));
    }
    for (final int t4 : predecessors(t3)) {
      if (t4 != t2 && !known(t4, t2)
          && !add(new MixedStep(t4, t2, Rule.PREDECESSOR_FIRST, r.key(), r.value(), t3, t1, t4, null))) {
        return false;
      }
    }
    if (level[t3] == Level.SI) {
      for (final int t4 : conflicting(t3)) {
        if (t4 == t2) {
          continue;
        }
        if (known(t4, t3) && !known(t4, t2)
            && !add(new MixedStep(t4, t2, Rule.PREDECESSOR_FIRST, r.key(), r.value(), t3, t1, t4, null))) {
          return false;
        }
        if (known(t2, t4) && !known(t3, t4)
            && !add(new MixedStep(t3, t4, Rule.CONFLICT_AFTER, r.key(), r.value(), t3, t1, t2, null))) {
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
      return known(t2, t3) ? t3 : -1;
    }
    if (l == Level.CC) {
      return causallyBefore(t2, t3) ? t3 : -1;
    }
    for (final int t4 : predecessors(t3)) {
      if (t4 == t2 || known(t2, t4)) {
        return t4;
      }
    }
    if (l == Level.SI) {
      for (final int t4 : conflicting(t3)) {
        if (known(t4, t3) && (t4 == t2 || known(t2, t4))) {
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

  /** Whether {@code u} precedes CC reader {@code t} in (SO ∪ WR)+. */
  boolean causallyBefore(final int u, final int t) {
    return (causal[t][u >>> 6] & (1L << u)) != 0;
  }

  /** Whether {@code u} is known to commit before {@code v}. */
  boolean known(final int u, final int v) {
    return u == INIT ? v != INIT : (after[u][v >>> 6] & (1L << v)) != 0;
  }

  /** The facts (acyclic), closed in one pass in reverse topological order. */
  private void closeFacts(final List<MixedStep> facts) {
    final int[] indeg = new int[nodes];
    for (final MixedStep s : facts) {
      record(s);
      indeg[s.to()]++;
    }
    final ArrayDeque<Integer> ready = new ArrayDeque<>();
    final int[] order = new int[nodes];
    int k = 0;
    ready.add(INIT);
    while (!ready.isEmpty()) {
      final int v = ready.poll();
      order[k++] = v;
      for (final MixedStep s : out.get(v)) {
        if (--indeg[s.to()] == 0) {
          ready.add(s.to());
        }
      }
    }
    for (int i = k - 1; i >= 0; i--) {
      final int u = order[i];
      for (final MixedStep s : out.get(u)) {
        final long[] a = after[u];
        final long[] b = after[s.to()];
        for (int w = 0; w < words; w++) {
          a[w] |= b[w];
        }
        a[s.to() >>> 6] |= 1L << s.to();
      }
    }
    for (int u = 0; u < nodes; u++) {
      final long[] a = after[u];
      for (int w = 0; w < words; w++) {
        for (long bits = a[w]; bits != 0; bits &= bits - 1) {
          final int v = (w << 6) + Long.numberOfTrailingZeros(bits);
          before[v][u >>> 6] |= 1L << u;
        }
      }
    }
  }

  private void record(final MixedStep s) {
    out.get(s.from()).add(s);
    recordedAt.put(s, stepCount++);
  }

  /** Adds a derived precedence and closes; false (with {@link #closing} set) when it closes a cycle. */
  private boolean add(final MixedStep s) {
    final int u = s.from();
    final int v = s.to();
    if (u == v || v == INIT || known(v, u)) {
      closing = s;
      return false;
    }
    if (known(u, v)) {
      return true;
    }
    record(s);
    final long[] preds = before[u].clone();
    preds[u >>> 6] |= 1L << u;
    final long[] succs = after[v].clone();
    succs[v >>> 6] |= 1L << v;
    for (int w = 0; w < words; w++) {
      for (long bits = preds[w]; bits != 0; bits &= bits - 1) {
        final long[] a = after[(w << 6) + Long.numberOfTrailingZeros(bits)];
        for (int x = 0; x < words; x++) {
          a[x] |= succs[x];
        }
      }
      for (long bits = succs[w]; bits != 0; bits &= bits - 1) {
        final long[] b = before[(w << 6) + Long.numberOfTrailingZeros(bits)];
        for (int x = 0; x < words; x++) {
          b[x] |= preds[x];
        }
      }
    }
    return true;
  }

  /** The steps of a cycle that {@code last} closes: a path of recorded steps from its target to its source, then it. */
  private List<MixedStep> cycleThrough(final MixedStep last) {
    final List<MixedStep> path = path(last.to(), last.from());
    path.add(last);
    return path;
  }

  /** A shortest path of recorded steps from {@code from} to {@code to} (empty when they are equal). */
  List<MixedStep> path(final int from, final int to) {
    return path(from, to, Integer.MAX_VALUE);
  }

  /** Why {@code from} precedes {@code to} by steps recorded before {@code step}, or null when they do not show it. */
  List<MixedStep> pathBefore(final int from, final int to, final MixedStep step) {
    final List<MixedStep> p = path(from, to, recordedAt.getOrDefault(step, Integer.MAX_VALUE));
    return p.isEmpty() && from != to ? null : p;
  }

  /** A path of facts (SO, WR) from {@code from} to {@code to}: why one precedes the other causally. */
  List<MixedStep> causalPath(final int from, final int to) {
    final List<MixedStep> p = path(from, to, factCount);
    return p.isEmpty() && from != to ? null : p;
  }

  private List<MixedStep> path(final int from, final int to, final int recordedBefore) {
    final MixedStep[] via = new MixedStep[nodes];
    final boolean[] seen = new boolean[nodes];
    final ArrayDeque<Integer> work = new ArrayDeque<>();
    work.add(from);
    seen[from] = true;
    while (!work.isEmpty() && !seen[to]) {
      final int v = work.poll();
      for (final MixedStep s : out.get(v)) {
        if (!seen[s.to()] && recordedAt.getOrDefault(s, 0) < recordedBefore) {
          seen[s.to()] = true;
          via[s.to()] = s;
          work.add(s.to());
        }
      }
    }
    final List<MixedStep> path = new ArrayList<>();
    if (!seen[to]) {
      return path;
    }
    for (int v = to; v != from; v = via[v].from()) {
      path.add(0, via[v]);
    }
    return path;
  }

  /**
   * A commit order that has every recorded precedence: nodes 1..n, the initial transaction left
   * out, by a topological order that takes the earliest transaction of the input first.
   */
  int[] order() {
    final int[] indeg = new int[nodes];
    for (int u = 0; u < nodes; u++) {
      for (final MixedStep s : out.get(u)) {
        indeg[s.to()]++;
      }
    }
    final PriorityQueue<Integer> ready = new PriorityQueue<>();
    final int[] order = new int[g.n];
    int k = 0;
    for (final MixedStep s : out.get(INIT)) {
      if (--indeg[s.to()] == 0) {
        ready.add(s.to());
      }
    }
    while (!ready.isEmpty()) {
      final int v = ready.poll();
      order[k++] = v;
      for (final MixedStep s : out.get(v)) {
        if (--indeg[s.to()] == 0) {
          ready.add(s.to());
        }
      }
    }
    return order;
  }
}
