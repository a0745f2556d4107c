package io.isowatch.core.check;

import io.isowatch.core.check.WeakGraph.Read;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Looks for a commit order of a mixed MT history whose version orders fork (lost updates), once
 * {@link MixedChains} found the forced arcs acyclic. What is open is only, per forked key, how its
 * tree of versions is laid out in one version order V (a linear extension of the tree). For a
 * given V the decision is the chains' one (paper 003, Definition 6, each read at its reader's
 * level): RC, RA, CC readers' premises are fixed, so they are checks against V; SER, PC and SI
 * readers add arcs to the writer right after the one read in V (SER: the reader before it; PC, SI:
 * every direct SO ∪ WR predecessor before it; SI also the writer right before the reader in V of a
 * key it writes); a commit order exists exactly when the checks pass and these arcs with SO, WR and
 * V are acyclic. Only arcs and checks on forked keys depend on V; the chains built the rest.
 *
 * <p>The search: V is read off a topological order of the arcs known so far (ties broken by input
 * position, which real histories give in about commit order). When V fails, each arc or check it
 * relied on names the orders of incomparable writers it took ("a before b in V", literals): a
 * failed check gives one literal, whose opposite is then forced (learned as an arc); a cycle gives
 * a clause, one of whose literals every valid V reverses, so the search splits on them (the i-th
 * case reverses the i-th literal and keeps the ones before it). A case whose arcs close a cycle
 * without literals is refuted. Exhaustive within its budget: a V that passes is a satisfaction;
 * every case refuted means no commit order exists; otherwise the answer is left open, with the
 * reason. CC readers of a forked key are checked with per-session vector clocks of (SO ∪ WR)+
 * (left open when those would be too large).
 */
final class MixedForkSearch {
  private static final int INIT = WeakGraph.INIT;
  /** Candidate version orders tried at most, whatever the time budget. */
  static final int MAX_CANDIDATES = 100_000;
  /** Nested case splits at most (each one a frame of recursion). */
  static final int MAX_DEPTH = 2_000;

  private final MixedChains c;
  private final WeakGraph g;
  private final Level[] level;
  private final int n;
  private final long deadline;
  private final Duration budget;
  private final boolean[] forkedKey;
  /** Per forked key, its writers. */
  private final int[][] writersOf;
  /** Per node and key it writes (parallel to {@link MixedChains#wKey}): its position in V (1-based), for forked keys. */
  private final int[][] vPos;
  /** Per forked key, V: its writers in order. */
  private final int[][] vSeq;
  /**
   * Arcs added by the search (learned and assumed), as a stack; for one learned from a failed check,
   * the reader whose axiom gave it (else -1) and whether its premise is causal (CC).
   */
  private int extra;
  private int[] eFrom = new int[64];
  private int[] eTo = new int[64];
  private int[] eReader = new int[64];
  private boolean[] eCausal = new boolean[64];
  /**
   * Arcs of one candidate V, with up to two literals each (indexes into the literal table, or -1),
   * and the reader whose axiom gave it and the writer it read (-1 for V's own arcs).
   */
  private int vArcs;
  private int[] vFrom = new int[64];
  private int[] vTo = new int[64];
  private int[] vLit1 = new int[64];
  private int[] vLit2 = new int[64];
  private int[] vReader = new int[64];
  private int[] vWriter = new int[64];
  /**
   * Literals of the current candidate: writer a before writer b in V (incomparable in their key's
   * tree); for a failed check's literal, the reader whose axiom it breaks and whether causally.
   */
  private int lits;
  private int[] litA = new int[64];
  private int[] litB = new int[64];
  private int[] litReader = new int[64];
  private boolean[] litCausal = new boolean[64];
  /**
   * The transactions the refutation used (null until a cycle is found): the nodes of every cycle
   * the search met and of what each arc on it relied on (the reads and session order of its
   * reader, the writers it names, a causal path for a CC premise). Their sub-history alone has no
   * commit order ({@link #core}).
   */
  private boolean[] support;
  /** The (from, to) pairs whose causal path is marked already. */
  private final java.util.Set<Long> causalMarked = new java.util.HashSet<>();
  private int candidates;
  private int splits;
  private int depth;
  private String reason;
  private boolean refuted;
  private final int[] soNext;
  /** Per node and read: the read key's id, or -1 for a key nobody writes. */
  private final int[][] readKey;
  private boolean anyRa;
  /** The forced arcs by source (compressed rows), built once. */
  private final int[] forcedStart;
  private final int[] forcedTo;
  /** Each node's position in the current candidate order. */
  private final int[] candidatePos;
  /** For CC readers of forked keys (else null): session and rank of each node, its causal clock, and per forked key and session its writers by rank. */
  private int[] session;
  private int[] rank;
  private int[][] clock;
  private int[][][] bySession;

