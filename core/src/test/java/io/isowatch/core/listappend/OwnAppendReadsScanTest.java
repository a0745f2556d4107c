package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link OwnAppendReads#missed} on its own (no engine to name the read first): a small
 * transaction's earlier appends, found by a scan (lafast6), give what a large one's map gives.
 */
class OwnAppendReadsScanTest {

  private static List<Anomaly> missed(final List<Op> ops) {
    final History h = History.builder()
        .add(new Transaction("t0", "s0", Transaction.NO_SEQ, TxnStatus.COMMITTED, 1, 2, ops, null, null, 0)).build();
    return OwnAppendReads.missed(h, ListOrders.of(h), List.of(), EnumSet.of(Level.SER));
  }

  @Test
  void shouldReportAReadThatDoesNotEndWithTheTransactionsOwnAppends() {
    // Given / When / Then: as long as its own appends, but another element
    assertEquals(1, missed(List.of(Op.append("x", 5), Op.readList("x", List.of(7L)))).size());
    // in the wrong order
    assertEquals(1, missed(List.of(Op.append("x", 5), Op.append("x", 6), Op.readList("x", List.of(6L, 5L)))).size());
    // shorter than its own appends
    assertEquals(1, missed(List.of(Op.append("x", 5), Op.append("x", 6), Op.readList("x", List.of(6L)))).size());
    // ending with them, or with none to the key
    assertEquals(0, missed(List.of(Op.append("x", 5), Op.append("x", 6), Op.readList("x", List.of(1L, 5L, 6L)))).size());
    assertEquals(0, missed(List.of(Op.append("y", 5), Op.readList("x", List.of(7L)))).size());
  }

  @Test
  void shouldFindInSmallTransactionsWhatItFindsInLargeOnes() {
    final Random random = new Random(Long.getLong("seed", 5));
    for (int n = 0; n < 2000; n++) {
      final List<Op> ops = new ArrayList<>();
      final int size = 1 + random.nextInt(6);
      for (int i = 0; i < size; i++) {
        final String key = random.nextBoolean() ? "x" : "y";
        if (random.nextBoolean()) {
          ops.add(Op.append(key, random.nextInt(4)));
        } else {
          final List<Long> list = new ArrayList<>();
          for (int e = random.nextInt(4); e > 0; e--) {
            list.add((long) random.nextInt(4));
          }
          ops.add(Op.readList(key, list));
        }
      }
      // the same ops after 20 reads of another key: over the scan's bound, found by the map
      final List<Op> padded = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        padded.add(Op.readList("z", List.of()));
      }
      padded.addAll(ops);
      final List<Anomaly> small = missed(ops);
      final List<Anomaly> large = missed(padded);
      assertEquals(large.size(), small.size(), ops.toString());
      for (int i = 0; i < small.size(); i++) {
        assertEquals(large.get(i).read().op() - 20, small.get(i).read().op(), ops.toString());
      }
    }
  }
}
