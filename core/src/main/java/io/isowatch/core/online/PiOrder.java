package io.isowatch.core.online;

/**
 * The canonical processing order π (see docs/streaming-design.md): by end time (the start time
 * for a transaction whose end is unknown; those with neither last), then session name, rank in the
 * session (seq, or arrival order where there is none) and transaction id. A total order on
 * distinct transactions, independent of arrival.
 *
 * <p>Transactions with no time at all (text-format histories, JSONL without times) are ordered by
 * rank first, then session name and id: the sessions interleaved round-robin. Ordered session by
 * session instead, nearly every cross-session dependency would point backwards in the processing
 * order, and each insertion into the level graphs would search and reorder a large part of the
 * graph (a 50K-transaction timeless history took 14-17 times the CPU of the same history with times).
 * Session order is kept either way; only which cycles are reported can depend on π. A flush
 * releases the timeless transactions it holds in the order of {@link TimelessOrder}, closer to real
 * time still; π decides whether one arriving after a flush is late.
 */
final class PiOrder {
  private PiOrder() {}

  static int compare(final TxnIndex index, final Sessions sessions, final int a, final int b) {
    if (a == b) {
      return 0;
    }
    final long endA = index.endKey(a);
    final int byEnd = Long.compare(endA, index.endKey(b));
    if (byEnd != 0) {
      return byEnd;
    }
    final int sa = index.session(a);
    final int sb = index.session(b);
    if (endA == TxnIndex.NO_END) {
      return compareTimeless(index, sessions, a, b, sa, sb);
    }
    if (sa != sb) {
      return sessions.name(sa).compareTo(sessions.name(sb));
    }
    final int byRank = Long.compare(index.rank(a), index.rank(b));
    if (byRank != 0) {
      return byRank;
    }
    return index.txn(a).id().compareTo(index.txn(b).id());
  }

  /** Two transactions without times: rank, then session name, then id (round-robin over sessions). */
  private static int compareTimeless(final TxnIndex index, final Sessions sessions, final int a, final int b,
      final int sa, final int sb) {
    final int byRank = Long.compare(index.rank(a), index.rank(b));
    if (byRank != 0) {
      return byRank;
    }
    if (sa != sb) {
      return sessions.name(sa).compareTo(sessions.name(sb));
    }
    return index.txn(a).id().compareTo(index.txn(b).id());
  }

  /** Canonical order of reports: session name, then rank (anomaly lists that depend on the history only). */
  static int compareCanonical(final TxnIndex index, final Sessions sessions, final int a, final int b) {
    if (a == b) {
      return 0;
    }
    if (a == TxnIndex.INIT || b == TxnIndex.INIT) {
      return a == TxnIndex.INIT ? -1 : 1;
    }
    final int sa = index.session(a);
    final int sb = index.session(b);
    if (sa != sb) {
      return sessions.name(sa).compareTo(sessions.name(sb));
    }
    final int byRank = Long.compare(index.rank(a), index.rank(b));
    return byRank != 0 ? byRank : index.txn(a).id().compareTo(index.txn(b).id());
  }
}