  MixedForkSearch(final MixedChains chains, final Duration budget) {
    this.c = chains;
    this.g = chains.g;
    this.level = chains.level;
    this.n = chains.n;
    this.budget = budget;
    this.deadline = System.nanoTime() + Math.min(budget.toNanos(), Long.MAX_VALUE / 4);
    final int keys = chains.keyIds.size();
    this.forkedKey = new boolean[keys];
    this.vPos = new int[n + 1][];
    this.vSeq = new int[keys][];
    this.writersOf = new int[keys][];
    this.soNext = new int[n + 1];
    this.readKey = new int[n + 1][];
    this.candidatePos = new int[n + 1];
    this.forcedStart = new int[n + 2];
    for (int a = 0; a < chains.arcs; a++) {
      forcedStart[chains.aFrom[a] + 1]++;
    }
    for (int v = 1; v <= n + 1; v++) {
      forcedStart[v] += forcedStart[v - 1];
    }
    this.forcedTo = new int[chains.arcs];
    final int[] fill = Arrays.copyOf(forcedStart, n + 1);
    for (int a = 0; a < chains.arcs; a++) {
      forcedTo[fill[chains.aFrom[a]]++] = chains.aTo[a];
    }
    for (int t = 1; t <= n; t++) {
      if (g.soPred[t] > 0) {
        soNext[g.soPred[t]] = t;
      }
    }
    markForkedKeys();
  }

  /** Why {@link #run} found no commit order. */
  String reason() {
    return reason;
  }

  /** Whether every order of the branches was refuted: no commit order exists. */
  boolean refuted() {
    return refuted;
  }

  /**
   * After a refutation: the transactions it used, ascending. Every cycle the search met (those it
   * learned from or split on, and those that closed its cases) is made of arcs whose reasons lie
   * among them, so their sub-history ({@link WeakGraph#sub}) is refuted by the same case analysis.
   */
  int[] core() {
    if (!refuted || support == null) {
      return null;
    }
    int count = 0;
    for (int v = 1; v <= n; v++) {
      count += support[v] ? 1 : 0;
    }
    final int[] out = new int[count];
    count = 0;
    for (int v = 1; v <= n; v++) {
      if (support[v]) {
        out[count++] = v;
      }
    }
    return out;
  }

  /** True when a commit order was found; false with {@link #reason} otherwise. */
  boolean run() {
    if (budget.isZero()) {
      reason = "a lost update forks " + forkedCount() + " keys' version orders, and --solver-budget 0 turns the "
          + "search of their order off; no violation is certain";
      return false;
    }
    if (!causalClocks()) {
      reason = "a lost update forks " + forkedCount() + " keys' version orders that CC readers read, and the causal "
          + "clocks their check needs would exceed " + MixedChains.MAX_CLOCK_ENTRIES + " entries; no violation is "
          + "certain";
      return false;
    }
    final Boolean found = explore();
    if (found == Boolean.TRUE) {
      return true;
    }
    refuted = found != null;
    reason = found == null
        ? "a lost update forks " + forkedCount() + " keys' version orders; the search of their order did not settle "
            + "within its budget (" + budget.toMillis() + " ms, " + candidates + " candidate orders, " + splits
            + " case splits; raise --solver-budget); no violation is certain"
        : "a lost update forks " + forkedCount() + " keys' version orders, and each of the " + candidates
            + " orders of their branches tried ends in a cycle (" + splits + " case splits), so no commit order "
            + "exists";
    return false;
  }

