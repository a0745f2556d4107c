package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.online.WholeHistoryCheck;
import io.isowatch.core.oracle.ListAppendHistories;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The keys and sessions {@link ListOrders} numbers once per check (la500k), and the appends'
 * places it looks up once: each agrees with what the string lookups it replaces give.
 */
class ListOrdersNumberingTest {

  /** Random histories of the oracle tests, each also with its sessions' runs interleaved differently. */
  private static List<History> histories(final int count) {
    final Random random = new Random(Long.getLong("seed", 5));
    final List<History> out = new ArrayList<>();
    for (int n = 0; n < count; n++) {
      out.add(ListAppendHistories.random(random));
    }
    return out;
  }

  @Test
  void shouldGiveEveryOpTheSlotOfItsKeyNumberedInOrderOfFirstUse() {
    for (final History h : histories(3000)) {
      // Given
      final ListOrders orders = ListOrders.of(h);
      final Map<String, Integer> model = new HashMap<>();
      final List<Transaction> txns = h.transactions();
      // When / Then
      for (int i = 0; i < txns.size(); i++) {
        final List<Op> ops = txns.get(i).ops();
        for (int o = 0; o < ops.size(); o++) {
          final String key = ops.get(o).key();
          model.putIfAbsent(key, model.size());
          final ListOrders.Slot slot = orders.slot(i, o);
          assertEquals(key, slot.key);
          assertEquals(model.get(key), slot.id);
          assertSame(slot, orders.slotOf(key));
        }
      }
      assertEquals(model.size(), orders.slotCount());
      assertEquals(model.keySet(), orders.historyKeys());
    }
  }

  @Test
  void shouldKeepTheSlotsOrderInStepWithTheOrdersMap() {
    for (final History h : histories(500)) {
      // Given
      final ListOrders orders = ListOrders.of(h);
      final Set<String> keys = new HashSet<>(orders.historyKeys());
      // When: every key's order asked by name (adding an empty one for a key no read saw)
      for (final String key : keys) {
        final ListOrders.KeyOrder byName = orders.of(key);
        // Then: the slot finds the same order, as peek does by name
        assertSame(byName, orders.peek(orders.slotOf(key)));
        assertSame(byName, orders.of(orders.slotOf(key)));
        assertSame(orders.peek(key), orders.peek(orders.slotOf(key)));
      }
    }
  }

  @Test
  void shouldLookUpEveryAppendsPlaceAsItsKeysOrderGivesIt() {
    int appends = 0;
    int placed = 0;
    for (final History h : histories(3000)) {
      // Given
      final ListOrders orders = ListOrders.of(h);
      final List<Transaction> txns = h.transactions();
      for (int i = 0; i < txns.size(); i++) {
        final List<Op> ops = txns.get(i).ops();
        for (int o = 0; o < ops.size(); o++) {
          final Op op = ops.get(o);
          // When / Then
          final int expected = op.isAppend() ? orders.of(op.key()).position(op.value()) : -1;
          assertEquals(expected, orders.position(i, o), op + " of " + txns.get(i).id());
          appends += op.isAppend() ? 1 : 0;
          placed += expected >= 0 ? 1 : 0;
        }
      }
    }
    assertTrue(appends > 1000 && placed > 500 && placed < appends, appends + " appends, " + placed + " placed");
  }

  @Test
  void shouldNumberSessionsInOrderOfFirstAppearance() {
    for (final History h : histories(3000)) {
      // Given
      final ListOrders orders = ListOrders.of(h);
      final Map<String, Integer> model = new HashMap<>();
      final List<Transaction> txns = h.transactions();
      // When / Then
      for (int i = 0; i < txns.size(); i++) {
        model.putIfAbsent(txns.get(i).session(), model.size());
        assertEquals(model.get(txns.get(i).session()), orders.sessionOf()[i]);
      }
      assertEquals(model.size(), orders.sessionCount());
    }
  }

  @Test
  void shouldFindUntrustedClocksWithTheNumberedSessionsAsWithout() {
    final Random random = new Random(Long.getLong("seed", 7));
    int untrusted = 0;
    for (final History h : histories(2000)) {
      // Given: some histories with one session's clock pushed far ahead
      final List<Transaction> txns = new ArrayList<>();
      final String ahead = random.nextBoolean() ? "s" + random.nextInt(4) : null;
      for (final Transaction t : h.transactions()) {
        final long shift = t.session().equals(ahead) && t.end() != Transaction.NO_TIME ? 1_000_000_000_000L : 0;
        txns.add(new Transaction(t.id(), t.session(), t.seq(), t.status(), t.start() + shift,
            t.end() == Transaction.NO_TIME ? t.end() : t.end() + shift, t.ops(), t.tenant(), t.level(), t.line()));
      }
      final ListOrders orders = ListOrders.of(new History(txns));
      // When
      final boolean numbered = WholeHistoryCheck.hasUntrustedClocks(txns, orders.sessionOf(), orders.sessionCount());
      // Then
      assertEquals(WholeHistoryCheck.hasUntrustedClocks(txns), numbered);
      untrusted += numbered ? 1 : 0;
    }
    assertTrue(untrusted > 100, untrusted + " histories with an untrusted clock");
  }
}
