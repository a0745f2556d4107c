package io.isowatch.core.gen;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.io.IOException;
import java.util.List;

/** Builds transactions, numbers them by position and hands them to the sink; keeps counts only. */
final class Emitter {
  private final TransactionSink sink;
  private final boolean timestamps;
  private long emitted;
  private long committed;
  private long aborted;

  Emitter(final TransactionSink sink, final boolean timestamps) {
    this.sink = sink;
    this.timestamps = timestamps;
  }

  /** Emits one transaction; its line is its 1-based position, as in a JSONL file written in order. */
  String emit(final String session, final long seq, final TxnStatus status, final long start, final long end,
      final List<Op> ops) throws IOException {
    final String id = session + "-" + seq;
    final int line = emitted < Integer.MAX_VALUE ? (int) (emitted + 1) : 0;
    sink.accept(new Transaction(id, session, seq, status, timestamps ? start : Transaction.NO_TIME,
        timestamps ? end : Transaction.NO_TIME, ops, null, null, line));
    emitted++;
    if (status == TxnStatus.ABORTED) {
      aborted++;
    } else {
      committed++;
    }
    return id;
  }

  long emitted() {
    return emitted;
  }

  long committed() {
    return committed;
  }

  long aborted() {
    return aborted;
  }
}
