package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.gen.ListAppendHistoryGenerator;
import io.isowatch.core.gen.SimulatedLevel;
import io.isowatch.core.history.History;
import io.isowatch.core.oracle.ListAppendHistories;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The open-order translation given what the lists' graph found ({@link RegisterTranslation.OpenAppends}:
 * the counts of unobserved appends and the committed transactions touching an open key) is the
 * translation it builds by itself: the same transactions with the same ops, the same stand-in keys
 * and open keys (lafast5; the engine's results on both are compared by {@code ListAppendFastPathTest},
 * which does not see every op of it).
 */
class OpenAppendsHandoffTest {

  private static boolean assertSameTranslation(final History h, final String what) {
    final ListOrders orders = ListOrders.of(h);
    final ListSerialGraph.Outcome graph = ListSerialGraph.acyclic(h, orders, false, 0);
    if (graph == null) {
      return false;
    }
    final RegisterTranslation.Translated alone = RegisterTranslation.openOrdersOnlyTouching(h, orders);
    final RegisterTranslation.Translated handed = RegisterTranslation.openOrdersOnlyTouching(h, orders, graph.open());
    assertEquals(alone.history(), handed.history(), what);
    assertEquals(alone.phantoms(), handed.phantoms(), what);
    assertEquals(alone.openKeys(), handed.openKeys(), what);
    return !alone.openKeys().isEmpty();
  }

  @Test
  void shouldTranslateAsWithoutTheGraphOnGeneratedHistoriesWithOpenOrders() {
    int open = 0;
    for (final SimulatedLevel db : SimulatedLevel.values()) {
      for (final int keys : new int[] {3, 10, 50}) {
        final History h = ListAppendHistoryGenerator.generateWithSummary(
            new ListAppendHistoryGenerator.Config(11, 2000, 10, keys, 4, 0.5, 6, db)).history();
        open += assertSameTranslation(h, db + " " + keys + " keys") ? 1 : 0;
      }
    }
    assertTrue(open >= 3, open + " histories with open orders within the lists' graph");
  }

  @Test
  void shouldTranslateAsWithoutTheGraphOnSmallRandomHistories() {
    final Random random = new Random(Long.getLong("seed", 9));
    int open = 0;
    for (int n = 0; n < 3000; n++) {
      open += assertSameTranslation(ListAppendHistories.random(random), "history " + n) ? 1 : 0;
    }
    assertTrue(open > 30, open + " histories with open orders within the lists' graph");
  }
}
