package io.isowatch.core.solve;

import io.isowatch.core.check.EdgeKind;
import java.util.Arrays;

/**
 * Reachability in the certain edges of a {@link VersionOrderProblem} (without RW edges for SI),
 * exact, for {@link Pruning}. Two representations, the smaller one chosen:
 *
 * <ul>
 *   <li><b>Chains</b> (the default): the nodes are covered by paths of the graph (each session's
 *       transactions, joined by SO; the time nodes, joined by RT; then, in topological order, a
 *       node without one joins the path of a predecessor that ends there). Since a path reached at
 *       its i-th node is reached at every later one, a node's reach is one number per path, the
 *       first position it reaches: n × C integers for C paths, built in O(E × C). With PolySI's
 *       workloads (20 sessions) that is about 21 integers per node at 10^5 transactions, where
 *       bit sets would take n² bits.
 *   <li><b>Bit sets</b> (n²/8 bytes), when there are so many paths that they take more room, and
 *       only below {@link #MAX_BITSET_NODES} nodes.
 * </ul>
 */
final class Reachability {
  /** Above this many nodes bit sets are not built. */
  static final int MAX_BITSET_NODES = 30_000;
  /** At most this many integers (n × C) for the chain representation (128 MiB). */
  static final long MAX_CHAIN_INTS = 32L * 1024 * 1024;

  private final int nodes;
  // Chains: each node's path and position, and per node the first position reached on each path.
  private int paths;
  private int[] pathOf;
  private int[] posOf;
  private int[] first;
  // Or bit sets.
  private long[][] bits;

  private Reachability(final int nodes) {
    this.nodes = nodes;
  }

  /** Whether {@code from} reaches {@code to} by a path of at least one counted edge. */
  boolean reaches(final int from, final int to) {
    if (bits != null) {
      return (bits[from][to >>> 6] & (1L << to)) != 0;
    }
    return first[from * paths + pathOf[to]] <= posOf[to];
  }

  /** What the representation is, for the outcome's statistics. */
  String describe() {
    return bits != null ? "bit sets over " + nodes + " nodes" : paths + " paths over " + nodes + " nodes";
  }

  /**
   * The reachability of {@code g}'s edges with literal 0 over {@code nodes} nodes, the first {@code
   * real} of them transactions and the others time nodes (without RW when {@code si}), or null
   * when the graph is cyclic, too large for either representation, or the deadline passes.
   */
  static Reachability of(final EdgeList g, final int nodes, final int real, final boolean si, final long deadline) {
    return of(g, nodes, real, si, deadline, MAX_CHAIN_INTS);
  }

  /** {@link #of}, with the chain representation limited to {@code maxChainInts} integers (tests: 0 forces bit sets). */
  static Reachability of(final EdgeList g, final int nodes, final int real, final boolean si, final long deadline,
      final long maxChainInts) {
    final int[] start = new int[nodes + 1];
    for (int e = 0; e < g.size; e++) {
      if (counts(g, e, si)) {
        start[g.from[e] + 1]++;
      }
    }
    for (int v = 0; v < nodes; v++) {
      start[v + 1] += start[v];
    }
    final int[] succ = new int[start[nodes]];
    final int[] fill = Arrays.copyOf(start, nodes);
    final int[] indeg = new int[nodes];
    for (int e = 0; e < g.size; e++) {
      if (counts(g, e, si)) {
        succ[fill[g.from[e]]++] = g.to[e];
        indeg[g.to[e]]++;
      }
    }
    final int[] topo = topological(nodes, start, succ, indeg);
    if (topo == null) {
      return null; // cyclic: the certain cycle is reported before pruning
    }
    final Reachability r = new Reachability(nodes);
    final int[] next = pathSuccessors(g, nodes, real, si, start, succ, topo);
    final int paths = r.paths(next);
    if ((long) nodes * paths <= maxChainInts) {
      return r.chains(start, succ, topo, deadline) ? r : null;
    }
    if (nodes <= MAX_BITSET_NODES) {
      return r.bitSets(start, succ, topo, deadline) ? r : null;
    }
    return null;
  }

  private static boolean counts(final EdgeList g, final int e, final boolean si) {
    return g.literal[e] == 0 && (!si || !g.isRw(e));
  }

