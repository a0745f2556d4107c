package io.isowatch.core.check;

import io.isowatch.core.check.WeakGraph.Read;
import java.util.List;

/**
 * Checks one commit order against the mixed axioms literally (paper 003, Definition 6): for every
 * read τ of x in t3 from t1 and every other writer t2 of x, if the premise of t3's level holds for
 * t2 under this order, t2 must commit before t1. What saturation leaves open it settles by example:
 * an order that passes proves the history consistent.
 */
final class MixedCommitOrder {
  private static final int INIT = WeakGraph.INIT;

  private final WeakGraph g;
  private final Level[] level;
  private final MixedSaturation known;
  /** Session of each node (its first node's index) and position in it. */
  private final int[] chain;
  private final int[] rank;

  MixedCommitOrder(final WeakGraph g, final Level[] level, final MixedSaturation known) {
    this.g = g;
    this.level = level;
    this.known = known;
    this.chain = new int[g.n + 1];
    this.rank = new int[g.n + 1];
    for (int t = 1; t <= g.n; t++) {
      int first = t;
      int r = 0;
      while (g.soPred[first] > 0) {
        first = g.soPred[first];
        r++;
      }
      chain[t] = first;
      rank[t] = r;
    }
  }

  /**
   * A read {@code order} breaks: reader {@code t3} read {@code read} from its writer, and writer
   * {@code t2} of the key satisfies the premise through {@code via} (t3 itself for SER, a predecessor
   * or a conflicting writer) but commits after the writer read.
   */
  record Broken(int t3, Read read, int t2, int via, boolean conflict, String sentence) {}

  /** The first read {@code order} breaks, or null when it satisfies every read's axiom. */
  Broken firstBroken(final int[] order) {
    final int[] pos = new int[g.n + 1];
    for (int i = 0; i < order.length; i++) {
      pos[order[i]] = i + 1;
    }
    for (int t3 = 1; t3 <= g.n; t3++) {
      final List<Read> rs = g.reads[t3];
      final int predMax = maxPos(known.predecessors(t3), pos, Integer.MAX_VALUE);
      final int conflictMax = level[t3] == Level.SI ? maxPos(known.conflicting(t3), pos, pos[t3]) : 0;
      for (int i = 0; i < rs.size(); i++) {
        final Read r = rs.get(i);
        for (final int t2 : known.writers(r.key())) {
          if (t2 == r.writer() || t2 == t3 || !premise(t3, i, t2, pos, predMax, conflictMax)) {
            continue;
          }
          if (r.writer() == INIT || pos[t2] > pos[r.writer()]) {
            return broken(t3, r, t2, pos, predMax);
          }
        }
      }
    }
    return null;
  }

  private Broken broken(final int t3, final Read r, final int t2, final int[] pos, final int predMax) {
    final String sentence = g.id(t3) + " (declared " + level[t3] + ") read " + r.key() + "=" + r.value() + " from "
        + g.id(r.writer()) + ", but " + g.id(t2) + " also wrote " + r.key() + " and commits after it";
    if (level[t3] == Level.SER) {
      return new Broken(t3, r, t2, t3, false, sentence);
    }
    if (pos[t2] <= predMax) {
      for (final int t4 : known.predecessors(t3)) {
        if (pos[t2] <= pos[t4]) {
          return new Broken(t3, r, t2, t4, false, sentence);
        }
      }
    }
    for (final int t4 : known.conflicting(t3)) {
      if (pos[t4] < pos[t3] && pos[t2] <= pos[t4]) {
        return new Broken(t3, r, t2, t4, true, sentence);
      }
    }
    // RC, RA, CC: their premises do not depend on the order, and saturation added their arcs.
    throw new IllegalStateException("a read of a fixed-premise level broken: " + sentence);
  }

  private boolean premise(final int t3, final int readIndex, final int t2, final int[] pos, final int predMax,
      final int conflictMax) {
    final List<Read> rs = g.reads[t3];
    return switch (level[t3]) {
      case RC -> {
        for (int j = 0; j < readIndex; j++) {
          if (rs.get(j).writer() == t2) {
            yield true;
          }
        }
        yield false;
      }
      case RA -> {
        for (final Read other : rs) {
          if (other.writer() == t2) {
            yield true;
          }
        }
        yield chain[t2] == chain[t3] && rank[t2] < rank[t3];
      }
      case CC -> known.causallyBefore(t2, t3);
      case PC -> pos[t2] <= predMax;
      case SI -> pos[t2] <= predMax || pos[t2] <= conflictMax;
      default -> pos[t2] < pos[t3];
    };
  }

  /** The largest position among {@code nodes} below {@code bound}, or 0. */
  private static int maxPos(final int[] nodes, final int[] pos, final int bound) {
    int max = 0;
    for (final int v : nodes) {
      if (pos[v] < bound && pos[v] > max) {
        max = pos[v];
      }
    }
    return max;
  }
}
