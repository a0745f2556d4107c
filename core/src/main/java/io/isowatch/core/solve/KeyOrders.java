package io.isowatch.core.solve;

import io.isowatch.core.graph.IntList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The order of each key's chains in a candidate of {@link VersionOrderSearch}: pairs {@link
 * Pruning} forced keep their forced order, the open ones follow the solver's model. Only open
 * pairs are solver variables (issue 14: "encode only the undecided pairs"); a key whose pairs are
 * all forced has one order in every acyclic version order and is laid down once ({@link
 * #addFixed}); a forced pair gets a variable, with a unit clause, only when its edge lies on a
 * blocked cycle, so that a counterexample can show the cycle that forces it.
 *
 * <p>A key's order is read off the scores of its tournament (how many chains each one precedes):
 * the choice is transitive exactly when the scores are all distinct, and then only consecutive
 * chains get edges (the others' edges follow by paths, for SER and SI alike, see {@link
 * VersionOrderProblem}); an intransitive choice gets no edges, and some of its three-cycles of
 * choices are handed to the search to block ({@link #triangles}).
 */
final class KeyOrders {
  private final VersionOrderProblem p;
  private final Pruning pruning;
  /** Per key, per pair: {@link Pruning}'s states, or null when nothing was pruned (every pair open). */
  private final byte[][] state;
  private final IntList fixedKeys = new IntList(16);
  private final IntList openKeys = new IntList(16);
  /** Per open key: the scores its forced pairs give, and its open pairs as (a, b, variable) triples. */
  private final Map<Integer, int[]> baseScore = new HashMap<>();
  private final Map<Integer, int[]> openPairs = new HashMap<>();
  /** Pair id ({@link VersionOrderProblem#literal}'s variable) to solver variable. */
  private final Map<Integer, Integer> varOf = new HashMap<>();
  private int vars;
  /** Open pairs: the solver variables numbered first. */
  final int open;

  KeyOrders(final VersionOrderProblem p, final Pruning pruning) {
    this.p = p;
    this.pruning = pruning;
    this.state = pruning.state;
    for (int k = 0; k < p.openChains.size(); k++) {
      final int h = p.openChains.get(k).length;
      if (h < 2) {
        continue;
      }
      final int[] score = new int[h];
      final IntList pairs = new IntList(4);
      for (int a = 0; a < h; a++) {
        for (int b = a + 1; b < h; b++) {
          final byte st = stateOf(k, h, a, b);
          if (st == Pruning.LOWER_FIRST) {
            score[a]++;
          } else if (st == Pruning.HIGHER_FIRST) {
            score[b]++;
          } else {
            final int v = ++vars;
            varOf.put(pairId(k, a, b), v);
            pairs.add(a);
            pairs.add(b);
            pairs.add(v);
          }
        }
      }
      if (pairs.size() == 0) {
        fixedKeys.add(k);
      } else {
        openKeys.add(k);
      }
      baseScore.put(k, score);
      openPairs.put(k, pairs.toArray());
    }
    open = vars;
  }

  /** Solver variables so far: the open pairs, then the forced pairs met on blocked cycles. */
  int variables() {
    return vars;
  }

  /** Keys whose every pair is forced. */
  int fixedKeys() {
    return fixedKeys.size();
  }

  /** Adds the edges of the keys whose every pair is forced. */
  void addFixed(final EdgeList out) {
    for (int j = 0; j < fixedKeys.size(); j++) {
      final int k = fixedKeys.get(j);
      addOrder(out, k, baseScore.get(k), null);
    }
  }

  /** Three-cycles of choices found per candidate and key at most, and in all. */
  static final int TRIANGLES_PER_KEY = 16;
  static final int TRIANGLES = 256;

  /**
   * The three-cycles of choices of the last {@link #addCandidate}, as (key, a, b, c) listed
   * positions: a before b, b before c and c before a, which no version order has.
   */
  final IntList triangles = new IntList(16);

  /**
   * Adds the edges of the other keys as {@code model} (indexed by solver variable) orders them. A
   * key whose choices are intransitive gets no edges; up to {@link #TRIANGLES_PER_KEY} of its
   * three-cycles of choices go to {@link #triangles} instead, for the caller to block (an order of
   * every pair of a hot key's chains would take quadratic edges, and SI's composed graph more).
   */
  void addCandidate(final EdgeList out, final boolean[] model) {
    triangles.clear();
    for (int j = 0; j < openKeys.size(); j++) {
      final int k = openKeys.get(j);
      final int[] score = baseScore.get(k).clone();
      final int[] pairs = openPairs.get(k);
      for (int i = 0; i < pairs.length; i += 3) {
        // A pair variable is true when the later-listed chain goes first.
        score[model[pairs[i + 2]] ? pairs[i + 1] : pairs[i]]++;
      }
      addOrder(out, k, score, model);
    }
  }

  /**
   * The solver literal of an edge's pair literal on key {@code key}. A forced pair met for the
   * first time gets its variable here, and {@code newForced} is told the forced choice (whose unit
   * clause the caller adds).
   */
  int solverLiteral(final int key, final int pairLit, final Consumer<Pruning.Forced> newForced) {
    final int id = Math.abs(pairLit);
    Integer v = varOf.get(id);
    if (v == null) {
      v = ++vars;
      varOf.put(id, v);
      final int h = p.openChains.get(key).length;
      final int idx = (int) (id - 1 - p.firstVar[key]);
      int a = 0;
      while (Pruning.pairIndex(h, a, h - 1) < idx) {
        a++;
      }
      final int b = idx - Pruning.pairIndex(h, a, a + 1) + a + 1;
      final boolean lowerFirst = stateOf(key, h, a, b) == Pruning.LOWER_FIRST;
      newForced.accept(lowerFirst ? pruning.forced(key, a, b) : pruning.forced(key, b, a));
    }
    return pairLit > 0 ? v : -v;
  }

  /** The solver literal of a pair literal whose pair already has a variable. */
  int solverLiteral(final int pairLit) {
    final int v = varOf.get(Math.abs(pairLit));
    return pairLit > 0 ? v : -v;
  }

  private int pairId(final int k, final int a, final int b) {
    return Math.abs(p.literal(k, a, b));
  }

  private byte stateOf(final int k, final int h, final int a, final int b) {
    return state == null ? Pruning.OPEN : state[k][Pruning.pairIndex(h, a, b)];
  }

  /** Whether the lower-listed chain a goes before b (a &lt; b) in this candidate. */
  private boolean lowerFirst(final int k, final int h, final int a, final int b, final boolean[] model) {
    final byte st = stateOf(k, h, a, b);
    if (st != Pruning.OPEN) {
      return st == Pruning.LOWER_FIRST;
    }
    return !model[varOf.get(pairId(k, a, b))];
  }

  private void addOrder(final EdgeList out, final int k, final int[] score, final boolean[] model) {
    final int[] chains = p.openChains.get(k);
    final int h = chains.length;
    final Integer[] byScore = new Integer[h];
    for (int j = 0; j < h; j++) {
      byScore[j] = j;
    }
    Arrays.sort(byScore, (a, b) -> Integer.compare(score[b], score[a]));
    boolean transitive = true;
    for (int j = 0; j < h && transitive; j++) {
      transitive = score[byScore[j]] == h - 1 - j;
    }
    if (transitive) {
      for (int j = 1; j < h; j++) {
        final int a = byScore[j - 1];
        final int b = byScore[j];
        p.addOrderEdges(out, chains[a], chains[b], p.literal(k, a, b));
      }
      return;
    }
    // Intransitive: an arc u -> v whose tail has no more wins than its head lies on a three-cycle
    // u -> v -> w -> u (v beats at least as many chains as u, u beats v, so v beats some w that u
    // does not beat). Such an arc exists, or ordering by score would agree with every arc.
    int found = 0;
    for (int u = 0; u < h && found < TRIANGLES_PER_KEY && triangles.size() < 4 * TRIANGLES; u++) {
      for (int v = 0; v < h && found < TRIANGLES_PER_KEY; v++) {
        if (u == v || score[u] > score[v] || !before(k, h, u, v, model)) {
          continue;
        }
        for (int w = 0; w < h; w++) {
          if (w != u && w != v && before(k, h, v, w, model) && before(k, h, w, u, model)) {
            triangles.add(k);
            triangles.add(u);
            triangles.add(v);
            triangles.add(w);
            found++;
            break;
          }
        }
      }
    }
  }

  /** Whether listed chain x goes before listed chain y in this candidate. */
  private boolean before(final int k, final int h, final int x, final int y, final boolean[] model) {
    return x < y ? lowerFirst(k, h, x, y, model) : !lowerFirst(k, h, y, x, model);
  }
}