  private static int[] topological(final int n, final int[] start, final int[] succ, final int[] indeg) {
    final int[] topo = new int[n];
    int placed = 0;
    final int[] queue = new int[n];
    int head = 0;
    int tail = 0;
    for (int v = 0; v < n; v++) {
      if (indeg[v] == 0) {
        queue[tail++] = v;
      }
    }
    while (head < tail) {
      final int v = queue[head++];
      topo[placed++] = v;
      for (int j = start[v]; j < start[v + 1]; j++) {
        if (--indeg[succ[j]] == 0) {
          queue[tail++] = succ[j];
        }
      }
    }
    return placed == n ? topo : null;
  }

  /**
   * A path cover: {@code next[v]} is v's successor on its path, or -1. SO edges and RT edges
   * between time nodes first (sessions and the time line), then any counted edge into a node that
   * has no predecessor on a path yet from a node that has no successor on one, in topological order.
   */
  private static int[] pathSuccessors(final EdgeList g, final int nodes, final int real, final boolean si,
      final int[] start,
      final int[] succ, final int[] topo) {
    final int[] next = new int[nodes];
    final boolean[] hasPrev = new boolean[nodes];
    Arrays.fill(next, -1);
    for (int e = 0; e < g.size; e++) {
      if (!counts(g, e, si)) {
        continue;
      }
      final int f = g.from[e];
      final int t = g.to[e];
      final boolean sessionOrTime = g.kindOf(e) == EdgeKind.SO
          || g.kindOf(e) == EdgeKind.RT && f >= real && t >= real;
      if (sessionOrTime && next[f] < 0 && !hasPrev[t]) {
        next[f] = t;
        hasPrev[t] = true;
      }
    }
    for (final int v : topo) {
      if (next[v] >= 0) {
        continue;
      }
      for (int j = start[v]; j < start[v + 1]; j++) {
        if (!hasPrev[succ[j]]) {
          next[v] = succ[j];
          hasPrev[succ[j]] = true;
          break;
        }
      }
    }
    return next;
  }

  /** Numbers the paths of {@code next}; returns how many there are. */
  private int paths(final int[] next) {
    pathOf = new int[nodes];
    posOf = new int[nodes];
    final boolean[] hasPrev = new boolean[nodes];
    for (int v = 0; v < nodes; v++) {
      if (next[v] >= 0) {
        hasPrev[next[v]] = true;
      }
    }
    int count = 0;
    for (int v = 0; v < nodes; v++) {
      if (hasPrev[v]) {
        continue;
      }
      int pos = 0;
      for (int w = v; w >= 0; w = next[w]) {
        pathOf[w] = count;
        posOf[w] = pos++;
      }
      count++;
    }
    paths = count;
    return count;
  }

  private boolean chains(final int[] start, final int[] succ, final int[] topo, final long deadline) {
    final int c = paths;
    first = new int[nodes * c];
    Arrays.fill(first, Integer.MAX_VALUE);
    for (int i = nodes - 1; i >= 0; i--) {
      if ((i & 1023) == 0 && System.nanoTime() > deadline) {
        return false;
      }
      final int v = topo[i];
      final int row = v * c;
      for (int j = start[v]; j < start[v + 1]; j++) {
        final int w = succ[j];
        final int at = row + pathOf[w];
        if (posOf[w] < first[at]) {
          first[at] = posOf[w];
        }
        final int wrow = w * c;
        for (int x = 0; x < c; x++) {
          if (first[wrow + x] < first[row + x]) {
            first[row + x] = first[wrow + x];
          }
        }
      }
    }
    return true;
  }

  private boolean bitSets(final int[] start, final int[] succ, final int[] topo, final long deadline) {
    final int words = (nodes + 63) >>> 6;
    bits = new long[nodes][];
    for (int i = nodes - 1; i >= 0; i--) {
      if ((i & 1023) == 0 && System.nanoTime() > deadline) {
        bits = null;
        return false;
      }
      final int v = topo[i];
      final long[] set = new long[words];
      for (int j = start[v]; j < start[v + 1]; j++) {
        final int w = succ[j];
        set[w >>> 6] |= 1L << w;
        final long[] sw = bits[w];
        for (int x = 0; x < words; x++) {
          set[x] |= sw[x];
        }
      }
      bits[v] = set;
    }
    return true;
  }
}