  /**
   * For CC readers of forked keys: per-session vector clocks of (SO ∪ WR)+ (CC's premise, fixed
   * whatever V is) and, per forked key and session, its writers by rank. False when the clocks
   * would be too large.
   */
  private boolean causalClocks() {
    boolean any = false;
    for (int t3 = 1; t3 <= n && !any; t3++) {
      if (level[t3] == Level.CC) {
        for (final int k : readKey[t3]) {
          any |= k >= 0 && forkedKey[k];
        }
      }
    }
    if (!any) {
      return true;
    }
    final int[] order = candidateOrder(); // a topological order of SO ∪ WR among others
    final SessionClocks clocks = SessionClocks.of(g, n, order);
    if (clocks == null) {
      return false;
    }
    session = clocks.session;
    rank = clocks.rank;
    clock = clocks.clock;
    final int sessions = clocks.sessions;
    bySession = new int[forkedKey.length][][];
    for (int k = 0; k < forkedKey.length; k++) {
      if (forkedKey[k]) {
        final int[] count = new int[sessions];
        for (final int w : writersOf[k]) {
          count[session[w]]++;
        }
        final int[][] lists = new int[sessions][];
        for (int s2 = 0; s2 < sessions; s2++) {
          lists[s2] = new int[count[s2]];
          count[s2] = 0;
        }
        final int[] ws = writersOf[k].clone();
        java.util.Arrays.sort(ws); // node order is input order; ranks are sorted below per session
        for (final int w : ws) {
          lists[session[w]][count[session[w]]++] = w;
        }
        for (final int[] list : lists) {
          sortByRank(list);
        }
        bySession[k] = lists;
      }
    }
    return true;
  }

  private void sortByRank(final int[] list) {
    final long[] keyed = new long[list.length];
    for (int i = 0; i < list.length; i++) {
      keyed[i] = ((long) rank[list[i]] << 32) | list[i];
    }
    Arrays.sort(keyed);
    for (int i = 0; i < list.length; i++) {
      list[i] = (int) keyed[i];
    }
  }


  /**
   * CC readers of forked keys: every writer of the key in the reader's causal past must precede the
   * writer read; per session, the one V puts last among those is checked (one that V puts after
   * the writer read is a literal whose opposite is forced).
   */
  private void causalChecks(final List<Integer> units) {
    if (clock == null) {
      return;
    }
    for (int t3 = 1; t3 <= n; t3++) {
      if (level[t3] != Level.CC) {
        continue;
      }
      for (int i = 0; i < g.reads[t3].size(); i++) {
        final int k = readKey[t3][i];
        if (k < 0 || !forkedKey[k]) {
          continue;
        }
        final int t1 = g.reads[t3].get(i).writer();
        final int[][] lists = bySession[k];
        for (int s2 = 0; s2 < lists.length; s2++) {
          // the session's writers of k with rank up to the clock (t3 itself left out)
          final int upTo = s2 == session[t3] ? rank[t3] - 1 : clock[t3][s2];
          int latest = 0;
          for (final int w : lists[s2]) {
            if (rank[w] > upTo) {
              break;
            }
            if (latest == 0 || pos(w, k) > pos(latest, k)) {
              latest = w;
            }
          }
          if (latest != 0 && latest != t1 && pos(latest, k) > pos(t1, k)) {
            units.add(literal(t1, latest, t3, true));
          }
        }
      }
    }
  }

  /** TRUE: a commit order found; FALSE: every case refuted; null: out of budget. */
  private Boolean explore() {
    while (true) {
      if (++candidates > MAX_CANDIDATES || System.nanoTime() > deadline) {
        return null;
      }
      final int[] order = candidateOrder();
      if (order == null) {
        lits = 0;
        vArcs = 0;
        cycleClause(); // records the cycle the learned and assumed arcs close with the forced ones
        return Boolean.FALSE;
      }
      layOut(order);
      lits = 0;
      vArcs = 0;
      final List<Integer> units = new ArrayList<>();
      checks(units);
      if (!units.isEmpty()) {
        for (final int l : units) {
          push(litB[l], litA[l], litReader[l], litCausal[l]);
        }
        continue;
      }
      versionArcs();
      if (forward()) {
        return Boolean.TRUE; // the candidate order is a topological order of every arc: a commit order
      }
      final List<Integer> clause = cycleClause();
      if (clause == null) {
        return Boolean.TRUE;
      }
      if (clause.isEmpty()) {
        return Boolean.FALSE;
      }
      if (clause.size() == 1) {
        push(litB[clause.get(0)], litA[clause.get(0)], -1, false);
        continue;
      }
      return split(clause);
    }
  }

