package io.isowatch.core.check;

import io.isowatch.core.check.MixedStep.Rule;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds a commit order for a mixed history when saturation leaves choices open, by case splits:
 * the order tried breaks a read (writer t2 satisfies the premise of the reader's axiom through a
 * transaction t4 yet commits after the writer read), so every valid order has one of: t2 before
 * the writer read; t4 before t2 (t2 no longer no later than t4); for SI's Conflict, the reader
 * before t4. Each case is saturated in turn. Exhaustive within its budget: when every case of a
 * split ends in a cycle, no commit order exists.
 */
final class MixedSearch {
  /**
   * Saturations allowed per decision, at most; beyond, the verdict is UNKNOWN. Each case copies the
   * closure (n²/4 bytes), so large histories get fewer: about 512 MB of copies at most.
   */
  static final int BUDGET = 512;

  /**
   * What the search found: an order, a proof that none exists (a split every commit order takes,
   * each case closed by a cycle or split again), or neither.
   */
  record Outcome(int[] order, Split refuted, String unknown) {}

  /**
   * A case split: {@code why} the cases cover every commit order (the read the order tried broke,
   * which any order outside them breaks as well), and the cases.
   */
  record Split(MixedCommitOrder.Broken why, List<Case> cases) {}

  /**
   * One refuted case: the precedence it assumes, and either the cycle it closes (with why the
   * precedences its derived steps relied on hold, when an explainer was given) or the split below it.
   */
  record Case(MixedStep assumed, List<MixedStep> cycle, MixedExplanation.Wheres where, Split split) {
    /** A cycle of this case or, for one split again, of its first case (drawn as the counterexample's graph). */
    List<MixedStep> firstCycle() {
      return cycle != null ? cycle : split.cases().get(0).firstCycle();
    }
  }

  private final WeakGraph g;
  private final Level[] level;
  private final int budget;
  /** Justifies each closing cycle's derived steps in its case's state, or null. */
  private final MixedExplanation explainer;
  private int spent;

  MixedSearch(final WeakGraph g, final Level[] level) {
    this(g, level, null);
  }

  MixedSearch(final WeakGraph g, final Level[] level, final MixedExplanation explainer) {
    this.g = g;
    this.level = level;
    this.explainer = explainer;
    final long nodes = g.n + 1L;
    this.budget = (int) Math.max(2, Math.min(BUDGET, (1L << 31) / (nodes * nodes)));
  }

  /** Searches from a saturated, acyclic state. */
  Outcome search(final MixedSaturation state) {
    return explore(state, 0);
  }

  private Outcome explore(final MixedSaturation state, final int depth) {
    final int[] order = state.order();
    final MixedCommitOrder.Broken b = new MixedCommitOrder(g, level, state).firstBroken(order);
    if (b == null) {
      return new Outcome(order, null, null);
    }
    final List<Case> refuted = new ArrayList<>();
    for (final List<MixedStep> c : cases(b)) {
      if (++spent > budget) {
        return new Outcome(null, null, "saturation leaves choices open that " + budget + " case splits did not settle ("
            + b.sentence() + " in the order tried); no violation is certain");
      }
      final MixedSaturation branch = state.copy();
      final List<MixedStep> cycle = branch.assume(c);
      if (cycle != null) {
        refuted.add(new Case(c.get(0), cycle, explainer == null ? null : explainer.where(branch, cycle), null));
        continue;
      }
      final Outcome o = explore(branch, depth + 1);
      if (o.order() != null || o.unknown() != null) {
        return o;
      }
      refuted.add(new Case(c.get(0), null, null, o.refuted()));
    }
    return new Outcome(null, new Split(b, refuted), null);
  }

  /** The cases one of which every valid commit order has, for a broken read. */
  private List<List<MixedStep>> cases(final MixedCommitOrder.Broken b) {
    final int t3 = b.t3();
    final int t1 = b.read().writer();
    final int t2 = b.t2();
    final int t4 = b.via();
    final String key = b.read().key();
    final Long value = b.read().value();
    final List<List<MixedStep>> out = new ArrayList<>();
    out.add(List.of(new MixedStep(t2, t1, Rule.CASE, key, value, t3, t1, t4, null)));
    if (t4 != t2) {
      out.add(List.of(new MixedStep(t4, t2, Rule.CASE, key, value, t3, t1, t4, null)));
    }
    if (b.conflict()) {
      out.add(List.of(new MixedStep(t3, t4, Rule.CASE, key, value, t3, t1, t2, null)));
    }
    return out;
  }
}
