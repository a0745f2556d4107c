package io.isowatch.core.online;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole-history check's π order ({@link WholeHistoryCheck#piOrder}), whose transactions without
 * times are sorted by packed (rank, session, position) keys, against π as {@link PiOrder} defines
 * it, sorted by a plain comparator: by time; without times by rank, then session name, then id.
 */
class WholeHistoryPiOrderTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void shouldOrderAsPiWhenTransactionsWithoutTimesShareRanksAndSessionNamesSortOtherwiseThanNumbers(final int seed) {
    // Given: sessions named s0..s11 (s10 before s2), ranks with repeats, gaps and negatives, some times
    final SplittableRandom r = new SplittableRandom(seed);
    final List<Transaction> txns = new ArrayList<>();
    final int n = 200 + r.nextInt(2_000);
    final long rankRange = seed == 8 ? Long.MAX_VALUE / 4 : 20;
    final long[] rank = new long[n];
    for (int i = 0; i < n; i++) {
      final boolean timed = seed % 2 == 0 && r.nextInt(4) == 0;
      final long end = timed ? r.nextLong(1_000) : Transaction.NO_TIME;
      txns.add(new Transaction("t" + r.nextInt(1_000_000) + "-" + i, "s" + r.nextInt(12), Transaction.NO_SEQ,
          TxnStatus.COMMITTED, Transaction.NO_TIME, end, List.of(Op.write("x", i)), null, null, i + 1));
      rank[i] = r.nextLong(rankRange) - rankRange / 4;
    }

    // When
    final int[] order = WholeHistoryCheck.piOrder(txns, rank);

    // Then
    final Comparator<Integer> pi = Comparator.<Integer>comparingLong(i -> TxnIndex.timeKey(txns.get(i)))
        .thenComparing((a, b) -> {
          final Transaction ta = txns.get(a);
          final Transaction tb = txns.get(b);
          if (TxnIndex.timeKey(ta) == TxnIndex.NO_END) {
            int c = Long.compare(rank[a], rank[b]);
            c = c != 0 ? c : ta.session().compareTo(tb.session());
            return c != 0 ? c : ta.id().compareTo(tb.id());
          }
          int c = ta.session().compareTo(tb.session());
          c = c != 0 ? c : Long.compare(rank[a], rank[b]);
          return c != 0 ? c : ta.id().compareTo(tb.id());
        });
    final int[] expected = IntStream.range(0, n).boxed().sorted(pi).mapToInt(Integer::intValue).toArray();
    assertArrayEquals(expected, order);
  }
}