  /** Case i reverses literal i and keeps literals 0..i-1: disjoint cases that cover every V. */
  private Boolean split(final List<Integer> clause) {
    splits++;
    if (depth >= MAX_DEPTH) {
      return null;
    }
    depth++;
    try {
      return cases(clause);
    } finally {
      depth--;
    }
  }

  private Boolean cases(final List<Integer> clause) {
    final int[][] l = new int[clause.size()][];
    for (int i = 0; i < l.length; i++) {
      l[i] = new int[] {litA[clause.get(i)], litB[clause.get(i)]};
    }
    final int mark = extra;
    for (int i = 0; i < l.length; i++) {
      extra = mark;
      for (int j = 0; j < i; j++) {
        push(l[j][0], l[j][1], -1, false);
      }
      push(l[i][1], l[i][0], -1, false);
      final Boolean found = explore();
      if (found == null || found) {
        return found;
      }
    }
    extra = mark;
    return Boolean.FALSE;
  }

  private void push(final int from, final int to, final int reader, final boolean causal) {
    if (extra == eFrom.length) {
      eFrom = Arrays.copyOf(eFrom, extra * 2);
      eTo = Arrays.copyOf(eTo, extra * 2);
      eReader = Arrays.copyOf(eReader, extra * 2);
      eCausal = Arrays.copyOf(eCausal, extra * 2);
    }
    eFrom[extra] = from;
    eTo[extra] = to;
    eReader[extra] = reader;
    eCausal[extra] = causal;
    extra++;
  }

  private void markForkedKeys() {
    final int keys = forkedKey.length;
    final int[] count = new int[keys];
    for (int t = 1; t <= n; t++) {
      for (int i = 0; i < c.wKey[t].length; i++) {
        final int k = c.wKey[t][i];
        count[k]++;
        // a fork: this writer's version has two readers that write the key, or the key two roots
        final int child = c.wChild[t][i];
        forkedKey[k] |= child != 0 && c.wSibling[child][c.indexOf(child, k)] != 0;
      }
    }
    for (int k = 0; k < keys; k++) {
      final int root = c.firstWriter[k];
      forkedKey[k] |= root != 0 && c.wSibling[root][c.indexOf(root, k)] != 0;
      writersOf[k] = forkedKey[k] ? new int[count[k]] : null;
      count[k] = 0;
    }
    for (int t = 1; t <= n; t++) {
      for (int i = 0; i < c.wKey[t].length; i++) {
        final int k = c.wKey[t][i];
        if (forkedKey[k]) {
          writersOf[k][count[k]++] = t;
          if (vPos[t] == null) {
            vPos[t] = new int[c.wKey[t].length];
          }
        }
      }
    }
    for (int t = 1; t <= n; t++) {
      final List<Read> rs = g.reads[t];
      readKey[t] = new int[rs.size()];
      for (int i = 0; i < rs.size(); i++) {
        final Integer k = c.keyIds.get(rs.get(i).key());
        readKey[t][i] = k == null ? -1 : k;
        anyRa |= level[t] == Level.RA;
      }
    }
  }

  private int forkedCount() {
    int count = 0;
    for (final boolean f : forkedKey) {
      count += f ? 1 : 0;
    }
    return count;
  }


