package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Pearce–Kelly dynamic topological order: order maintenance, cycle refusal, affected region. */
class PearceKellyDagTest {
  @Test
  void shouldKeepATopologicalOrderWhenRandomEdgesAreInserted() {
    // Given: random edges over 120 nodes, some closing cycles
    final int n = 120;
    final Random rnd = new Random(7);
    final PearceKellyDag dag = new PearceKellyDag();
    final List<List<Integer>> adj = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      dag.ensureNode(i);
      adj.add(new ArrayList<>());
    }
    final List<int[]> kept = new ArrayList<>();
    int refused = 0;

    // When
    for (int k = 0; k < 1_500; k++) {
      final int u = rnd.nextInt(n);
      final int v = rnd.nextInt(n);
      final int[] expectedPath = shortestPath(adj, v, u);
      final int e = dag.insert(u, v, k, 1);

      // Then: refused exactly when v already reaches u, with a shortest path v ⇝ u
      if (expectedPath == null) {
        assertTrue(e >= 0, () -> u + "->" + v + " refused but " + v + " does not reach " + u);
        adj.get(u).add(v);
        kept.add(new int[] {u, v});
      } else {
        refused++;
        assertEquals(-1, e, u + "->" + v + " inserted although it closes a cycle");
        final int[] path = dag.lastCycle();
        assertEquals(expectedPath.length - 1, path.length, "not a shortest path");
        int at = v;
        for (final int edge : path) {
          assertEquals(at, dag.source(edge));
          at = dag.target(edge);
        }
        assertEquals(u, at, "the path does not end where the refused edge starts");
      }
    }

    // Then: every kept edge goes forward in the order, and ords are a permutation
    for (final int[] edge : kept) {
      assertTrue(dag.ord(edge[0]) < dag.ord(edge[1]), () -> Arrays.toString(edge) + " goes backwards");
    }
    final int[] ords = new int[n];
    for (int i = 0; i < n; i++) {
      ords[i] = dag.ord(i);
    }
    Arrays.sort(ords);
    for (int i = 0; i < n; i++) {
      assertEquals(i, ords[i]);
    }
    assertTrue(refused > 100 && kept.size() > 300, () -> "degenerate sample: " + kept.size() + " kept");
    assertEquals(kept.size(), dag.edgeCount());
  }

  @Test
  void shouldRefuseAnEdgeThatClosesACycleAndLeaveTheGraphUnchanged() {
    // Given: 0 → 1 → 2 → 3
    final PearceKellyDag dag = chain(4);
    final int[] ords = {dag.ord(0), dag.ord(1), dag.ord(2), dag.ord(3)};

    // When
    final int e = dag.insert(3, 0, 99, 1);

    // Then
    assertEquals(-1, e);
    assertEquals(3, dag.edgeCount());
    assertArrayEquals(ords, new int[] {dag.ord(0), dag.ord(1), dag.ord(2), dag.ord(3)});
    final int[] path = dag.lastCycle();
    assertEquals(3, path.length);
    assertEquals(0, dag.source(path[0]));
    assertEquals(3, dag.target(path[2]));
  }

  @Test
  void shouldReorderOnlyTheAffectedRegionWhenAnEdgeGoesBackwards() {
    // Given: a (ord 0), b (ord 1), then a chain of 10,000 nodes after them, and a → the chain
    final PearceKellyDag dag = new PearceKellyDag();
    dag.ensureNode(0);
    dag.ensureNode(1);
    for (int i = 2; i < 10_002; i++) {
      dag.ensureNode(i);
      dag.insert(i == 2 ? 0 : i - 1, i, 0, 1);
    }
    final long before = dag.visitedTotal();

    // When: b → a goes backwards; only nodes with ord between ord(a) and ord(b) may move
    final int e = dag.insert(1, 0, 7, 1);

    // Then: a reaches 10,000 nodes, but none of them lies in the region, so two nodes are visited
    assertTrue(e >= 0);
    assertEquals(2, dag.lastVisited());
    assertEquals(2, dag.visitedTotal() - before);
    assertTrue(dag.ord(1) < dag.ord(0));
    assertTrue(dag.ord(0) < dag.ord(2));
  }

  @Test
  void shouldVisitNothingWhenAnEdgeGoesForward() {
    // Given
    final PearceKellyDag dag = chain(1_000);
    final long before = dag.visitedTotal();

    // When
    final int e = dag.insert(10, 900, 1, 1);

    // Then
    assertTrue(e >= 0);
    assertEquals(before, dag.visitedTotal());
  }

  @Test
  void shouldFindTheCheapestPathWhenSomeEdgesWeighNothing() {
    // Given: v → a → u (weights 1, 1) and v → b1 → b2 → b3 → u (weights 0, 0, 0, 1)
    final PearceKellyDag dag = new PearceKellyDag();
    final int v = 0;
    final int a = 1;
    final int b1 = 2;
    final int b2 = 3;
    final int b3 = 4;
    final int u = 5;
    for (int i = 0; i <= 5; i++) {
      dag.ensureNode(i);
    }
    dag.insert(v, a, 0, 1);
    dag.insert(a, u, 0, 1);
    dag.insert(v, b1, 0, 0);
    dag.insert(b1, b2, 0, 0);
    dag.insert(b2, b3, 0, 0);
    dag.insert(b3, u, 0, 1);

    // When
    final int e = dag.insert(u, v, 0, 1);

    // Then: four edges weighing 1 beat two weighing 2
    assertEquals(-1, e);
    final int[] path = dag.lastCycle();
    assertEquals(4, path.length);
    assertEquals(b1, dag.target(path[0]));
  }

  @Test
  void shouldRestoreTheGraphWhenTheLastEdgeIsRemoved() {
    // Given
    final PearceKellyDag dag = chain(3);
    final int e = dag.insert(0, 2, 5, 1);

    // When
    dag.removeLast(e);

    // Then: 2 → 0 is refused only through the chain (path of two edges)
    assertEquals(2, dag.edgeCount());
    assertEquals(-1, dag.insert(2, 0, 6, 1));
    assertEquals(2, dag.lastCycle().length);
    assertNotEquals(-1, dag.insert(0, 2, 7, 1));
  }

  private static PearceKellyDag chain(final int n) {
    final PearceKellyDag dag = new PearceKellyDag();
    for (int i = 0; i < n; i++) {
      dag.ensureNode(i);
      if (i > 0) {
        dag.insert(i - 1, i, 0, 1);
      }
    }
    return dag;
  }

  /** Nodes of a shortest path from → to (both included), or null; an independent BFS. */
  private static int[] shortestPath(final List<List<Integer>> adj, final int from, final int to) {
    final int[] parent = new int[adj.size()];
    Arrays.fill(parent, -2);
    parent[from] = -1;
    final ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(from));
    while (!queue.isEmpty()) {
      final int x = queue.poll();
      if (x == to) {
        final List<Integer> nodes = new ArrayList<>();
        for (int y = to; y != -1; y = parent[y]) {
          nodes.add(0, y);
        }
        return nodes.stream().mapToInt(Integer::intValue).toArray();
      }
      for (final int y : adj.get(x)) {
        if (parent[y] == -2) {
          parent[y] = x;
          queue.add(y);
        }
      }
    }
    return null;
  }
}
