package io.isowatch.core.check;

import java.util.Arrays;

/**
 * Decides, over a {@link WeakIndex}, whether each weak level's arcs (those of {@link AxiomArcs}
 * and {@link AdyaArcs}) are acyclic, without building them as objects: the verdict only. The
 * counterexample of a level found violated is built afterwards by {@link WeakGraph}, as before.
 *
 * <p>Why it is fast (docs/benchmarks.md, "Weak levels"): a derived arc t2 → t1 (a reader of x
 * from t1 saw t2, another writer of x) is dropped when t2's version of x is an ancestor of t1's in
 * x's version forest (each read-modify-write's version is a child of the version it read), for then
 * a path of write-read arcs already orders t2 before t1, and acyclicity does not change. On a
 * valid mini-transaction history that is every arc. For CC, on a key whose versions form one chain
 * from the initial version, every writer of x other than t1 is an ancestor or a descendant of t1,
 * and a descendant precedes the reader only if t1's next version does: one reachability query per
 * read by vector clocks, instead of one search per session. Other keys take AxiomArcs' per-session
 * search. Vector clocks are built a chunk of sessions at a time, at most {@code clockCells} ints.
 */
final class WeakDecision {
  private static final int INIT = WeakIndex.INIT;

  private final WeakIndex g;
  private final int n;
  private final long clockCells;
  /** SO ∪ WR arcs (from, to), the initial transaction left out (it precedes every node). */
  private final int[] baseFrom;
  private final int[] baseTo;
  private final int baseCount;
  /** A topological order of SO ∪ WR, or null when it has a cycle. */
  private final int[] topo;
  /** Version forest over write slots 0..V-1 and the initial versions V + key: Euler interval per version. */
  private int[] tin;
  private int[] tout;
  private int[] parent;
  /** In a forest of paths: each version's root and depth (then tin and tout are not built). */
  private int[] pathRoot;
  private int[] pathDepth;
  private int[] slotNode;

  WeakDecision(final WeakIndex g, final long clockCells) {
    this.g = g;
    this.n = g.n;
    this.clockCells = clockCells;
    int m = 0;
    for (int t = 1; t <= n; t++) {
      m += g.soPred[t] > 0 ? 1 : 0;
      for (int r = g.readStart[t]; r < g.readStart[t + 1]; r++) {
        m += g.readWriter[r] != INIT ? 1 : 0;
      }
    }
    baseFrom = new int[m];
    baseTo = new int[m];
    int k = 0;
    for (int t = 1; t <= n; t++) {
      if (g.soPred[t] > 0) {
        baseFrom[k] = g.soPred[t];
        baseTo[k++] = t;
      }
      for (int r = g.readStart[t]; r < g.readStart[t + 1]; r++) {
        if (g.readWriter[r] != INIT) {
          baseFrom[k] = g.readWriter[r];
          baseTo[k++] = t;
        }
      }
    }
    baseCount = k;
    topo = IntArcs.order(n, baseFrom, baseTo, baseCount, IntArcs.EMPTY);
  }

  /** Whether SO ∪ WR has a cycle (G1c, every level but PL2 and RR violated). */
  boolean baseCyclic() {
    return topo == null;
  }

  /** PL2: whether WR alone has a cycle. */
  boolean pl2Cyclic() {
    if (topo != null) {
      return false;
    }
    final IntArcs wr = new IntArcs();
    for (int t = 1; t <= n; t++) {
      for (int r = g.readStart[t]; r < g.readStart[t + 1]; r++) {
        if (g.readWriter[r] != INIT) {
          wr.add(g.readWriter[r], t);
        }
      }
    }
    return IntArcs.order(n, wr.from, wr.to, wr.size, IntArcs.EMPTY) == null;
  }

  /** RC, RA or CC: whether SO ∪ WR and the arcs the level's axiom derives have a cycle. */
  boolean axiomCyclic(final Level level) {
    if (topo == null) {
      return true;
    }
    forest();
    final IntArcs kept = new IntArcs();
    final boolean certain = level == Level.RC || level == Level.RA ? readAtomicArcs(level == Level.RA, kept)
        : causalArcs(kept);
    return certain || (kept.size > 0 && IntArcs.order(n, baseFrom, baseTo, baseCount, kept) == null);
  }

