package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The exact run-sets of retired versions (docs/segmentation.md, "Retired versions"): membership
 * equals a plain set of what was added, in any order; consecutive values take one run; adjacent
 * runs merge; the cap refuses only new runs; a restore refuses runs out of order.
 */
class RetiredRunsTest {
  @Test
  void shouldHoldAKeysCounterValuesAsOneRunWhenTheyRetireInOrder() {
    // Given
    final RetiredRuns r = new RetiredRuns(1_000);

    // When: 3 keys, values 1..100,000 each, interleaved as a generator retires them
    for (long v = 1; v <= 100_000; v++) {
      for (int k = 0; k < 3; k++) {
        assertTrue(r.add(k, v, false));
      }
    }

    // Then
    assertEquals(3, r.runs());
    assertEquals(300_000, r.taken());
    assertEquals(3 * RetiredRuns.BYTES_PER_RUN, r.bytes());
    assertArrayEquals(new long[] {1, 100_000}, r.runsOf(1));
    assertTrue(r.contains(2, 1, false));
    assertTrue(r.contains(2, 100_000, false));
    assertFalse(r.contains(2, 0, false));
    assertFalse(r.contains(2, 100_001, false));
    assertFalse(r.contains(3, 5, false));
  }

  @Test
  void shouldMergeAdjacentRunsWhenAValueBridgesThem() {
    // Given
    final RetiredRuns r = new RetiredRuns(10);
    r.add(0, 10, false);
    r.add(0, 12, false);
    r.add(0, 14, false);
    assertEquals(3, r.runs());

    // When
    r.add(0, 11, false);
    r.add(0, 13, false);
    r.add(0, 9, false);
    r.add(0, 15, false);

    // Then
    assertEquals(1, r.runs());
    assertArrayEquals(new long[] {9, 15}, r.runsOf(0));
  }

  @Test
  void shouldAnswerExactlyAsASetWhenValuesArriveInAnyOrder() {
    // Given
    final Random rnd = new Random(7);
    final RetiredRuns r = new RetiredRuns(Long.MAX_VALUE);
    final Set<Long> added = new HashSet<>();
    final List<Long> values = new ArrayList<>();
    for (long v = 0; v < 6_000; v++) {
      if (rnd.nextInt(10) != 0) {
        values.add(v - 3_000);
      }
    }
    values.add(Long.MAX_VALUE);
    values.add(Long.MIN_VALUE);
    values.add(Long.MAX_VALUE - 1);
    Collections.shuffle(values, rnd);

    // When
    for (final long v : values) {
      assertTrue(r.add(5, v, false));
      added.add(v);
    }

    // Then: membership is the set's, and runs are maximal (none adjacent, none overlapping)
    for (long v = -3_010; v < 3_010; v++) {
      assertEquals(added.contains(v), r.contains(5, v, false), "value " + v);
    }
    assertTrue(r.contains(5, Long.MAX_VALUE, false));
    assertTrue(r.contains(5, Long.MIN_VALUE, false));
    assertFalse(r.contains(5, Long.MIN_VALUE + 1, false));
    final long[] runs = r.runsOf(5);
    for (int i = 2; i < runs.length; i += 2) {
      assertTrue(runs[i] > runs[i - 1] + 1, "runs " + (i / 2 - 1) + " and " + i / 2 + " touch");
    }
    assertEquals(runs.length / 2, r.runs());
  }

  @Test
  void shouldRefuseOnlyNewRunsWhenAtTheCap() {
    // Given: a cap of 2 runs
    final RetiredRuns r = new RetiredRuns(2);
    assertTrue(r.add(0, 1, false));
    assertTrue(r.add(1, 100, false));

    // When / Then: a third run is refused, held nowhere
    assertFalse(r.add(0, 50, false));
    assertFalse(r.contains(0, 50, false));
    // ... but extending, repeating and bridging still work at the cap
    assertTrue(r.add(0, 2, false));
    assertTrue(r.add(0, 1, false));
    assertTrue(r.add(1, 99, false));
    assertTrue(r.add(0, 3, false));
    assertEquals(2, r.runs());
    // ... and one key holds at most MAX_RUNS_PER_KEY runs (an add out of order stays cheap)
    final RetiredRuns many = new RetiredRuns(Long.MAX_VALUE);
    for (int i = 0; i < RetiredRuns.MAX_RUNS_PER_KEY; i++) {
      assertTrue(many.add(0, 2L * i, false));
    }
    assertFalse(many.add(0, -10, false));
    assertTrue(many.add(0, 1, false), "a bridge is always taken");
    assertTrue(many.add(1, -10, false), "another key has room");
    // ... and the absent version has its own exact flag, whatever the cap
    final RetiredRuns none = new RetiredRuns(0);
    assertFalse(none.add(4, 7, false));
    assertTrue(none.add(4, 0, true));
    assertTrue(none.contains(4, 0, true));
    assertFalse(none.contains(4, 0, false));
    assertFalse(none.contains(3, 0, true));
  }

  @Test
  void shouldRoundTripThroughRestoreAndRefuseRunsOutOfOrder() {
    // Given
    final RetiredRuns r = new RetiredRuns(100);
    for (final long v : new long[] {5, 6, 7, 20, 22, 21, -3}) {
      r.add(2, v, false);
    }
    r.add(9, 0, true);

    // When
    final RetiredRuns back = new RetiredRuns(100);
    for (int k = 0; k < r.keyBound(); k++) {
      back.restore(k, r.runsOf(k), r.absent(k));
    }
    back.restoreTaken(r.taken());

    // Then
    assertEquals(10, r.keyBound());
    assertEquals(r.runs(), back.runs());
    assertEquals(r.taken(), back.taken());
    assertArrayEquals(new long[] {-3, -3, 5, 7, 20, 22}, back.runsOf(2));
    assertTrue(back.contains(9, 0, true));
    assertThrows(IllegalArgumentException.class, () -> back.restore(3, new long[] {5, 7, 8, 9}, false));
    assertThrows(IllegalArgumentException.class, () -> back.restore(3, new long[] {5, 7, 1, 2}, false));
    assertThrows(IllegalArgumentException.class, () -> back.restore(3, new long[] {5, 4}, false));
  }

  @Test
  void shouldAnswerExactlyThroughTheSummaryAndSendOnlyTheOverflowToTheFilter() {
    // Given: run-sets capped at 1 run each, tiny filters
    final HorizonSummary h = new HorizonSummary(Horizon.ofTransactions(10).withFilters(64, 1 << 20)
        .withMaxRunBytes(RetiredRuns.BYTES_PER_RUN));

    // When
    for (long v = 1; v <= 1_000; v++) {
      h.retire(true, 0, v, false);
    }
    h.retire(false, 1, 500, false);
    h.retire(true, 1, 7, false);

    // Then: key 0's thousand versions take one run, the filters hold only key 1's overflow
    assertEquals(2, h.runs());
    assertEquals(1, h.overwritten.added());
    assertEquals(0, h.other.added());
    assertEquals(1, h.retired(0, 999, false));
    assertTrue(h.certainlyRetired(0, 999, false));
    assertEquals(2, h.retired(1, 500, false));
    assertTrue(h.certainlyRetired(1, 500, false));
    assertEquals(1, h.retired(1, 7, false));
    assertFalse(h.certainlyRetired(1, 7, false), "a filter hit taken for an exact one");
    assertEquals(0, h.retired(0, 1_001, false));
  }
}
