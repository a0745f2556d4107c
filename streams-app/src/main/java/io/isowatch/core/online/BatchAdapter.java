package io.isowatch.core.online;

import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.CheckResult;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@link OnlineChecker#check}: a whole history through the incremental engine. As the batch
 * checker, it keeps the first of transactions sharing an id (the others become DUPLICATE_TXN_ID
 * findings) and takes session order from seq when every transaction of the session has one, from
 * the source order otherwise. Then it sorts by π, accepts everything with an unbounded grace
 * period and flushes. Knowing the whole history, it also tells the engine which values are
 * written twice, so that reads of them are never attributed (a stream learns of a repeat only
 * when it arrives; see docs/streaming-design.md).
 */
final class BatchAdapter {
  private BatchAdapter() {}

  static CheckResult check(final History history, final CheckOptions options) {
    final long started = System.nanoTime();
    final OnlineChecker checker = new OnlineChecker(options, OnlineOptions.batch());
    final List<Transaction> unique = new ArrayList<>(history.size());
    final Set<String> ids = new HashSet<>(2 * history.size());
    for (final Transaction t : history.transactions()) {
      if (ids.add(t.id())) {
        unique.add(t);
      } else {
        checker.reportDuplicateId(t);
      }
    }
    final int n = unique.size();
    final long[] rank = ranks(unique);
    final long[] end = new long[n];
    final int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      final long e = unique.get(i).end();
      end[i] = e == Transaction.NO_TIME ? TxnIndex.NO_END : e;
      order[i] = i;
    }
    IndexSort.sort(order, n, (a, b) -> {
      int c = Long.compare(end[a], end[b]);
      if (c != 0) {
        return c;
      }
      final Transaction ta = unique.get(a);
      final Transaction tb = unique.get(b);
      c = ta.session().compareTo(tb.session());
      if (c != 0) {
        return c;
      }
      c = Long.compare(rank[a], rank[b]);
      return c != 0 ? c : ta.id().compareTo(tb.id());
    });
    checker.declareRepeated(RepeatedValues.of(unique));
    for (int i = 0; i < n; i++) {
      checker.accept(unique.get(order[i]), rank[order[i]]);
    }
    checker.flush();
    return checker.result((System.nanoTime() - started) / 1e9);
  }

  /** Each transaction's position in its session's order, as the batch checker orders sessions. */
  private static long[] ranks(final List<Transaction> txns) {
    final Map<String, List<Integer>> bySession = new HashMap<>();
    for (int i = 0; i < txns.size(); i++) {
      bySession.computeIfAbsent(txns.get(i).session(), x -> new ArrayList<>()).add(i);
    }
    final long[] rank = new long[txns.size()];
    for (final List<Integer> members : bySession.values()) {
      if (members.stream().allMatch(i -> txns.get(i).hasSeq())) {
        // Stable: transactions sharing a seq keep their source order (DUPLICATE_SEQ).
        members.sort((a, b) -> Long.compare(txns.get(a).seq(), txns.get(b).seq()));
      }
      for (int r = 0; r < members.size(); r++) {
        rank[members.get(r)] = r;
      }
    }
    return rank;
  }
}