  /**
   * A topological order of the forced arcs with those the search added, the earliest input first
   * among the free; null when they close a cycle.
   */
  private int[] candidateOrder() {
    final int[] indegree = new int[n + 1];
    for (int a = 0; a < c.arcs; a++) {
      indegree[c.aTo[a]]++;
    }
    final int[][] added = rows(extra, eFrom, eTo, indegree);
    final int[] heap = new int[n];
    int heapSize = 0;
    for (int v = 1; v <= n; v++) {
      if (indegree[v] == 0) {
        heap[heapSize++] = v; // ascending: already a heap
      }
    }
    final int[] order = new int[n];
    int size = 0;
    while (heapSize > 0) {
      final int v = heap[0];
      heap[0] = heap[--heapSize];
      siftDown(heap, heapSize);
      order[size++] = v;
      for (int e = forcedStart[v]; e < forcedStart[v + 1]; e++) {
        if (--indegree[forcedTo[e]] == 0) {
          heapSize = siftUp(heap, heapSize, forcedTo[e]);
        }
      }
      if (added[v] != null) {
        for (final int w : added[v]) {
          if (--indegree[w] == 0) {
            heapSize = siftUp(heap, heapSize, w);
          }
        }
      }
    }
    return size < n ? null : order;
  }

  /** Arcs by source (null rows for none), counting their targets into {@code indegree}. */
  private int[][] rows(final int count, final int[] from, final int[] to, final int[] indegree) {
    final int[][] rows = new int[n + 1][];
    final int[] size = new int[n + 1];
    for (int a = 0; a < count; a++) {
      size[from[a]]++;
      indegree[to[a]]++;
    }
    for (int a = 0; a < count; a++) {
      if (rows[from[a]] == null) {
        rows[from[a]] = new int[size[from[a]]];
        size[from[a]] = 0;
      }
      rows[from[a]][size[from[a]]++] = to[a];
    }
    return rows;
  }

  private static int siftUp(final int[] heap, final int size, final int v) {
    int i = size;
    while (i > 0 && heap[(i - 1) >>> 1] > v) {
      heap[i] = heap[(i - 1) >>> 1];
      i = (i - 1) >>> 1;
    }
    heap[i] = v;
    return size + 1;
  }

  private static void siftDown(final int[] heap, final int size) {
    if (size == 0) {
      return;
    }
    final int v = heap[0];
    int i = 0;
    while (true) {
      int child = 2 * i + 1;
      if (child >= size) {
        break;
      }
      if (child + 1 < size && heap[child + 1] < heap[child]) {
        child++;
      }
      if (heap[child] >= v) {
        break;
      }
      heap[i] = heap[child];
      i = child;
    }
    heap[i] = v;
  }

  private int from(final int a) {
    return a < c.arcs ? c.aFrom[a] : eFrom[a - c.arcs];
  }

  private int to(final int a) {
    return a < c.arcs ? c.aTo[a] : eTo[a - c.arcs];
  }

  /** Whether every arc V added goes forward in the candidate order (which has all the others). */
  private boolean forward() {
    for (int a = 0; a < vArcs; a++) {
      if (candidatePos[vFrom[a]] >= candidatePos[vTo[a]]) {
        return false;
      }
    }
    return true;
  }

  /** V of every forked key: its writers in the order given. */
  private void layOut(final int[] order) {
    final int[] pos = candidatePos;
    for (int i = 0; i < order.length; i++) {
      pos[order[i]] = i;
    }
    for (int k = 0; k < forkedKey.length; k++) {
      if (!forkedKey[k]) {
        continue;
      }
      final int[] ws = writersOf[k];
      final long[] keyed = new long[ws.length];
      for (int i = 0; i < ws.length; i++) {
        keyed[i] = ((long) pos[ws[i]] << 32) | ws[i];
      }
      Arrays.sort(keyed);
      final int[] seq = new int[ws.length];
      for (int i = 0; i < seq.length; i++) {
        seq[i] = (int) keyed[i];
        vPos[seq[i]][c.indexOf(seq[i], k)] = i + 1;
      }
      vSeq[k] = seq;
    }
  }

  /** Position of writer {@code t} in V of forked key {@code k} (0 for the initial transaction). */
  private int pos(final int t, final int k) {
    return t == INIT ? 0 : vPos[t][c.indexOf(t, k)];
  }

  /** The writer right after {@code t} in V of forked key {@code k}, or 0. */
  private int succ(final int t, final int k) {
    final int p = pos(t, k);
    return p < vSeq[k].length ? vSeq[k][p] : 0;
  }

  /** Whether {@code child} read key {@code k} from {@code parent} (its parent in the key's tree). */
  private boolean isChild(final int child, final int parent, final int k) {
    return c.wPrev[child][c.indexOf(child, k)] == parent;
  }

