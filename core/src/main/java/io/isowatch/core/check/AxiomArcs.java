package io.isowatch.core.check;

import io.isowatch.core.check.WeakGraph.Arc;
import io.isowatch.core.check.WeakGraph.Read;
import io.isowatch.core.check.WeakGraph.Why;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The arcs the Biswas-Enea axioms of RC, RA and CC derive (docs/levels.md): for each read of
 * {@code x} from t1 by t, and each other writer t2 of x that t saw as the axiom counts seeing, t2
 * commits before t1 (an arc of kind RW from t to t2 in the reported cycle, "t read a version of x
 * older than t2's"). None of them depends on the commit order, so saturation decides the levels.
 */
final class AxiomArcs {
  private final WeakGraph g;
  private final List<Arc> base;
  /** For CC: computed once, on first use. */
  private List<Map<String, Map<Integer, Arc>>> causal;

  AxiomArcs(final WeakGraph g, final List<Arc> base) {
    this.g = g;
    this.base = base;
  }

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
      final List<Supplier<List<Arc>>> via = new ArrayList<>();
      if (level == Level.RC) {
        for (int j = 0; j < i; j++) {
          addIfWrites(via, rs.get(j).writer(), r, List.of(wr(rs.get(j))));
        }
      } else if (level == Level.RA) {
        for (final Read other : rs) {
          addIfWrites(via, other.writer(), r, List.of(wr(other)));
        }
        for (int p = g.soPred[t]; p > 0; p = g.soPred[p]) {
          if (g.writes(p, r.key())) {
            addIfWrites(via, p, r, soPath(p, t));
            break;
          }
        }
      } else {
        final List<Map<String, Map<Integer, Arc>>> seen = causalWriters();
        final int reader = t;
        for (final int w : seen.get(t).getOrDefault(r.key(), Map.of()).keySet()) {
          if (w != r.writer()) {
            arcs.add(new Arc(w, r.writer(), EdgeKind.RW, r.key(), r.value(),
                new Why(r, () -> causalPath(seen, w, reader, r.key()))));
          }
        }
      }
      for (final Supplier<List<Arc>> path : via) {
        final int t2 = path.get().get(0).from();
        if (t2 != r.writer()) {
          arcs.add(new Arc(t2, r.writer(), EdgeKind.RW, r.key(), r.value(), new Why(r, path)));
        }
      }
    }
  }

  private void addIfWrites(final List<Supplier<List<Arc>>> via, final int t2, final Read r, final List<Arc> path) {
    if (t2 > 0 && t2 != r.writer() && g.writes(t2, r.key())) {
      via.add(() -> path);
    }
  }

  /** The path by which writer {@code w} of {@code key} precedes {@code t} in (SO ∪ WR)+. */
  private static List<Arc> causalPath(final List<Map<String, Map<Integer, Arc>>> seen, final int w, final int t,
      final String key) {
    final List<Arc> path = new ArrayList<>();
    int v = t;
    while (v != w) {
      final Arc a = seen.get(v).get(key).get(w);
      path.add(0, a);
      v = a.from();
    }
    return path;
  }

  private static Arc wr(final Read r) {
    return new Arc(r.writer(), r.reader(), EdgeKind.WR, r.key(), r.value(), null);
  }

  private List<Arc> soPath(final int from, final int to) {
    final List<Arc> path = new ArrayList<>();
    for (int t = to; t != from; t = g.soPred[t]) {
      path.add(0, new Arc(g.soPred[t], t, EdgeKind.SO, null, null, null));
    }
    return path;
  }

  /**
   * For each node t and key x, the writers of x that precede t in (SO ∪ WR)+, each with the last
   * arc of a path from it to t; a writer is dropped when a later writer of x on the same path
   * precedes t (it precedes that one in every commit order, so its arc is implied). SO ∪ WR is
   * acyclic here.
   */
  private List<Map<String, Map<Integer, Arc>>> causalWriters() {
    if (causal != null) {
      return causal;
    }
    final int n = g.n;
    final List<List<Arc>> in = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      in.add(new ArrayList<>());
    }
    for (final Arc a : base) {
      in.get(a.to()).add(a);
    }
    final List<Map<String, Map<Integer, Arc>>> out = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      out.add(null);
    }
    for (final int t : ArcCycles.topological(base, n)) {
      final Map<String, Map<Integer, Arc>> mine = new HashMap<>();
      final Set<Integer> preds = new HashSet<>();
      for (final Arc a : in.get(t)) {
        if (!preds.add(a.from())) {
          continue;
        }
        final int p = a.from();
        final Set<String> pw = g.writtenKeys(p);
        for (final String k : pw) {
          mine.computeIfAbsent(k, x -> new HashMap<>(2)).putIfAbsent(p, a);
        }
        out.get(p).forEach((k, writers) -> {
          if (!pw.contains(k)) {
            final Map<Integer, Arc> m = mine.computeIfAbsent(k, x -> new HashMap<>(2));
            for (final int w : writers.keySet()) {
              m.putIfAbsent(w, a);
            }
          }
        });
      }
      out.set(t, mine);
    }
    causal = out;
    return out;
  }
}
