package io.isowatch.core.online;

/**
 * The canonical processing order π (see docs/streaming-design.md): by end time (the start time
 * for a transaction whose end is unknown; those with neither last), then session name, rank in the
 * session (seq, or arrival order where there is none) and transaction id. A total order on
 * distinct transactions, independent of arrival.
 */
final class PiOrder {
  private PiOrder() {}

  static int compare(final TxnIndex index, final Sessions sessions, final int a, final int b) {
    if (a == b) {
      return 0;
    }
    final int byEnd = Long.compare(index.endKey(a), index.endKey(b));
    if (byEnd != 0) {
      return byEnd;
    }
    final int sa = index.session(a);
    final int sb = index.session(b);
    if (sa != sb) {
      return sessions.name(sa).compareTo(sessions.name(sb));
    }
    final int byRank = Long.compare(index.rank(a), index.rank(b));
    if (byRank != 0) {
      return byRank;
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