  private int literal(final int a, final int b) {
    return literal(a, b, -1, false);
  }

  /** A literal a before b in V; {@code reader} the one whose check it fails, or -1. */
  private int literal(final int a, final int b, final int reader, final boolean causal) {
    if (lits == litA.length) {
      litA = Arrays.copyOf(litA, lits * 2);
      litB = Arrays.copyOf(litB, lits * 2);
      litReader = Arrays.copyOf(litReader, lits * 2);
      litCausal = Arrays.copyOf(litCausal, lits * 2);
    }
    litA[lits] = a;
    litB[lits] = b;
    litReader[lits] = reader;
    litCausal[lits] = causal;
    return lits++;
  }

  /**
   * RC and RA readers of forked keys: a writer of the key in the premise (an earlier read for RC;
   * any read or an earlier transaction of the session for RA) must precede the writer read. One
   * that V puts after it is a literal whose opposite is forced (the chains already refuted a writer
   * that descends from the one read).
   */
  private void checks(final List<Integer> units) {
    for (int t3 = 1; t3 <= n; t3++) {
      if (level[t3] != Level.RC && level[t3] != Level.RA) {
        continue;
      }
      final List<Read> rs = g.reads[t3];
      for (int i = 0; i < rs.size(); i++) {
        final Read r = rs.get(i);
        final int k = readKey[t3][i];
        if (k < 0 || !forkedKey[k]) {
          continue;
        }
        for (int j = 0; j < (level[t3] == Level.RC ? i : rs.size()); j++) {
          final int w = rs.get(j).writer();
          if (w != INIT && w != t3 && w != r.writer() && c.indexOf(w, k) >= 0 && pos(w, k) > pos(r.writer(), k)) {
            units.add(literal(r.writer(), w, t3, false));
          }
        }
      }
    }
    if (anyRa) {
      sessionChecks(units);
    }
    causalChecks(units);
  }

  private void sessionChecks(final List<Integer> units) {
    for (int head = 1; head <= n; head++) {
      if (g.soPred[head] > 0) {
        continue;
      }
      // forked key -> the writer latest in V among the session's transactions so far
      final Map<Integer, Integer> latest = new HashMap<>();
      for (int t3 = head; t3 != 0; t3 = soNext[t3]) {
        if (level[t3] == Level.RA && !latest.isEmpty()) {
          for (int i = 0; i < g.reads[t3].size(); i++) {
            final Read r = g.reads[t3].get(i);
            final int k = readKey[t3][i];
            final Integer w = k < 0 ? null : latest.get(k);
            if (w != null && w != r.writer() && pos(w, k) > pos(r.writer(), k)) {
              units.add(literal(r.writer(), w, t3, false));
            }
          }
        }
        for (int i = 0; i < c.wKey[t3].length; i++) {
          final int k = c.wKey[t3][i];
          if (forkedKey[k]) {
            latest.merge(k, t3, (a, b) -> pos(a, k) >= pos(b, k) ? a : b);
          }
        }
      }
    }
  }

  /** An arc of V, from the axiom of {@code reader} on its read from {@code writer} (-1 for V's own). */
  private void versionArc(final int from, final int to, final int l1, final int l2, final int reader,
      final int writer) {
    if (vArcs == vFrom.length) {
      final int size = vArcs * 2;
      vFrom = Arrays.copyOf(vFrom, size);
      vTo = Arrays.copyOf(vTo, size);
      vLit1 = Arrays.copyOf(vLit1, size);
      vLit2 = Arrays.copyOf(vLit2, size);
      vReader = Arrays.copyOf(vReader, size);
      vWriter = Arrays.copyOf(vWriter, size);
    }
    vFrom[vArcs] = from;
    vTo[vArcs] = to;
    vLit1[vArcs] = l1;
    vLit2[vArcs] = l2;
    vReader[vArcs] = reader;
    vWriter[vArcs] = writer;
    vArcs++;
  }