  /** RR: whether Adya's certain edges (AdyaArcs) have a cycle. */
  boolean rrCyclic() {
    final int versions = g.writeKey.length + g.keyCount;
    final int[] readVersion = new int[g.readKey.length];
    final int[] readerOf = new int[g.readKey.length];
    final int[] readersStart = new int[versions + 1];
    final int[] overStart = new int[versions + 1];
    final int[] blindStart = new int[g.keyCount + 1];
    for (int t = 1; t <= n; t++) {
      for (int r = g.readStart[t]; r < g.readStart[t + 1]; r++) {
        readerOf[r] = t;
        readVersion[r] = version(g.readWriter[r], g.readKey[r]);
        if (readVersion[r] >= 0) {
          readersStart[readVersion[r] + 1]++;
          if (firstReadOfKey(t, r) && g.writeSlot(t, g.readKey[r]) >= 0) {
            overStart[readVersion[r] + 1]++;
          }
        }
      }
      for (int v = g.writeStart[t]; v < g.writeStart[t + 1]; v++) {
        if (!g.writeAfterRead[v]) {
          blindStart[g.writeKey[v] + 1]++;
        }
      }
    }
    IntArcs.prefixSums(readersStart);
    IntArcs.prefixSums(overStart);
    IntArcs.prefixSums(blindStart);
    final int[] readers = new int[readersStart[versions]];
    final int[] over = new int[overStart[versions]];
    final int[] blind = new int[blindStart[g.keyCount]];
    final int[] fillR = Arrays.copyOf(readersStart, versions);
    final int[] fillO = Arrays.copyOf(overStart, versions);
    final int[] fillB = Arrays.copyOf(blindStart, g.keyCount);
    for (int t = 1; t <= n; t++) {
      for (int r = g.readStart[t]; r < g.readStart[t + 1]; r++) {
        if (readVersion[r] >= 0) {
          readers[fillR[readVersion[r]]++] = t;
          if (firstReadOfKey(t, r) && g.writeSlot(t, g.readKey[r]) >= 0) {
            over[fillO[readVersion[r]]++] = t;
          }
        }
      }
      for (int v = g.writeStart[t]; v < g.writeStart[t + 1]; v++) {
        if (!g.writeAfterRead[v]) {
          blind[fillB[g.writeKey[v]]++] = t;
        }
      }
    }
    final IntArcs arcs = new IntArcs();
    for (int t = 1; t <= n; t++) {
      for (int r = g.readStart[t]; r < g.readStart[t + 1]; r++) {
        if (g.readWriter[r] != INIT) {
          arcs.add(g.readWriter[r], t);
        }
      }
    }
    final int writeSlots = g.writeKey.length;
    for (int v = 0; v < versions; v++) {
      final int w = v < writeSlots ? slotNode()[v] : INIT;
      for (int o = overStart[v]; o < overStart[v + 1]; o++) {
        final int u = over[o];
        if (w != INIT) {
          arcs.add(w, u);
        }
        for (int q = readersStart[v]; q < readersStart[v + 1]; q++) {
          if (readers[q] != u) {
            arcs.add(readers[q], u);
          }
        }
      }
    }
    for (int x = 0; x < g.keyCount; x++) {
      final int init = writeSlots + x;
      for (int b = blindStart[x]; b < blindStart[x + 1]; b++) {
        for (int q = readersStart[init]; q < readersStart[init + 1]; q++) {
          if (readers[q] != blind[b]) {
            arcs.add(readers[q], blind[b]);
          }
        }
      }
    }
    return IntArcs.order(n, arcs.from, arcs.to, arcs.size, IntArcs.EMPTY) == null;
  }

  /** Whether read r of node t is its first (resolved, external) read of the key (WeakGraph.firstReads). */
  private boolean firstReadOfKey(final int t, final int r) {
    for (int q = g.readStart[t]; q < r; q++) {
      if (g.readKey[q] == g.readKey[r]) {
        return false;
      }
    }
    return true;
  }

  /** The version of {@code key} that {@code node} wrote last (INIT: the initial one), or -1. */
  private int version(final int node, final int key) {
    return node == INIT ? g.writeKey.length + key : g.writeSlot(node, key);
  }

