package io.isowatch.core.listappend;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link ListSerialGraph#byEnd}, the real-time chain's order of ends, sorted as packed longs when
 * the ends' span allows: the same order as the stable boxed sort it replaced, ties included.
 */
class ListSerialGraphByEndTest {

  private static List<Transaction> withEnds(final long... ends) {
    final List<Transaction> txns = new ArrayList<>();
    for (int i = 0; i < ends.length; i++) {
      txns.add(new Transaction("t" + i, "s", Transaction.NO_SEQ, TxnStatus.COMMITTED, 0, ends[i], List.of(), null,
          null, 0));
    }
    return txns;
  }

  /** The order the stable sort of boxed indices by end gives (the code before lafast5). */
  private static int[] stableSort(final List<Transaction> txns, final int[] members, final int m) {
    final Integer[] boxed = new Integer[m];
    for (int j = 0; j < m; j++) {
      boxed[j] = members[j];
    }
    Arrays.sort(boxed, (a, b) -> Long.compare(txns.get(a).end(), txns.get(b).end()));
    return Arrays.stream(boxed).mapToInt(Integer::intValue).toArray();
  }

  @Test
  void shouldKeepTiesInTheirGivenOrder() {
    // Given: equal ends at members 4, 1, 3 (given in that order), one earlier end
    final List<Transaction> txns = withEnds(50, 50, 10, 50, 50);
    final int[] members = {4, 1, 3, 2, 0};

    // When / Then: the earlier end first, then the ties as given
    assertArrayEquals(new int[] {2, 4, 1, 3, 0}, ListSerialGraph.byEnd(txns, members, members.length));
  }

  @Test
  void shouldSortOnlyTheFirstMMembers() {
    final List<Transaction> txns = withEnds(30, 20, 10);
    assertArrayEquals(new int[] {1, 0}, ListSerialGraph.byEnd(txns, new int[] {0, 1, 2}, 2));
    assertArrayEquals(new int[0], ListSerialGraph.byEnd(txns, new int[0], 0));
  }

  @Test
  void shouldAgreeWithTheStableSortOnNarrowAndWideSpansOfEnds() {
    final Random rnd = new Random(5L);
    for (int round = 0; round < 300; round++) {
      // Given: ends from a few values (ties), epoch microseconds, or a span too wide to pack
      final int n = 1 + rnd.nextInt(200);
      final long[] ends = new long[n];
      final int kind = round % 3;
      for (int i = 0; i < n; i++) {
        ends[i] = switch (kind) {
          case 0 -> rnd.nextInt(5);
          case 1 -> 1_764_000_000_000_000L + rnd.nextInt(1_000_000);
          default -> rnd.nextLong() / 2;
        };
      }
      final List<Transaction> txns = withEnds(ends);
      final int[] members = new int[n];
      for (int i = 0; i < n; i++) {
        members[i] = i;
      }
      final int m = rnd.nextInt(n + 1);

      // When / Then
      assertArrayEquals(stableSort(txns, members, m), ListSerialGraph.byEnd(txns, members, m), "round " + round);
    }
  }
}