  /**
   * The arcs V adds: consecutive writers of a forked key that are not parent and child; for each
   * SER, PC or SI read of a forked key, to the writer after the one read when it is not a child of
   * it (a child's arcs are forced, the chains have them); for an SI reader, from the writer before
   * it in V of a forked key it writes, when that is not the version it read.
   */
  private void versionArcs() {
    for (int k = 0; k < forkedKey.length; k++) {
      if (!forkedKey[k]) {
        continue;
      }
      final int[] seq = vSeq[k];
      for (int i = 1; i < seq.length; i++) {
        if (!isChild(seq[i], seq[i - 1], k)) {
          versionArc(seq[i - 1], seq[i], literal(seq[i - 1], seq[i]), -1, -1, -1);
        }
      }
    }
    for (int t3 = 1; t3 <= n; t3++) {
      final Level l = level[t3];
      if (l != Level.SER && l != Level.PC && l != Level.SI) {
        continue;
      }
      for (int i = 0; i < g.reads[t3].size(); i++) {
        final Read r = g.reads[t3].get(i);
        final int k = readKey[t3][i];
        if (k < 0 || !forkedKey[k] || r.writer() == INIT) {
          continue;
        }
        final int s = succ(r.writer(), k);
        if (s == 0 || s == t3 || isChild(s, r.writer(), k)) {
          continue;
        }
        final int lit = literal(r.writer(), s);
        if (l == Level.SER) {
          versionArc(t3, s, lit, -1, t3, r.writer());
        } else {
          predecessorArcs(t3, r.writer(), s, lit);
        }
      }
      if (l == Level.SI && vPos[t3] != null) {
        conflictArcs(t3);
      }
    }
  }

  private void predecessorArcs(final int t3, final int t1, final int s, final int lit) {
    if (g.soPred[t3] > 0) {
      versionArc(g.soPred[t3], s, lit, -1, t3, t1);
    }
    for (final Read p : g.reads[t3]) {
      if (p.writer() != INIT) {
        versionArc(p.writer(), s, lit, -1, t3, t1);
      }
    }
  }

  /**
   * SI's Conflict axiom: q, the writer right before SI reader t3 in V of a forked key t3 writes,
   * commits before t3, so no writer after the one t3 read of any key may commit no later than q.
   */
  private void conflictArcs(final int t3) {
    for (int i = 0; i < c.wKey[t3].length; i++) {
      final int y = c.wKey[t3][i];
      if (!forkedKey[y]) {
        continue;
      }
      final int p = vPos[t3][i];
      final int q = p > 1 ? vSeq[y][p - 2] : INIT;
      if (q == c.wPrev[t3][i]) {
        continue; // the version read: a direct predecessor, whose arcs the Prefix axiom gave
      }
      final int lq = literal(q, t3);
      for (int j = 0; j < g.reads[t3].size(); j++) {
        final Read r = g.reads[t3].get(j);
        final int k = readKey[t3][j];
        if (k < 0) {
          continue;
        }
        if (forkedKey[k]) {
          final int s = succ(r.writer(), k);
          if (s != 0 && s != t3) {
            versionArc(q, s, lq, isChild(s, r.writer(), k) ? -1 : literal(r.writer(), s), t3, r.writer());
          }
        } else {
          for (int s = r.writer() == INIT ? c.firstWriter[k] : c.wChild[r.writer()][c.indexOf(r.writer(), k)];
              s != 0; s = c.wSibling[s][c.indexOf(s, k)]) {
            if (s != t3) {
              versionArc(q, s, lq, -1, t3, r.writer());
            }
          }
        }
      }
    }
  }

