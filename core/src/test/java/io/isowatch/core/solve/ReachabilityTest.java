package io.isowatch.core.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.isowatch.core.check.EdgeKind;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Reachability}'s two representations (one number per node and path of a path cover; bit
 * sets) answer exactly what a breadth-first search answers, on random acyclic graphs shaped like a
 * version-order problem: sessions joined by SO, a time line of extra nodes joined by RT, WR/WW/RW
 * edges forward in a hidden order, and edges that are choices (literal ≠ 0), which never count.
 */
class ReachabilityTest {
  @Test
  void shouldAnswerAsBreadthFirstSearchWhenGraphsAreRandom() {
    for (long seed = 1; seed <= 300; seed++) {
      // Given
      final SplittableRandom rnd = new SplittableRandom(seed);
      final int real = 2 + rnd.nextInt(60);
      final int time = rnd.nextInt(10);
      final int nodes = real + time;
      final int sessions = 1 + rnd.nextInt(Math.min(real, 8));
      final EdgeList g = new EdgeList();
      // A hidden topological order: node ids themselves; sessions are interleaved subsequences.
      final int[] lastOfSession = new int[sessions];
      java.util.Arrays.fill(lastOfSession, -1);
      for (int v = 0; v < real; v++) {
        final int s = rnd.nextInt(sessions);
        if (lastOfSession[s] >= 0) {
          g.add(lastOfSession[s], v, EdgeKind.SO, -1, EdgeList.NO_VALUE, 0);
        }
        lastOfSession[s] = v;
      }
      for (int j = 1; j < time; j++) {
        g.add(real + j - 1, real + j, EdgeKind.RT, -1, EdgeList.NO_VALUE, 0);
      }
      final int extra = rnd.nextInt(3 * nodes);
      final EdgeKind[] kinds = {EdgeKind.WR, EdgeKind.WW, EdgeKind.RW, EdgeKind.RT};
      for (int e = 0; e < extra; e++) {
        final int a = rnd.nextInt(nodes);
        final int b = rnd.nextInt(nodes);
        if (rank(a, real) == rank(b, real)) {
          continue;
        }
        final int from = rank(a, real) < rank(b, real) ? a : b;
        final int to = from == a ? b : a;
        final int lit = rnd.nextInt(5) == 0 ? 1 + rnd.nextInt(9) : 0;
        g.add(from, to, kinds[rnd.nextInt(kinds.length)], 0, 1L, lit);
      }
      for (final boolean si : new boolean[] {false, true}) {
        // When
        final Reachability chains = Reachability.of(g, nodes, real, si, Long.MAX_VALUE);
        final Reachability bits = Reachability.of(g, nodes, real, si, Long.MAX_VALUE, 0);

        // Then
        assertNotNull(chains);
        assertNotNull(bits);
        for (int v = 0; v < nodes; v++) {
          final boolean[] expected = bfs(g, nodes, si, v);
          for (int w = 0; w < nodes; w++) {
            final String at = "seed " + seed + " si " + si + " " + v + " -> " + w;
            assertEquals(expected[w], chains.reaches(v, w), at + " (" + chains.describe() + ")");
            assertEquals(expected[w], bits.reaches(v, w), at + " (" + bits.describe() + ")");
          }
        }
      }
    }
  }

  @Test
  void shouldGiveNoReachabilityWhenTheCountedGraphIsCyclic() {
    // Given
    final EdgeList g = new EdgeList();
    g.add(0, 1, EdgeKind.WR, 0, 1L, 0);
    g.add(1, 0, EdgeKind.WW, 0, 1L, 0);

    // When / Then
    assertNull(Reachability.of(g, 2, 2, false, Long.MAX_VALUE));
  }

  /** Time node j sits between real nodes in the hidden order: real ids 0..real-1 map to 2i, time nodes to odd ranks. */
  private static int rank(final int v, final int real) {
    return v < real ? 2 * v : 2 * ((v - real) * real / Math.max(1, 10)) + 1;
  }

  private static boolean[] bfs(final EdgeList g, final int nodes, final boolean si, final int from) {
    final boolean[] seen = new boolean[nodes];
    final ArrayDeque<Integer> queue = new ArrayDeque<>();
    queue.add(from);
    while (!queue.isEmpty()) {
      final int v = queue.poll();
      for (int e = 0; e < g.size; e++) {
        if (g.from[e] == v && g.literal[e] == 0 && (!si || !g.isRw(e)) && !seen[g.to[e]]) {
          seen[g.to[e]] = true;
          queue.add(g.to[e]);
        }
      }
    }
    return seen;
  }
}
