package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ListAppendCheck#uniqueIds} (lafast6): numbered ids told apart by their numbers, any other
 * by a table; either way it says what a set of the ids says.
 */
class UniqueIdsTest {

  private static List<Transaction> txns(final List<String> ids) {
    final List<Transaction> out = new ArrayList<>();
    for (final String id : ids) {
      out.add(new Transaction(id, "s0", Transaction.NO_SEQ, TxnStatus.COMMITTED, 1, 2, List.of(), null, null, 0));
    }
    return out;
  }

  private static boolean modelUnique(final List<String> ids) {
    return new HashSet<>(ids).size() == ids.size();
  }

  @Test
  void shouldTellNumberedIdsApartByTheirNumbers() {
    // Given / When / Then
    assertTrue(ListAppendCheck.uniqueIds(txns(List.of("t0", "t1", "t2", "t10"))));
    assertFalse(ListAppendCheck.uniqueIds(txns(List.of("t0", "t1", "t2", "t1"))));
    assertTrue(ListAppendCheck.uniqueIds(txns(List.of("7", "8", "70"))));
    assertFalse(ListAppendCheck.uniqueIds(txns(List.of("7", "8", "7"))));
  }

  @Test
  void shouldFallBackWhenAnIdIsNotOneOfTheNumberedOnes() {
    // leading zeros, another prefix, no number, a number beyond the bit set's bound
    assertTrue(ListAppendCheck.uniqueIds(txns(List.of("t1", "t01", "t001"))));
    assertFalse(ListAppendCheck.uniqueIds(txns(List.of("t1", "t01", "t01"))));
    assertTrue(ListAppendCheck.uniqueIds(txns(List.of("t1", "u1", "t"))));
    assertFalse(ListAppendCheck.uniqueIds(txns(List.of("t1", "u1", "u1"))));
    assertTrue(ListAppendCheck.uniqueIds(txns(List.of("t1", "t999999999", "t2"))));
    assertFalse(ListAppendCheck.uniqueIds(txns(List.of("t999999999", "t1", "t999999999"))));
    assertTrue(ListAppendCheck.uniqueIds(txns(List.of("a1b2", "a1b3", "a1b", "a12"))));
  }

  @Test
  void shouldAgreeWithASetOnRandomIds() {
    final Random random = new Random(Long.getLong("seed", 3));
    final String[] prefixes = {"t", "t", "t", "", "x-", "t0"};
    for (int n = 0; n < 3000; n++) {
      final List<String> ids = new ArrayList<>();
      final int size = random.nextInt(30);
      for (int i = 0; i < size; i++) {
        final String prefix = random.nextInt(20) == 0 ? prefixes[random.nextInt(prefixes.length)] : "t";
        final String zeros = random.nextInt(30) == 0 ? "0" : "";
        ids.add(prefix + zeros + random.nextInt(2 * size + 1));
      }
      assertEquals(modelUnique(ids), ListAppendCheck.uniqueIds(txns(ids)), ids.toString());
    }
  }
}