  private int[] slotNode() {
    if (slotNode == null) {
      slotNode = new int[g.writeKey.length];
      for (int t = 1; t <= n; t++) {
        for (int v = g.writeStart[t]; v < g.writeStart[t + 1]; v++) {
          slotNode[v] = t;
        }
      }
    }
    return slotNode;
  }

  /**
   * The version forest: a node's version of x is a child of the version its first read of x
   * returned (a write-read arc joins them, the initial version aside); other versions are roots.
   * Euler intervals make "is an ancestor of" one comparison. SO ∪ WR is acyclic here, so the parent
   * links are too.
   */
  private void forest() {
    if (parent != null) {
      return;
    }
    final int versions = g.writeKey.length + g.keyCount;
    parent = new int[versions];
    Arrays.fill(parent, -1);
    for (int t = 1; t <= n; t++) {
      for (int r = g.readStart[t]; r < g.readStart[t + 1]; r++) {
        final int own = g.writeSlot(t, g.readKey[r]);
        if (own >= 0 && parent[own] < 0 && firstReadOfKey(t, r)) {
          parent[own] = version(g.readWriter[r], g.readKey[r]);
        }
      }
    }
    if (paths(versions)) {
      return;
    }
    final int[] childStart = new int[versions + 1];
    for (int v = 0; v < versions; v++) {
      if (parent[v] >= 0) {
        childStart[parent[v] + 1]++;
      }
    }
    IntArcs.prefixSums(childStart);
    final int[] children = new int[childStart[versions]];
    final int[] fill = Arrays.copyOf(childStart, versions);
    for (int v = 0; v < versions; v++) {
      if (parent[v] >= 0) {
        children[fill[parent[v]]++] = v;
      }
    }
    tin = new int[versions];
    tout = new int[versions];
    Arrays.fill(tin, -1);
    final int[] stack = new int[versions];
    final int[] next = new int[versions];
    int clock = 0;
    for (int root = 0; root < versions; root++) {
      if (parent[root] >= 0) {
        continue;
      }
      int depth = 0;
      stack[depth++] = root;
      tin[root] = clock++;
      next[root] = childStart[root];
      while (depth > 0) {
        final int v = stack[depth - 1];
        if (next[v] == childStart[v + 1]) {
          tout[v] = clock++;
          depth--;
          continue;
        }
        final int c = children[next[v]++];
        tin[c] = clock++;
        next[c] = childStart[c];
        stack[depth++] = c;
      }
    }
  }

  /**
   * The common case, a forest of paths (no version overwritten twice, as by a lost update): a
   * root and a depth per version, each found by walking up to the nearest version already done, so
   * every version is visited once, mostly near the previous one (the previous version of a key was
   * written a few thousand slots earlier), where a depth-first walk of each chain would jump around
   * the arrays. False, and nothing set, when some version has two children.
   */
  private boolean paths(final int versions) {
    final int writeSlots = g.writeKey.length;
    final boolean[] hasChild = new boolean[versions];
    for (int v = 0; v < writeSlots; v++) {
      final int p = parent[v];
      if (p >= 0) {
        if (hasChild[p]) {
          return false;
        }
        hasChild[p] = true;
      }
    }
    final int[] root = new int[versions];
    final int[] depth = new int[versions];
    Arrays.fill(depth, 0, writeSlots, -1);
    for (int v = writeSlots; v < versions; v++) {
      root[v] = v;
    }
    final int[] stack = new int[Math.max(1, writeSlots)];
    for (int v = 0; v < writeSlots; v++) {
      int k = 0;
      int u = v;
      while (u >= 0 && u < writeSlots && depth[u] < 0) {
        stack[k++] = u;
        u = parent[u];
      }
      // u is a done version (a slot or an initial one), or -1 above a root
      while (k > 0) {
        final int x = stack[--k];
        final int p = parent[x];
        root[x] = p < 0 ? x : root[p];
        depth[x] = p < 0 ? 0 : depth[p] + 1;
      }
    }
    pathRoot = root;
    pathDepth = depth;
    return true;
  }

