package io.isowatch.core.check;

import io.isowatch.core.check.MixedStep.Rule;
import io.isowatch.core.check.WeakGraph.Arc;
import io.isowatch.core.check.WeakGraph.Read;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Decides MIXED in linear time when every key's version order is known: every write is a
 * read-modify-write (its transaction read the key before writing it) and no two writers read the
 * same version (no fork), so WR alone orders each key's writers in one chain, which every commit
 * order extends. Then, for a read of x by t3 from t1 and n the next writer of x after t1, the axiom
 * of t3's level (paper 003, Definition 6) reduces to:
 *
 * <ul>
 *   <li>SER: t3 before n (had n committed before t3, it would have to precede t1);
 *   <li>PC and SI: every direct predecessor of t3 in SO ∪ WR before n (SI's Conflict adds nothing:
 *       a writer of a key t3 writes that commits before t3 precedes, in that key's chain, the
 *       writer t3 read it from, which is such a predecessor);
 *   <li>CC: n not before t3 in (SO ∪ WR)+ (checked with per-session vector clocks);
 *   <li>RC, RA: no writer of x after t1 among the writers t3 read from (earlier reads for RC) and,
 *       for RA, among t3's session predecessors.
 * </ul>
 *
 * Each of these is forced, and together they suffice: a commit order exists exactly when the
 * local checks pass and SO ∪ WR with the SER, PC and SI arcs is acyclic (any topological order
 * then satisfies every axiom). Anything else (a blind write, a fork, a read whose writer is open) is
 * not for this class: {@link #decide} returns null and {@link MixedLevelCheck} searches.
 */
final class MixedChains {
  private static final int INIT = WeakGraph.INIT;
  /** Above this many vector-clock entries (nodes × sessions) the CC check is left to the search. */
  static final long MAX_CLOCK_ENTRIES = 200_000_000L;

  private static final int SO = 0;
  private static final int WR = 1;
  private static final int SER_ARC = 2;
  private static final int PC_ARC = 3;

  /** The outcome: a counterexample's steps, or none (SATISFIED). */
  record Outcome(List<MixedStep> cycle) {}

  private final WeakGraph g;
  private final Level[] level;
  private final int n;
  private final Map<String, Integer> keyIds = new HashMap<>();
  /** Per node: the keys it writes, the writer it read each from, and the writer after it. */
  private final int[][] wKey;
  private final int[][] wPrev;
  private final int[][] wNext;
  private final int[][] wPos;
  private int[] firstWriter = new int[16];

  // The arcs of SO ∪ WR ∪ the SER and PC arcs, as parallel arrays.
  private int arcs;
  private int[] aFrom = new int[1024];
  private int[] aTo = new int[1024];
  private int[] aKind = new int[1024];
  private int[] aReader = new int[1024];
  private int[] aRead = new int[1024];

  MixedChains(final WeakGraph g, final Level[] level) {
    this.g = g;
    this.level = level;
    this.n = g.n;
    this.wKey = new int[n + 1][];
    this.wPrev = new int[n + 1][];
    this.wNext = new int[n + 1][];
    this.wPos = new int[n + 1][];
  }

  /** The outcome, or null when some key's version order is not known from WR alone. */
  Outcome decide() {
    if (!chains() || !positions()) {
      return null;
    }
    final List<MixedStep> local = localChecks();
    if (local != null) {
      return new Outcome(local);
    }
    buildArcs();
    final int[] order = topologicalOrder();
    if (order.length < n) {
      return new Outcome(cycle(order));
    }
    final List<MixedStep> causal = causalChecks(order);
    if (causal == MIXED_UNDECIDED) {
      return null;
    }
    return new Outcome(causal);
  }

  private static final List<MixedStep> MIXED_UNDECIDED = new ArrayList<>();

  private int keyId(final String key) {
    return keyIds.computeIfAbsent(key, k -> keyIds.size());
  }

  /** Each writer's predecessor in its keys' chains; false on a blind write, a fork or an open read. */
  private boolean chains() {
    for (int t = 1; t <= n; t++) {
      final List<String> keys = new ArrayList<>(g.writtenKeys(t));
      wKey[t] = new int[keys.size()];
      wPrev[t] = new int[keys.size()];
      wNext[t] = new int[keys.size()];
      wPos[t] = new int[keys.size()];
      for (int i = 0; i < keys.size(); i++) {
        wKey[t][i] = keyId(keys.get(i));
        int prev = -1;
        for (final Read r : g.reads[t]) {
          if (r.key().equals(keys.get(i))) {
            if (prev >= 0 && prev != r.writer()) {
              return false; // two versions read before the write: which one it follows is not known
            }
            prev = r.writer();
          }
        }
        if (prev < 0 || !readBeforeWrite(t, keys.get(i))) {
          return false; // a blind write
        }
        wPrev[t][i] = prev;
      }
    }
    for (int t = 1; t <= n; t++) {
      for (int i = 0; i < wKey[t].length; i++) {
        final int k = wKey[t][i];
        final int p = wPrev[t][i];
        if (p == INIT) {
          if (k >= firstWriter.length) {
            firstWriter = Arrays.copyOf(firstWriter, Math.max(k + 1, firstWriter.length * 2));
          }
          if (firstWriter[k] != 0) {
            return false; // a fork at the initial version
          }
          firstWriter[k] = t;
        } else {
          final int at = indexOf(p, k);
          if (at < 0 || wNext[p][at] != 0) {
            return false; // a fork: two writers followed the same version
          }
          wNext[p][at] = t;
        }
      }
    }
    return true;
  }

  /** Whether {@code t} reads {@code key} before its first write of it (external reads come first in {@link WeakGraph}). */
  private boolean readBeforeWrite(final int t, final String key) {
    final var ops = g.txn(t).ops();
    for (final var op : ops) {
      if (op.key().equals(key)) {
        return op.isRead();
      }
    }
    return false;
  }

  private int indexOf(final int t, final int key) {
    final int[] ks = wKey[t];
    for (int i = 0; i < ks.length; i++) {
      if (ks[i] == key) {
        return i;
      }
    }
    return -1;
  }

  /** Chain positions (the initial version is 0); false when WR is cyclic among writers (left to the search). */
  private boolean positions() {
    for (int k = 0; k < keyIds.size() && k < firstWriter.length; k++) {
      int t = firstWriter[k];
      int pos = 1;
      while (t != 0) {
        final int at = indexOf(t, k);
        wPos[t][at] = pos++;
        t = wNext[t][at];
      }
    }
    for (int t = 1; t <= n; t++) {
      for (final int p : wPos[t]) {
        if (p == 0) {
          return false; // not reachable from the initial version: a cycle of writers
        }
      }
    }
    return true;
  }

  private int pos(final int t, final String key) {
    if (t == INIT) {
      return 0;
    }
    final Integer k = keyIds.get(key);
    final int at = k == null ? -1 : indexOf(t, k);
    return at < 0 ? -1 : wPos[t][at];
  }

  private int next(final int t, final String key) {
    final Integer id = keyIds.get(key);
    if (id == null) {
      return 0; // a key nobody writes: read at its initial value, with no writer after it
    }
    final int k = id;
    if (t == INIT) {
      return k < firstWriter.length ? firstWriter[k] : 0;
    }
    return wNext[t][indexOf(t, k)];
  }

  /** RC and RA: a writer of the key after the one read, among those read from or (RA) earlier in the session. */
  private List<MixedStep> localChecks() {
    for (int t3 = 1; t3 <= n; t3++) {
      if (level[t3] != Level.RC && level[t3] != Level.RA) {
        continue;
      }
      final List<Read> rs = g.reads[t3];
      for (int i = 0; i < rs.size(); i++) {
        final Read r = rs.get(i);
        final int p1 = pos(r.writer(), r.key());
        for (int j = 0; j < (level[t3] == Level.RC ? i : rs.size()); j++) {
          final Read seen = rs.get(j);
          final int w = seen.writer();
          if (w != INIT && w != t3 && pos(w, r.key()) > p1) {
            return axiomCycle(r, w, List.of(new Arc(w, t3, EdgeKind.WR, seen.key(), seen.value(), null)));
          }
        }
      }
    }
    return sessionChecks();
  }

  /** RA: a writer of the key after the one read, earlier in the reader's session. */
  private List<MixedStep> sessionChecks() {
    final int[] soNext = new int[n + 1];
    for (int t = 1; t <= n; t++) {
      if (g.soPred[t] > 0) {
        soNext[g.soPred[t]] = t;
      }
    }
    for (int head = 1; head <= n; head++) {
      if (g.soPred[head] > 0) {
        continue;
      }
      // key -> the latest position an earlier transaction of the session wrote, and who wrote it
      final Map<String, int[]> latest = new HashMap<>();
      for (int t3 = head; t3 != 0; t3 = soNext[t3]) {
        if (level[t3] == Level.RA) {
          for (final Read r : g.reads[t3]) {
            final int[] l = latest.get(r.key());
            if (l != null && l[0] > pos(r.writer(), r.key())) {
              return axiomCycle(r, l[1], sessionPath(l[1], t3));
            }
          }
        }
        for (final String k : g.writtenKeys(t3)) {
          final int p = pos(t3, k);
          final int[] l = latest.get(k);
          if (l == null || l[0] < p) {
            latest.put(k, new int[] {p, t3});
          }
        }
      }
    }
    return null;
  }

  private List<Arc> sessionPath(final int from, final int to) {
    final List<Arc> path = new ArrayList<>();
    for (int t = to; t != from; t = g.soPred[t]) {
      path.add(0, new Arc(g.soPred[t], t, EdgeKind.SO, null, null, null));
    }
    return path;
  }

  /**
   * The cycle of a broken fixed-premise axiom: writer {@code t2} of the key, seen by the reader via
   * {@code seen}, must precede the writer read, yet follows it in the key's chain.
   */
  private List<MixedStep> axiomCycle(final Read r, final int t2, final List<Arc> seen) {
    final Arc arc = new Arc(t2, r.writer(), EdgeKind.WW, r.key(), r.value(), new WeakGraph.Why(r, () -> seen));
    final List<MixedStep> cycle = new ArrayList<>();
    cycle.add(new MixedStep(t2, r.writer(), Rule.AXIOM, r.key(), r.value(), r.reader(), r.writer(), -1, arc));
    cycle.addAll(chainPath(r.writer(), t2, r.key()));
    return cycle;
  }

  /** The WR facts from {@code from} down the key's chain to {@code to} (the initial transaction: one INIT fact). */
  private List<MixedStep> chainPath(final int from, final int to, final String key) {
    if (from == INIT) {
      return List.of(MixedStep.fact(INIT, to, Rule.INIT, null, null));
    }
    final List<MixedStep> path = new ArrayList<>();
    for (int t = from; t != to; ) {
      final int nx = next(t, key);
      path.add(MixedStep.fact(t, nx, Rule.WR, key, g.lastWrite(t, key)));
      t = nx;
    }
    return path;
  }

  private void buildArcs() {
    for (int t = 1; t <= n; t++) {
      if (g.soPred[t] > 0) {
        arc(g.soPred[t], t, SO, t, -1);
      }
      final List<Read> rs = g.reads[t];
      for (int i = 0; i < rs.size(); i++) {
        if (rs.get(i).writer() != INIT) {
          arc(rs.get(i).writer(), t, WR, t, i);
        }
      }
    }
    for (int t3 = 1; t3 <= n; t3++) {
      final Level l = level[t3];
      if (l != Level.SER && l != Level.PC && l != Level.SI) {
        continue;
      }
      final List<Read> rs = g.reads[t3];
      for (int i = 0; i < rs.size(); i++) {
        final int nx = next(rs.get(i).writer(), rs.get(i).key());
        if (nx == 0 || nx == t3) {
          continue;
        }
        if (l == Level.SER) {
          arc(t3, nx, SER_ARC, t3, i);
        } else {
          if (g.soPred[t3] > 0) {
            arc(g.soPred[t3], nx, PC_ARC, t3, i);
          }
          for (final Read p : rs) {
            if (p.writer() != INIT) {
              arc(p.writer(), nx, PC_ARC, t3, i);
            }
          }
        }
      }
    }
  }

  private void arc(final int from, final int to, final int kind, final int reader, final int read) {
    if (arcs == aFrom.length) {
      final int size = arcs * 2;
      aFrom = Arrays.copyOf(aFrom, size);
      aTo = Arrays.copyOf(aTo, size);
      aKind = Arrays.copyOf(aKind, size);
      aReader = Arrays.copyOf(aReader, size);
      aRead = Arrays.copyOf(aRead, size);
    }
    aFrom[arcs] = from;
    aTo[arcs] = to;
    aKind[arcs] = kind;
    aReader[arcs] = reader;
    aRead[arcs] = read;
    arcs++;
  }

  /** Kahn's order of the nodes; shorter than n when the arcs hold a cycle. */
  private int[] topologicalOrder() {
    final int[] start = new int[n + 2];
    final int[] indegree = new int[n + 1];
    for (int a = 0; a < arcs; a++) {
      start[aFrom[a] + 1]++;
      indegree[aTo[a]]++;
    }
    for (int v = 1; v <= n + 1; v++) {
      start[v] += start[v - 1];
    }
    final int[] out = new int[arcs];
    final int[] fill = Arrays.copyOf(start, n + 1);
    for (int a = 0; a < arcs; a++) {
      out[fill[aFrom[a]]++] = a;
    }
    final int[] order = new int[n];
    int size = 0;
    for (int v = 1; v <= n; v++) {
      if (indegree[v] == 0) {
        order[size++] = v;
      }
    }
    for (int i = 0; i < size; i++) {
      final int v = order[i];
      for (int e = start[v]; e < start[v + 1]; e++) {
        if (--indegree[aTo[out[e]]] == 0) {
          order[size++] = aTo[out[e]];
        }
      }
    }
    return Arrays.copyOf(order, size);
  }

  /** A cycle among the nodes Kahn's order left out: walk back along arcs between them until a node repeats. */
  private List<MixedStep> cycle(final int[] order) {
    final boolean[] ordered = new boolean[n + 1];
    for (final int v : order) {
      ordered[v] = true;
    }
    final int[] inArc = new int[n + 1];
    Arrays.fill(inArc, -1);
    for (int a = 0; a < arcs; a++) {
      if (!ordered[aFrom[a]] && !ordered[aTo[a]] && inArc[aTo[a]] < 0) {
        inArc[aTo[a]] = a;
      }
    }
    int v = 1;
    while (ordered[v]) {
      v++;
    }
    final int[] seenAt = new int[n + 1];
    final List<Integer> walk = new ArrayList<>();
    while (seenAt[v] == 0) {
      walk.add(inArc[v]);
      seenAt[v] = walk.size();
      v = aFrom[inArc[v]];
    }
    final List<Integer> loop = walk.subList(seenAt[v] - 1, walk.size());
    final List<MixedStep> cycle = new ArrayList<>();
    for (int i = loop.size() - 1; i >= 0; i--) {
      cycle.add(step(loop.get(i)));
    }
    return cycle;
  }

  private MixedStep step(final int a) {
    final int reader = aReader[a];
    if (aKind[a] == SO) {
      return MixedStep.fact(aFrom[a], aTo[a], Rule.SO, null, null);
    }
    final Read r = g.reads[reader].get(aRead[a]);
    return switch (aKind[a]) {
      case WR -> MixedStep.fact(aFrom[a], aTo[a], Rule.WR, r.key(), r.value());
      case SER_ARC -> new MixedStep(aFrom[a], aTo[a], Rule.READER_FIRST, r.key(), r.value(), reader, r.writer(), -1,
          null);
      default -> new MixedStep(aFrom[a], aTo[a], Rule.PREDECESSOR_FIRST, r.key(), r.value(), reader, r.writer(),
          aFrom[a], null);
    };
  }

  /**
   * CC: the next writer after the one read must not precede the reader in (SO ∪ WR)+, by vector
   * clocks over sessions in a topological order; {@link #MIXED_UNDECIDED} when they are too large.
   */
  private List<MixedStep> causalChecks(final int[] order) {
    boolean any = false;
    for (int t = 1; t <= n && !any; t++) {
      any = level[t] == Level.CC;
    }
    if (!any) {
      return null;
    }
    final int[] session = new int[n + 1];
    final int[] rank = new int[n + 1];
    int sessions = 0;
    for (final int t : order) {
      final int p = g.soPred[t];
      session[t] = p > 0 ? session[p] : sessions++;
      rank[t] = p > 0 ? rank[p] + 1 : 1;
    }
    if ((long) sessions * (n + 1) > MAX_CLOCK_ENTRIES) {
      return MIXED_UNDECIDED;
    }
    final int[][] clock = new int[n + 1][];
    for (final int t : order) {
      final int[] c = new int[sessions];
      if (g.soPred[t] > 0) {
        max(c, clock[g.soPred[t]]);
      }
      for (final Read r : g.reads[t]) {
        if (r.writer() != INIT) {
          max(c, clock[r.writer()]);
        }
      }
      c[session[t]] = rank[t];
      clock[t] = c;
      if (level[t] == Level.CC) {
        for (final Read r : g.reads[t]) {
          final int nx = next(r.writer(), r.key());
          if (nx != 0 && nx != t && clock[t][session[nx]] >= rank[nx]) {
            return axiomCycle(r, nx, causalPath(nx, t));
          }
        }
      }
    }
    return null;
  }

  private static void max(final int[] into, final int[] from) {
    for (int i = 0; i < into.length; i++) {
      into[i] = Math.max(into[i], from[i]);
    }
  }

  /** A path of SO and WR arcs from {@code from} to {@code to}, by a search backwards from {@code to}. */
  private List<Arc> causalPath(final int from, final int to) {
    final int[] via = new int[n + 1];
    final Read[] viaRead = new Read[n + 1];
    Arrays.fill(via, -1);
    final ArrayDeque<Integer> work = new ArrayDeque<>();
    work.add(to);
    via[to] = to;
    while (!work.isEmpty() && via[from] < 0) {
      final int v = work.poll();
      if (g.soPred[v] > 0 && via[g.soPred[v]] < 0) {
        via[g.soPred[v]] = v;
        work.add(g.soPred[v]);
      }
      for (final Read r : g.reads[v]) {
        if (r.writer() != INIT && via[r.writer()] < 0) {
          via[r.writer()] = v;
          viaRead[r.writer()] = r;
          work.add(r.writer());
        }
      }
    }
    final List<Arc> path = new ArrayList<>();
    for (int v = from; v != to; v = via[v]) {
      final Read r = viaRead[v];
      path.add(r == null ? new Arc(v, via[v], EdgeKind.SO, null, null, null)
          : new Arc(v, via[v], EdgeKind.WR, r.key(), r.value(), null));
    }
    return path;
  }
}