  /**
   * Kahn's order over all arcs (forced, added, V's): null when acyclic; else the literals of one
   * cycle (empty: the cycle holds whatever V is, in this case).
   */
  private List<Integer> cycleClause() {
    final int[] indegree = new int[n + 1];
    for (int a = 0; a < c.arcs; a++) {
      indegree[c.aTo[a]]++;
    }
    final int[][] added = rows(extra, eFrom, eTo, indegree);
    final int[][] byV = rows(vArcs, vFrom, vTo, indegree);
    final int[] queue = new int[n];
    final boolean[] ordered = new boolean[n + 1];
    int size = 0;
    for (int v = 1; v <= n; v++) {
      if (indegree[v] == 0) {
        queue[size++] = v;
      }
    }
    for (int i = 0; i < size; i++) {
      final int v = queue[i];
      ordered[v] = true;
      for (int e = forcedStart[v]; e < forcedStart[v + 1]; e++) {
        if (--indegree[forcedTo[e]] == 0) {
          queue[size++] = forcedTo[e];
        }
      }
      size = release(added[v], indegree, queue, size);
      size = release(byV[v], indegree, queue, size);
    }
    if (size == n) {
      return null;
    }
    // Walk back along arcs between unordered nodes until a node repeats: a cycle.
    final int total = c.arcs + extra + vArcs;
    final int[] inArc = new int[n + 1];
    Arrays.fill(inArc, -1);
    for (int a = 0; a < total; a++) {
      if (!ordered[anyFrom(a)] && !ordered[anyTo(a)] && inArc[anyTo(a)] < 0) {
        inArc[anyTo(a)] = a;
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
      v = anyFrom(inArc[v]);
    }
    final List<Integer> loop = walk.subList(seenAt[v] - 1, walk.size());
    for (final int a : loop) {
      support(a);
    }
    final List<Integer> clause = new ArrayList<>();
    for (final int a : loop) {
      final int va = a - c.arcs - extra;
      if (va >= 0) {
        if (!clause.contains(vLit1[va])) {
          clause.add(vLit1[va]);
        }
        if (vLit2[va] >= 0 && !clause.contains(vLit2[va])) {
          clause.add(vLit2[va]);
        }
      }
    }
    return clause;
  }

  /** Marks what arc {@code a} of a cycle relied on (see {@link #support}). */
  private void support(final int a) {
    if (support == null) {
      support = new boolean[n + 1];
    }
    mark(anyFrom(a));
    mark(anyTo(a));
    if (a < c.arcs) {
      final int t3 = c.aReader[a];
      mark(t3);
      if (c.aKind[a] != MixedChains.SO) {
        mark(g.reads[t3].get(c.aRead[a]).writer());
      }
    } else if (a < c.arcs + extra) {
      final int e = a - c.arcs;
      if (eReader[e] > 0) {
        mark(eReader[e]);
        if (eCausal[e]) {
          markCausalPath(eFrom[e], eReader[e]);
        }
      }
    } else {
      final int va = a - c.arcs - extra;
      mark(vReader[va]);
      mark(vWriter[va]);
      for (final int l : new int[] {vLit1[va], vLit2[va]}) {
        if (l >= 0) {
          mark(litA[l]);
          mark(litB[l]);
        }
      }
    }
  }

  private void mark(final int v) {
    if (v > 0) {
      support[v] = true;
    }
  }

  /** Marks the nodes of a path of SO and WR arcs from {@code from} to {@code to} (a CC premise), by a search backwards. */
  private void markCausalPath(final int from, final int to) {
    if (!causalMarked.add(((long) from << 32) | to)) {
      return;
    }
    final int[] via = new int[n + 1];
    final ArrayDeque<Integer> work = new ArrayDeque<>();
    work.add(to);
    via[to] = to;
    while (!work.isEmpty() && via[from] == 0) {
      final int v = work.poll();
      if (g.soPred[v] > 0 && via[g.soPred[v]] == 0) {
        via[g.soPred[v]] = v;
        work.add(g.soPred[v]);
      }
      for (final Read r : g.reads[v]) {
        if (r.writer() != INIT && via[r.writer()] == 0) {
          via[r.writer()] = v;
          work.add(r.writer());
        }
      }
    }
    for (int v = from; v != to && via[v] != 0; v = via[v]) {
      mark(v);
    }
  }

  /** Kahn's step over one row of arcs: the targets left with no predecessor join the queue. */
  private static int release(final int[] row, final int[] indegree, final int[] queue, final int size) {
    int out = size;
    if (row != null) {
      for (final int w : row) {
        if (--indegree[w] == 0) {
          queue[out++] = w;
        }
      }
    }
    return out;
  }

  private int anyFrom(final int a) {
    return a < c.arcs + extra ? from(a) : vFrom[a - c.arcs - extra];
  }

  private int anyTo(final int a) {
    return a < c.arcs + extra ? to(a) : vTo[a - c.arcs - extra];
  }
}
