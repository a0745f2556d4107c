package io.isowatch.core.solve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.History;
import io.isowatch.core.testkit.HistoryDsl;
import org.junit.jupiter.api.Test;

/**
 * Issue 14, item 3: {@link KeyOrders} lays a candidate's order down with the pairs {@link Pruning}
 * forced kept in their forced order, also when the solver's choice of the open pairs is
 * intransitive (then the key's three-cycles of choices are reported for the search to block). A forced pair taken
 * the wrong way there would add an edge no acyclic version order has, and could only make the
 * search find cycles that are not there; no property test reached that path with a deliberate
 * bug, so it is tested here directly.
 */
class KeyOrdersTest {

  @Test
  void shouldKeepForcedPairsInTheirForcedOrderWhenTheCandidateIsIntransitive() {
    // Given: three blind writers of x; T1 precedes T2 in session a, so pruning forces T1's version
    // before T2's; the pairs with T3 are open
    final History h = HistoryDsl.history("""
        T1 a w(x,1)
        T2 a w(x,2)
        T3 b w(x,3)
        """);
    final VersionOrderProblem p = VersionOrderProblem.build(h, 0L, 0L, false).problem();
    assertNotNull(p);
    final Pruning pruning = new Pruning(p, false);
    assertEquals(Pruning.Status.PRUNED, pruning.prune(System.nanoTime() + 10_000_000_000L));
    final KeyOrders keys = new KeyOrders(p, pruning);
    assertEquals(2, keys.open, "the two pairs with T3 are open, T1/T2 forced");
    final int t1 = p.txns.indexOf(h.transactions().get(0));
    final int t2 = p.txns.indexOf(h.transactions().get(1));

    // When: every assignment of the open pairs, one of which makes a cycle of choices (intransitive)
    int intransitive = 0;
    for (int bits = 0; bits < 4; bits++) {
      final boolean[] model = {false, (bits & 1) != 0, (bits & 2) != 0};
      final EdgeList out = new EdgeList();
      keys.addCandidate(out, model);

      // Then: T1's version before T2's, never the other way
      int ww = 0;
      for (int e = 0; e < out.size; e++) {
        if (out.kindOf(e) == EdgeKind.WW) {
          ww++;
          final int from = out.from[e];
          final int to = out.to[e];
          final int mask = bits;
          assertTrue(!(from == t2 && to == t1), () -> "model " + mask + ": the forced pair T1 < T2 taken the wrong way");
        }
      }
      // An intransitive candidate lays no edges for the key and reports its three-cycle of choices,
      // whose steps keep the forced pair's order
      final IntList t = keys.triangles;
      if (t.size() > 0) {
        intransitive++;
        assertEquals(0, ww, "an intransitive key gets no edges");
        final int[] chains = p.openChains.get(t.get(0));
        for (int j = 0; j < 3; j++) {
          final int from = p.chainFirst.get(chains[t.get(1 + j)]);
          final int to = p.chainFirst.get(chains[t.get(1 + (j + 1) % 3)]);
          final int mask = bits;
          assertTrue(!(from == t2 && to == t1), () -> "model " + mask + ": the forced pair T1 < T2 taken the wrong way "
              + "in a three-cycle of choices");
        }
      }
    }
    assertTrue(intransitive > 0, "no assignment reached the intransitive path");
  }
}
