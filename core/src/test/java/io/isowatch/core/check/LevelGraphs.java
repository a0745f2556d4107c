package io.isowatch.core.check;

import io.isowatch.core.graph.Digraph;
import io.isowatch.core.history.Transaction;
import java.util.Arrays;

/**
 * The graph each level's acyclicity is decided on. Node {@code t} is transaction {@code t}; edge
 * labels are edge ids in the {@link EdgeTable}, or {@link #ENCODING} for edges that only encode.
 *
 * <ul>
 *   <li>SER: SO ∪ WR ∪ WW ∪ RW as is.
 *   <li>SI: (SO ∪ WR ∪ WW) ; RW? without composing edges (which is quadratic for a large read-only
 *       transaction): two nodes per transaction, {@code t} and {@code n + t} ("just reached t by a
 *       dependency"). A dependency u→v gives u→v and u→(n+v); an anti-dependency v→w gives
 *       (n+v)→w. A cycle through transaction nodes is exactly a cycle of the composed relation.
 *   <li>SSER: SER's edges plus real time in O(n) edges: one node per distinct end time, chained in
 *       time order; t→P(end(t)) and P(j)→t for the latest end time P(j) with end + skew <
 *       start(t). Then t1 reaches t2 through the chain iff t1 ended before t2 started. A
 *       transaction without an end gets no outgoing real-time edge, one without a start no
 *       incoming one.
 * </ul>
 */
final class LevelGraphs {
  static final int ENCODING = -1;

  private LevelGraphs() {}

  static Digraph ser(final DependencyGraph dg) {
    final EdgeTable e = dg.edges;
    final Digraph.Builder b = new Digraph.Builder(dg.h.size());
    for (int i = 0; i < e.size(); i++) {
      b.add(e.from(i), e.to(i), i);
    }
    return b.build();
  }

  static Digraph si(final DependencyGraph dg) {
    final EdgeTable e = dg.edges;
    final int n = dg.h.size();
    final Digraph.Builder b = new Digraph.Builder(2 * n);
    for (int i = 0; i < e.size(); i++) {
      final int u = e.from(i);
      final int v = e.to(i);
      if (e.kind(i) == EdgeKind.RW) {
        b.add(n + u, v, i);
      } else {
        b.add(u, v, i);
        b.add(u, n + v, i);
      }
    }
    return b.build();
  }

  /** The SSER graph; transactions without both timestamps get no real-time edges. */
  static Digraph sser(final DependencyGraph dg, final long skewMicros) {
    final EdgeTable e = dg.edges;
    final int n = dg.h.size();
    final boolean[] counted = dg.res.counted;
    final Transaction[] txns = dg.h.txns;
    int timed = 0;
    for (int t = 1; t < n; t++) {
      if (counted[t] && endUsable(txns[t])) {
        timed++;
      }
    }
    final long[] ends = new long[timed];
    int i = 0;
    for (int t = 1; t < n; t++) {
      if (counted[t] && endUsable(txns[t])) {
        ends[i++] = txns[t].end();
      }
    }
    Arrays.sort(ends);
    final long[] points = distinct(ends);
    final int m = points.length;
    final Digraph.Builder b = new Digraph.Builder(n + m);
    for (int k = 0; k < e.size(); k++) {
      b.add(e.from(k), e.to(k), k);
    }
    for (int p = 0; p + 1 < m; p++) {
      b.add(n + p, n + p + 1, ENCODING, 0);
    }
    for (int t = 1; t < n; t++) {
      if (!counted[t]) {
        continue;
      }
      if (endUsable(txns[t])) {
        b.add(t, n + Arrays.binarySearch(points, txns[t].end()), ENCODING, 1);
      }
      if (startUsable(txns[t])) {
        final int latest = latestBefore(points, txns[t].start() - skewMicros);
        if (latest >= 0) {
          b.add(n + latest, t, ENCODING, 0);
        }
      }
    }
    return b.build();
  }

  private static boolean endUsable(final Transaction t) {
    return RealTime.endUsable(t);
  }

  private static boolean startUsable(final Transaction t) {
    return RealTime.startUsable(t);
  }

  private static long[] distinct(final long[] sorted) {
    int n = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i == 0 || sorted[i] != sorted[i - 1]) {
        sorted[n++] = sorted[i];
      }
    }
    return Arrays.copyOf(sorted, n);
  }

  /** Index of the largest point strictly below {@code bound}, or -1. */
  private static int latestBefore(final long[] points, final long bound) {
    int lo = 0;
    int hi = points.length - 1;
    int ans = -1;
    while (lo <= hi) {
      final int mid = (lo + hi) >>> 1;
      if (points[mid] < bound) {
        ans = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return ans;
  }
}
