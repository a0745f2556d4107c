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
 * then satisfies every axiom).
 *
 * <p>After a lost update (two writers read the same version: a fork), each key's versions form a
 * tree: every writer that descends from t1 still follows it, so the arcs to every child of t1 and
 * the local checks are still forced, and a violation they show stands. So is one more arc: an SI
 * reader precedes the other children of the version it read of a key it writes (SI's Conflict
 * axiom, with the sibling as both t2 and t4). What stays open is how the branches interleave, per
 * forked key; {@link MixedForkSearch} settles it (a commit order found is a satisfaction), within
 * the search budget. When it cannot, {@link #decide} returns null with {@link #undecided} saying
 * why, as for a blind write or a cycle of writers, and {@link MixedLevelCheck} searches; when the
 * fork search refuted every order ({@link #forkRefuted}), {@link MixedLevelCheck} explains the
 * sub-history its proof used ({@link #forkCore}).
 */
final class MixedChains {
  private static final int INIT = WeakGraph.INIT;
  /** Above this many vector-clock entries (nodes × sessions) the CC check is left to the search. */
  static final long MAX_CLOCK_ENTRIES = 200_000_000L;

  static final int SO = 0;
  static final int WR = 1;
  static final int SER_ARC = 2;
  static final int PC_ARC = 3;
  static final int SI_SIBLING = 4;

  /** The outcome: a counterexample's steps, or none (SATISFIED). */
  record Outcome(List<MixedStep> cycle) {}

  /** What {@link #causalChecks} returns when its clocks would be too large: left to the search. */
  private static final List<MixedStep> UNDECIDED = List.of();

  final WeakGraph g;
  final Level[] level;
  final int n;
  final Map<String, Integer> keyIds = new HashMap<>();
  /**
   * Per node and key it writes: the writer it read the key from (its parent in the key's tree of
   * versions), its first child, its next sibling, and its interval in a depth-first numbering of
   * the tree (a writer follows t1 in the key's version order exactly when it descends from t1).
   */
  final int[][] wKey;
  final int[][] wPrev;
  final int[][] wChild;
  final int[][] wSibling;
  final int[][] wIn;
  final int[][] wOut;
  /** Per key: the first writer that read the initial value (the roots' first sibling). */
  int[] firstWriter = new int[16];
  /** Whether two writers read the same version of a key (a lost update): the version order is then open. */
  boolean forked;

  // The arcs of SO ∪ WR ∪ the SER and PC arcs, as parallel arrays.
  int arcs;
  int[] aFrom = new int[1024];
  int[] aTo = new int[1024];
  int[] aKind = new int[1024];
  int[] aReader = new int[1024];
  int[] aRead = new int[1024];

  /** How long the search of forked version orders may take; zero turns it off. */
  private final java.time.Duration budget;
  /** Why {@link #decide} returned null, when it did after a fork; else null. */
  private String undecided;
  /** Whether the fork search refuted every order of the branches (no commit order exists). */
  private boolean forkRefuted;
  private int[] forkCore;

  MixedChains(final WeakGraph g, final Level[] level) {
    this(g, level, CheckOptions.DEFAULT_SOLVER_BUDGET);
  }

  MixedChains(final WeakGraph g, final Level[] level, final java.time.Duration budget) {
    this.budget = budget;
    this.g = g;
    this.level = level;
    this.n = g.n;
    this.wKey = new int[n + 1][];
    this.wPrev = new int[n + 1][];
    this.wChild = new int[n + 1][];
    this.wSibling = new int[n + 1][];
    this.wIn = new int[n + 1][];
    this.wOut = new int[n + 1][];
  }

  /**
   * The outcome, or null when this class cannot decide: a version order WR does not fix (a blind
   * write, a cycle of writers), a lost update with no violation found, or CC clocks too large.
   */
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
    if (causal == UNDECIDED) {
      return null;
    }
    if (causal == null && forked) {
      // After a lost update the branches' order is a choice the arcs above do not make: the
      // violations found without it stand, a satisfaction needs a commit order found by search.
      final MixedForkSearch search = new MixedForkSearch(this, budget);
      if (search.run()) {
        return new Outcome(null);
      }
      undecided = search.reason();
      forkRefuted = search.refuted();
      forkCore = search.core();
      return null;
    }
    return new Outcome(causal);
  }

  /** Whether {@link #decide} returned null because the fork search proved no commit order exists. */
  boolean forkRefuted() {
    return forkRefuted;
  }

  /**
   * After {@link #forkRefuted}: the transactions the refutation used, ascending, whose sub-history
   * alone has no commit order ({@link MixedForkSearch#core}); else null.
   */
  int[] forkCore() {
    return forkCore;
  }

  /** Why {@link #decide} returned null after a fork (the fork search's reason), or null. */
  String undecided() {
    return undecided;
  }

  private int keyId(final String key) {
    return keyIds.computeIfAbsent(key, k -> keyIds.size());
  }

  /** Each writer's predecessor in its keys' chains; false on a blind write, a fork or an open read. */
  private boolean chains() {
    for (int t = 1; t <= n; t++) {
      final List<String> keys = new ArrayList<>(g.writtenKeys(t));
      wKey[t] = new int[keys.size()];
      wPrev[t] = new int[keys.size()];
      wChild[t] = new int[keys.size()];
      wSibling[t] = new int[keys.size()];
      wIn[t] = new int[keys.size()];
      wOut[t] = new int[keys.size()];
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
          forked |= firstWriter[k] != 0;
          wSibling[t][i] = firstWriter[k];
          firstWriter[k] = t;
        } else {
          final int at = indexOf(p, k);
          if (at < 0) {
            return false;
          }
          forked |= wChild[p][at] != 0; // two writers followed the same version
          wSibling[t][i] = wChild[p][at];
          wChild[p][at] = t;
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

  int indexOf(final int t, final int key) {
    final int[] ks = wKey[t];
    for (int i = 0; i < ks.length; i++) {
      if (ks[i] == key) {
        return i;
      }
    }
    return -1;
  }

  /** The depth-first intervals of each key's tree; false when WR is cyclic among writers (left to the search). */
  private boolean positions() {
    final ArrayDeque<int[]> stack = new ArrayDeque<>();
    for (int k = 0; k < keyIds.size() && k < firstWriter.length; k++) {
      int clock = 1;
      for (int root = firstWriter[k]; root != 0; root = wSibling[root][indexOf(root, k)]) {
        stack.push(new int[] {root, 0});
        while (!stack.isEmpty()) {
          final int[] top = stack.peek();
          final int at = indexOf(top[0], k);
          if (top[1] == 0) {
            top[1] = 1;
            wIn[top[0]][at] = clock++;
            for (int c = wChild[top[0]][at]; c != 0; c = wSibling[c][indexOf(c, k)]) {
              stack.push(new int[] {c, 0});
            }
          } else {
            wOut[top[0]][at] = clock - 1;
            stack.pop();
          }
        }
      }
    }
    for (int t = 1; t <= n; t++) {
      for (final int in : wIn[t]) {
        if (in == 0) {
          return false; // not reachable from the initial version: a cycle of writers
        }
      }
    }
    return true;
  }

  /** Whether writer {@code u} of {@code key} follows {@code t1} (a writer of it, or the initial transaction) in its version order. */
  private boolean after(final int u, final int t1, final String key) {
    final Integer k = keyIds.get(key);
    final int au = k == null || u == INIT ? -1 : indexOf(u, k);
    if (au < 0) {
      return false;
    }
    if (t1 == INIT) {
      return true;
    }
    final int a1 = indexOf(t1, k);
    return wIn[t1][a1] < wIn[u][au] && wIn[u][au] <= wOut[t1][a1];
  }

  /** The writers of {@code key} that read the version {@code t1} wrote (several after a lost update). */
  private List<Integer> next(final int t, final String key) {
    final Integer k = keyIds.get(key);
    if (k == null) {
      return List.of(); // a key nobody writes: read at its initial value, with no writer after it
    }
    final List<Integer> out = new ArrayList<>(1);
    int c = t == INIT ? (k < firstWriter.length ? firstWriter[k] : 0) : wChild[t][indexOf(t, k)];
    while (c != 0) {
      out.add(c);
      c = wSibling[c][indexOf(c, k)];
    }
    return out;
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
        for (int j = 0; j < (level[t3] == Level.RC ? i : rs.size()); j++) {
          final Read seen = rs.get(j);
          final int w = seen.writer();
          if (w != INIT && w != t3 && after(w, r.writer(), r.key())) {
            return axiomCycle(r, w, List.of(new Arc(w, t3, EdgeKind.WR, seen.key(), seen.value(), null)));
          }
        }
      }
    }
    return sessionChecks();
  }

  /** RA: a writer of the key after the one read, earlier in the reader's session. */
  private List<MixedStep> sessionChecks() {
    boolean anyRa = false;
    for (int t = 1; t <= n && !anyRa; t++) {
      anyRa = level[t] == Level.RA;
    }
    if (!anyRa) {
      return null; // only RA readers have session predecessors in their premise
    }
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
      // key -> the earlier transactions of the session that wrote it, by their depth-first number
      final Map<String, java.util.TreeMap<Integer, Integer>> written = new HashMap<>();
      for (int t3 = head; t3 != 0; t3 = soNext[t3]) {
        if (level[t3] == Level.RA) {
          for (final Read r : g.reads[t3]) {
            final java.util.TreeMap<Integer, Integer> ws = written.get(r.key());
            final int t2 = ws == null ? 0 : laterIn(ws, r.writer(), r.key());
            if (t2 != 0) {
              return axiomCycle(r, t2, sessionPath(t2, t3));
            }
          }
        }
        for (final String k : g.writtenKeys(t3)) {
          written.computeIfAbsent(k, x -> new java.util.TreeMap<>()).put(wIn[t3][indexOf(t3, keyIds.get(k))], t3);
        }
      }
    }
    return null;
  }

  /** One of {@code ws} (writers by depth-first number) that follows {@code t1} in the key's order, or 0. */
  private int laterIn(final java.util.TreeMap<Integer, Integer> ws, final int t1, final String key) {
    final int from = t1 == INIT ? 0 : wIn[t1][indexOf(t1, keyIds.get(key))];
    final int to = t1 == INIT ? Integer.MAX_VALUE : wOut[t1][indexOf(t1, keyIds.get(key))];
    final Map.Entry<Integer, Integer> e = ws.higherEntry(from);
    return e != null && e.getKey() <= to ? e.getValue() : 0;
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

  /** The WR facts from {@code from} down the key's tree to {@code to} (the initial transaction: one INIT fact). */
  private List<MixedStep> chainPath(final int from, final int to, final String key) {
    if (from == INIT) {
      return List.of(MixedStep.fact(INIT, to, Rule.INIT, null, null));
    }
    final int k = keyIds.get(key);
    final List<MixedStep> path = new ArrayList<>();
    for (int t = to; t != from; ) {
      final int parent = wPrev[t][indexOf(t, k)];
      path.add(0, MixedStep.fact(parent, t, Rule.WR, key, g.lastWrite(parent, key)));
      t = parent;
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
        for (final int nx : next(rs.get(i).writer(), rs.get(i).key())) {
          if (nx == t3) {
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
    if (forked) {
      siblingArcs();
    }
  }

  /**
   * SI's Conflict axiom after a fork: an SI reader t3 that read key y from w and writes y precedes
   * every other writer c that read the same version (had c committed before t3, the axiom with c as
   * both t2 and t4 would order c before w, which c read from).
   */
  private void siblingArcs() {
    for (int t3 = 1; t3 <= n; t3++) {
      if (level[t3] != Level.SI) {
        continue;
      }
      for (int i = 0; i < wKey[t3].length; i++) {
        final int k = wKey[t3][i];
        final int w = wPrev[t3][i];
        final int first = w == INIT ? firstWriter[k] : wChild[w][indexOf(w, k)];
        final int read = readIndex(t3, w, k);
        for (int c = first; c != 0; c = wSibling[c][indexOf(c, k)]) {
          if (c != t3) {
            arc(t3, c, SI_SIBLING, t3, read);
          }
        }
      }
    }
  }

  /** The index, among {@code t}'s reads, of its read of key {@code k} from {@code w}. */
  private int readIndex(final int t, final int w, final int k) {
    final List<Read> rs = g.reads[t];
    for (int i = 0; i < rs.size(); i++) {
      final Integer key = keyIds.get(rs.get(i).key());
      if (rs.get(i).writer() == w && key != null && key == k) {
        return i;
      }
    }
    throw new IllegalStateException("no read of key " + k + " from " + w + " in " + t);
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
      case SI_SIBLING -> new MixedStep(aFrom[a], aTo[a], Rule.CONFLICT_AFTER, r.key(), r.value(), reader, r.writer(),
          aTo[a], null);
      default -> new MixedStep(aFrom[a], aTo[a], Rule.PREDECESSOR_FIRST, r.key(), r.value(), reader, r.writer(),
          aFrom[a], null);
    };
  }

  /**
   * CC: the next writer after the one read must not precede the reader in (SO ∪ WR)+, by vector
   * clocks over sessions in a topological order; {@link #UNDECIDED} when they are too large.
   */
  private List<MixedStep> causalChecks(final int[] order) {
    boolean any = false;
    for (int t = 1; t <= n && !any; t++) {
      any = level[t] == Level.CC;
    }
    if (!any) {
      return null;
    }
    final SessionClocks clocks = SessionClocks.of(g, n, order);
    if (clocks == null) {
      return UNDECIDED;
    }
    for (final int t : order) {
      if (level[t] == Level.CC) {
        for (final Read r : g.reads[t]) {
          for (final int nx : next(r.writer(), r.key())) {
            if (nx != t && clocks.clock[t][clocks.session[nx]] >= clocks.rank[nx]) {
              return axiomCycle(r, nx, causalPath(nx, t));
            }
          }
        }
      }
    }
    return null;
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
