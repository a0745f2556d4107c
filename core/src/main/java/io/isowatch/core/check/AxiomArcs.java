package io.isowatch.core.check;

import io.isowatch.core.check.WeakGraph.Arc;
import io.isowatch.core.check.WeakGraph.Read;
import io.isowatch.core.check.WeakGraph.Why;
import io.isowatch.core.history.Op;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The arcs the Biswas-Enea axioms of RC, RA and CC derive (docs/levels.md): for each read of
 * {@code x} from t1 by t, and each other writer t2 of x that t saw as the axiom counts seeing, t2
 * commits before t1 (an arc of kind RW from t to t2 in the reported cycle, "t read a version of x
 * older than t2's"). None of them depends on the commit order, so saturation decides the levels.
 *
 * <p>Costs (docs/benchmarks.md, "Weak levels"): RC and RA are linear in the operations; CC is
 * O((n + arcs + reads · log) · sessions) time and n · sessions ints of memory, by vector clocks
 * over the sessions, as AWDIT (PLDI 2025) does. The path that explains a derived arc is built
 * only when a counterexample is explained.
 */
final class AxiomArcs {
  private final WeakGraph g;
  private final List<Arc> base;
  private final long clockCells;
  /** For RA: computed once, on first use. */
  private SessionWriters sessionWriters;
  /** For CC: computed once, on first use. */
  private CausalPast causal;

  AxiomArcs(final WeakGraph g, final List<Arc> base) {
    this(g, base, WeakLevelCheck.CLOCK_CELLS);
  }

  /** As above, with CC's vector clocks bounded by {@code clockCells} ints (a chunk of sessions at a time). */
  AxiomArcs(final WeakGraph g, final List<Arc> base, final long clockCells) {
    this.g = g;
    this.base = base;
    this.clockCells = clockCells;
  }

  /** A writer {@code from} the reader saw, and (built on demand) the path by which it saw it. */
  private record Seen(int from, Supplier<List<Arc>> path) {}

  /** The base arcs and the arcs {@code level}'s axiom derives from every read. */
  List<Arc> withDerived(final Level level) {
    final List<Arc> arcs = new ArrayList<>(base);
    for (int t = 1; t <= g.n; t++) {
      derive(t, level, arcs);
    }
    return arcs;
  }

  /** Adds to {@code arcs} what {@code level}'s axiom (RC, RA or CC) derives from the reads of node {@code t}. */
  void derive(final int t, final Level level, final List<Arc> arcs) {
    final List<Read> rs = g.reads[t];
    for (int i = 0; i < rs.size(); i++) {
      final Read r = rs.get(i);
      final List<Seen> via = new ArrayList<>(2);
      if (level == Level.RC) {
        for (int j = 0; j < i; j++) {
          addIfWrites(via, rs.get(j), r);
        }
      } else if (level == Level.RA) {
        for (final Read other : rs) {
          addIfWrites(via, other, r);
        }
        // The nearest writer of the key before t in its session: earlier ones precede it in SO.
        final int p = sessionWriters().before(t, i);
        if (p > 0 && p != r.writer()) {
          final int reader = t;
          via.add(new Seen(p, () -> soPath(p, reader)));
        }
      } else {
        final int reader = t;
        for (final int w : causalPast().latestWritersBefore(t, i, r.writer(), r.key())) {
          arcs.add(new Arc(w, r.writer(), EdgeKind.RW, r.key(), r.value(), new Why(r, () -> causalPath(w, reader))));
        }
      }
      for (final Seen s : via) {
        arcs.add(new Arc(s.from(), r.writer(), EdgeKind.RW, r.key(), r.value(), new Why(r, s.path())));
      }
    }
  }

  private void addIfWrites(final List<Seen> via, final Read other, final Read r) {
    final int t2 = other.writer();
    if (t2 > 0 && t2 != r.writer() && g.writes(t2, r.key())) {
      final List<Arc> path = List.of(wr(other));
      via.add(new Seen(t2, () -> path));
    }
  }

  private static Arc wr(final Read r) {
    return new Arc(r.writer(), r.reader(), EdgeKind.WR, r.key(), r.value(), null);
  }

  private List<Arc> soPath(final int from, final int to) {
    final List<Arc> path = new ArrayList<>();
    for (int t = to; t != from; t = g.soPred[t]) {
      path.add(new Arc(g.soPred[t], t, EdgeKind.SO, null, null, null));
    }
    Collections.reverse(path);
    return path;
  }

  /**
   * A shortest path from {@code w} to {@code t} in SO ∪ WR (w precedes t there): a breadth-first
   * search backwards from t, run only to explain a counterexample.
   */
  private List<Arc> causalPath(final int w, final int t) {
    final List<List<Arc>> in = new ArrayList<>(g.n + 1);
    for (int i = 0; i <= g.n; i++) {
      in.add(new ArrayList<>(2));
    }
    for (final Arc a : base) {
      in.get(a.to()).add(a);
    }
    final Arc[] next = new Arc[g.n + 1];
    final boolean[] seen = new boolean[g.n + 1];
    final ArrayDeque<Integer> queue = new ArrayDeque<>();
    queue.add(t);
    seen[t] = true;
    while (!queue.isEmpty() && !seen[w]) {
      final int v = queue.poll();
      for (final Arc a : in.get(v)) {
        if (!seen[a.from()]) {
          seen[a.from()] = true;
          next[a.from()] = a;
          queue.add(a.from());
        }
      }
    }
    final List<Arc> path = new ArrayList<>();
    for (int v = w; v != t; v = next[v].to()) {
      path.add(next[v]);
    }
    return path;
  }

  private SessionWriters sessionWriters() {
    if (sessionWriters == null) {
      sessionWriters = new SessionWriters(g);
    }
    return sessionWriters;
  }

  private CausalPast causalPast() {
    if (causal == null) {
      causal = new CausalPast(g, base, clockCells);
    }
    return causal;
  }

  /** For each read of each node, the nearest node before it in its session that writes the key read (0: none). */
  private static final class SessionWriters {
    private final int[][] before;

    SessionWriters(final WeakGraph g) {
      before = new int[g.n + 1][];
      final Sessions s = new Sessions(g);
      for (final int[] members : s.members) {
        final Map<String, Integer> last = new HashMap<>();
        for (final int t : members) {
          final List<Read> rs = g.reads[t];
          final int[] mine = new int[rs.size()];
          for (int i = 0; i < rs.size(); i++) {
            mine[i] = last.getOrDefault(rs.get(i).key(), 0);
          }
          before[t] = mine;
          for (final Op op : g.txn(t).ops()) {
            if (op.isWrite()) {
              last.put(op.key(), t);
            }
          }
        }
      }
    }

    int before(final int t, final int read) {
      return before[t][read];
    }
  }

  /** The sessions of the nodes (chains of {@code soPred}), each in session order, and each node's place. */
  private static final class Sessions {
    final List<int[]> members = new ArrayList<>();
    final int[] session;
    final int[] position;

    Sessions(final WeakGraph g) {
      final int[] soSucc = new int[g.n + 1];
      for (int t = 1; t <= g.n; t++) {
        if (g.soPred[t] > 0) {
          soSucc[g.soPred[t]] = t;
        }
      }
      session = new int[g.n + 1];
      position = new int[g.n + 1];
      for (int head = 1; head <= g.n; head++) {
        if (g.soPred[head] != 0) {
          continue;
        }
        int len = 0;
        for (int t = head; t > 0; t = soSucc[t]) {
          len++;
        }
        final int[] chain = new int[len];
        int k = 0;
        for (int t = head; t > 0; t = soSucc[t]) {
          session[t] = members.size();
          position[t] = k;
          chain[k++] = t;
        }
        members.add(chain);
      }
    }
  }

  /**
   * CC's premise: which writers of a key precede a node in (SO ∪ WR)+. A vector clock per node
   * holds, per session, the last position of that session preceding it; the writers of x that
   * precede t are then, per session, those of x at or before that position. Of these, only the
   * last one per session yields an arc: the others precede it in SO, so their arcs are implied
   * (t2' SO t2'' → t1 in every commit order), and the union stays acyclic exactly when the full
   * set of the axiom's arcs does. SO ∪ WR is acyclic here.
   */
  private static final class CausalPast {
    private final Sessions sessions;
    /** How many sessions' clocks are held at a time (all, unless that would exceed the bound). */
    private final int width;
    /** The first session of the chunk whose clocks are held. */
    private int lo;
    /** clock[t * width + s - lo]: the last position in session s preceding node t, or -1. */
    private final int[] clock;
    /** When the sessions are chunked: each read's arcs ([node][read]), else null. */
    private final int[][][] chunked;
    /** Per session, per key, the positions of its writers in session order. */
    private final List<Map<String, int[]>> writers = new ArrayList<>();

    CausalPast(final WeakGraph g, final List<Arc> base, final long clockCells) {
      sessions = new Sessions(g);
      final int count = sessions.members.size();
      final int[] inStart = new int[g.n + 2];
      for (final Arc a : base) {
        if (a.from() != WeakGraph.INIT) {
          inStart[a.to() + 1]++;
        }
      }
      for (int i = 0; i <= g.n; i++) {
        inStart[i + 1] += inStart[i];
      }
      final int[] fill = Arrays.copyOf(inStart, g.n + 1);
      final int[] inFrom = new int[inStart[g.n + 1]];
      for (final Arc a : base) {
        if (a.from() != WeakGraph.INIT) {
          inFrom[fill[a.to()]++] = a.from();
        }
      }
      final int[] topological = ArcCycles.topological(base, g.n);
      for (final int[] chain : sessions.members) {
        final Map<String, List<Integer>> lists = new HashMap<>();
        for (int k = 0; k < chain.length; k++) {
          for (final String key : g.writtenKeys(chain[k])) {
            lists.computeIfAbsent(key, x -> new ArrayList<>(4)).add(k);
          }
        }
        final Map<String, int[]> byKey = new HashMap<>(lists.size() * 2);
        lists.forEach((key, ps) -> byKey.put(key, ps.stream().mapToInt(Integer::intValue).toArray()));
        writers.add(byKey);
      }
      width = WeakDecision.clockWidth(count, g.n, clockCells);
      lo = 0;
      clock = new int[Math.max(1, (g.n + 1) * width)];
      if (width == count) {
        fillClocks(topological, inStart, inFrom);
        chunked = null;
      } else {
        // Too many sessions for one clock per session and node (it would not fit): a chunk of
        // sessions at a time, each read's arcs collected as it goes; without the pruning between
        // sessions of different chunks, which only drops implied arcs.
        chunked = new int[g.n + 1][][];
        for (int t = 1; t <= g.n; t++) {
          chunked[t] = new int[g.reads[t].size()][];
          Arrays.fill(chunked[t], new int[0]);
        }
        for (lo = 0; lo < count; lo += width) {
          fillClocks(topological, inStart, inFrom);
          for (int t = 1; t <= g.n; t++) {
            for (int i = 0; i < g.reads[t].size(); i++) {
              final Read r = g.reads[t].get(i);
              final int[] more = candidates(t, r.writer(), r.key());
              if (more.length > 0) {
                final int[] all = Arrays.copyOf(chunked[t][i], chunked[t][i].length + more.length);
                System.arraycopy(more, 0, all, chunked[t][i].length, more.length);
                chunked[t][i] = all;
              }
            }
          }
        }
      }
    }

    /** The clocks of sessions lo .. lo + width - 1, in one pass in topological order. */
    private void fillClocks(final int[] topological, final int[] inStart, final int[] inFrom) {
      Arrays.fill(clock, -1);
      final int hi = Math.min(sessions.members.size(), lo + width);
      for (final int t : topological) {
        final int row = t * width;
        for (int k = inStart[t]; k < inStart[t + 1]; k++) {
          final int p = inFrom[k];
          final int prow = p * width;
          for (int s = 0; s < width; s++) {
            if (clock[prow + s] > clock[row + s]) {
              clock[row + s] = clock[prow + s];
            }
          }
          final int ps = sessions.session[p];
          if (ps >= lo && ps < hi && sessions.position[p] > clock[row + ps - lo]) {
            clock[row + ps - lo] = sessions.position[p];
          }
        }
      }
    }

    /**
     * The writers of {@code key} that precede {@code t} and whose arc to {@code t1} (t's writer of
     * the key) no other arc implies: per session the last such writer, unless it precedes t1 in
     * SO ∪ WR (a path of base arcs implies it) or another one of them follows it (its arc to t1
     * implies this one). On a valid history most reads so yield no arc at all.
     */
    int[] latestWritersBefore(final int t, final int read, final int t1, final String key) {
      if (chunked != null) {
        return chunked[t][read];
      }
      final int[] found = candidates(t, t1, key);
      final int k = found.length;
      int kept = 0;
      for (int i = 0; i < k; i++) {
        boolean implied = false;
        for (int j = 0; j < k && !implied; j++) {
          implied = j != i && precedes(found[i], found[j]);
        }
        if (!implied) {
          found[kept++] = found[i];
        }
      }
      return Arrays.copyOf(found, kept);
    }

    /**
     * Per session of the current chunk, the last writer of {@code key} that precedes {@code t},
     * unless it is t1 or precedes t1.
     */
    private int[] candidates(final int t, final int t1, final String key) {
      final int row = t * width;
      final int hi = Math.min(sessions.members.size(), lo + width);
      final int[] found = new int[hi - lo];
      int k = 0;
      for (int s = lo; s < hi; s++) {
        final int upTo = clock[row + s - lo];
        if (upTo < 0) {
          continue;
        }
        final int[] ps = writers.get(s).get(key);
        if (ps == null) {
          continue;
        }
        int at = Arrays.binarySearch(ps, upTo);
        if (at < 0) {
          at = -at - 2;
        }
        if (at >= 0) {
          final int w = sessions.members.get(s)[ps[at]];
          if (w != t1 && !precedes(w, t1)) {
            found[k++] = w;
          }
        }
      }
      return Arrays.copyOf(found, k);
    }

    /**
     * Whether node {@code a} precedes node {@code b} in (SO ∪ WR)+ (node 0 precedes none here);
     * a's session must be in the current chunk.
     */
    private boolean precedes(final int a, final int b) {
      return b != WeakGraph.INIT && a != WeakGraph.INIT
          && clock[b * width + sessions.session[a] - lo] >= sessions.position[a];
    }
  }
}