  /** Whether version a is version b or one of its ancestors. */
  private boolean ancestorOrSelf(final int a, final int b) {
    if (a < 0 || b < 0) {
      return false;
    }
    if (pathRoot != null) {
      return pathRoot[a] == pathRoot[b] && pathDepth[a] <= pathDepth[b];
    }
    return tin[a] >= 0 && tin[b] >= 0 && tin[a] <= tin[b] && tout[b] <= tout[a];
  }

  /**
   * A derived arc t2 → t1 on key x: dropped when implied by write-read arcs, else kept. Returns
   * true when it closes a cycle by itself (t1 is the initial transaction, which precedes every other).
   */
  private boolean derive(final int t2, final int t1, final int key, final IntArcs kept) {
    if (t1 == INIT) {
      return true;
    }
    if (!ancestorOrSelf(g.writeSlot(t2, key), g.writeSlot(t1, key))) {
      kept.add(t2, t1);
    }
    return false;
  }

  /** RC (earlier reads of the reader) or RA (all its reads, and its session's last writer of the key). */
  private boolean readAtomicArcs(final boolean ra, final IntArcs kept) {
    final int[] sessionWriter = ra ? sessionWriters() : null;
    for (int t = 1; t <= n; t++) {
      final int from = g.readStart[t];
      final int to = g.readStart[t + 1];
      for (int i = from; i < to; i++) {
        final int x = g.readKey[i];
        final int t1 = g.readWriter[i];
        final int last = ra ? to : i;
        for (int j = from; j < last; j++) {
          final int t2 = g.readWriter[j];
          if (t2 > 0 && t2 != t1 && g.writeSlot(t2, x) >= 0 && derive(t2, t1, x, kept)) {
            return true;
          }
        }
        if (ra) {
          final int p = sessionWriter[i];
          if (p > 0 && p != t1 && derive(p, t1, x, kept)) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** Per read, the nearest node before its reader in the session that writes the key read (0: none). */
  private int[] sessionWriters() {
    final int[] out = new int[g.readKey.length];
    final int[] last = new int[g.keyCount];
    final WeakSessions s = sessions();
    for (int c = 0; c < s.count; c++) {
      for (int k = s.start[c]; k < s.start[c + 1]; k++) {
        final int t = s.members[k];
        for (int r = g.readStart[t]; r < g.readStart[t + 1]; r++) {
          out[r] = last[g.readKey[r]];
        }
        for (int v = g.writeStart[t]; v < g.writeStart[t + 1]; v++) {
          last[g.writeKey[v]] = t;
        }
      }
      for (int k = s.start[c]; k < s.start[c + 1]; k++) {
        final int t = s.members[k];
        for (int v = g.writeStart[t]; v < g.writeStart[t + 1]; v++) {
          last[g.writeKey[v]] = 0;
        }
      }
    }
    return out;
  }

  /**
   * CC: for a read of x by t from t1, every writer t2 of x that precedes t in (SO ∪ WR)+ must
   * commit before t1. On a chain key (above) that is one query; on another key, per session only
   * the last such writer counts (the earlier ones precede it in SO), and not when it already
   * precedes t1 (AxiomArcs.CausalPast).
   */
  private boolean causalArcs(final IntArcs kept) {
    final WeakSessions s = sessions();
    final int versions = g.writeKey.length + g.keyCount;
    final int writeSlots = g.writeKey.length;
    // Chain keys: every version but the initial one has a parent, none has two children.
    final int[] child = new int[versions];
    Arrays.fill(child, -1);
    final boolean[] chain = new boolean[g.keyCount];
    Arrays.fill(chain, true);
    for (int v = 0; v < writeSlots; v++) {
      if (parent[v] < 0) {
        chain[g.writeKey[v]] = false;
      } else if (child[parent[v]] >= 0) {
        chain[g.writeKey[v]] = false;
      } else {
        child[parent[v]] = v;
      }
    }
    final int[] nodes = slotNode();
    // Other keys: their writers grouped by key, then by session, in session order.
    final int[] byKeyStart = new int[g.keyCount + 1];
    for (int v = 0; v < writeSlots; v++) {
      if (!chain[g.writeKey[v]]) {
        byKeyStart[g.writeKey[v] + 1]++;
      }
    }
    IntArcs.prefixSums(byKeyStart);
    final int[] byKey = new int[byKeyStart[g.keyCount]];
    final int[] fill = Arrays.copyOf(byKeyStart, g.keyCount);
    for (int k = 0; k < n; k++) {
      final int t = s.members[k];
      for (int v = g.writeStart[t]; v < g.writeStart[t + 1]; v++) {
        if (!chain[g.writeKey[v]]) {
          byKey[fill[g.writeKey[v]]++] = t;
        }
      }
    }
    final int width = clockWidth(s.count, n, clockCells);
    final int[] clock = new int[Math.max(1, (n + 1) * width)];
    for (int lo = 0; lo < s.count; lo += width) {
      final int hi = Math.min(s.count, lo + width);
      clocks(s, clock, lo, hi, width);
      for (int t = 1; t <= n; t++) {
        for (int r = g.readStart[t]; r < g.readStart[t + 1]; r++) {
          final int x = g.readKey[r];
          final int t1 = g.readWriter[r];
          if (chain[x]) {
            final int c = child[version(t1, x)];
            if (c >= 0) {
              final int cn = nodes[c];
              final int cs = s.session[cn];
              if (cs >= lo && cs < hi && clock[t * width + cs - lo] >= s.position[cn]) {
                return true; // c saw t1's version and precedes t: t2 = c must commit before t1, its own writer
              }
            }
            continue;
          }
          int k = byKeyStart[x];
          while (k < byKeyStart[x + 1]) {
            final int session = s.session[byKey[k]];
            int end = k;
            while (end < byKeyStart[x + 1] && s.session[byKey[end]] == session) {
              end++;
            }
            if (session >= lo && session < hi) {
              final int upTo = clock[t * width + session - lo];
              final int w = lastAtOrBefore(byKey, k, end, s.position, upTo);
              if (w > 0 && w != t1 && !(t1 != INIT && clock[t1 * width + session - lo] >= s.position[w])) {
                if (derive(w, t1, x, kept)) {
                  return true;
                }
              }
            }
            k = end;
          }
        }
      }
    }
    return false;
  }

  /**
   * How many sessions' clocks are built at a time: all of them when n + 1 rows of them fit in
   * {@code cells} ints (and in an array), else as many as fit, at least one. Each chunk costs one
   * more pass over the arcs; the answers do not depend on it.
   */
  static int clockWidth(final int sessions, final int n, final long cells) {
    return (int) Math.max(1, Math.min(sessions, Math.min(cells, Integer.MAX_VALUE - 8) / (n + 1L)));
  }

  /** The last node of byKey[from, to) (one session's writers, in session order) at a position at most upTo, or 0. */
  private static int lastAtOrBefore(final int[] byKey, final int from, final int to, final int[] position,
      final int upTo) {
    int lo = from;
    int hi = to - 1;
    int found = 0;
    while (lo <= hi) {
      final int mid = (lo + hi) >>> 1;
      if (position[byKey[mid]] <= upTo) {
        found = byKey[mid];
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** clock[t * width + s - lo]: the last position of session s (lo <= s < hi) preceding t in (SO ∪ WR)+, or -1. */
  private void clocks(final WeakSessions s, final int[] clock, final int lo, final int hi, final int width) {
    Arrays.fill(clock, -1);
    for (final int t : topo) {
      final int row = t * width;
      final int p = g.soPred[t];
      if (p > 0) {
        merge(clock, row, p, width, s, lo, hi);
      }
      for (int r = g.readStart[t]; r < g.readStart[t + 1]; r++) {
        if (g.readWriter[r] != INIT) {
          merge(clock, row, g.readWriter[r], width, s, lo, hi);
        }
      }
    }
  }

  private static void merge(final int[] clock, final int row, final int p, final int width, final WeakSessions s,
      final int lo, final int hi) {
    final int prow = p * width;
    for (int c = 0; c < width; c++) {
      if (clock[prow + c] > clock[row + c]) {
        clock[row + c] = clock[prow + c];
      }
    }
    final int ps = s.session[p];
    if (ps >= lo && ps < hi && s.position[p] > clock[row + ps - lo]) {
      clock[row + ps - lo] = s.position[p];
    }
  }

  private WeakSessions sessions;

  private WeakSessions sessions() {
    if (sessions == null) {
      sessions = new WeakSessions(g);
    }
    return sessions;
  }
}
