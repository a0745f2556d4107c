package io.isowatch.core.oracle;

import io.isowatch.core.history.OpType;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * A transaction being generated: its shape is fixed first, then a simulated execution fills in
 * values, status and times, then faults may tamper with it. Mutable on purpose, and only ever
 * used inside one generation.
 */
final class TxnDraft {
  final String id;
  final String session;
  final List<OpType> types = new ArrayList<>();
  final List<String> keys = new ArrayList<>();
  final List<Long> values = new ArrayList<>();
  TxnStatus status = TxnStatus.COMMITTED;
  /** Whether its writes became visible to later reads (committed, or unknown but applied). */
  boolean installed;
  long start = Transaction.NO_TIME;
  long end = Transaction.NO_TIME;
  long seq = Transaction.NO_SEQ;

  TxnDraft(final String id, final String session) {
    this.id = id;
    this.session = session;
  }

  void addOp(final OpType type, final String key) {
    types.add(type);
    keys.add(key);
    values.add(null);
  }

  int size() {
    return types.size();
  }

  boolean isRead(final int i) {
    return types.get(i) == OpType.READ;
  }

  boolean isWrite(final int i) {
    return types.get(i) == OpType.WRITE;
  }

  /** True when op {@code i} writes its key and a later op of this transaction writes it again. */
  boolean isIntermediateWrite(final int i) {
    if (!isWrite(i)) {
      return false;
    }
    for (int j = i + 1; j < size(); j++) {
      if (isWrite(j) && keys.get(j).equals(keys.get(i))) {
        return true;
      }
    }
    return false;
  }

  /** True when an earlier op of this transaction wrote the key of op {@code i}. */
  boolean writtenBefore(final int i) {
    for (int j = 0; j < i; j++) {
      if (isWrite(j) && keys.get(j).equals(keys.get(i))) {
        return true;
      }
    }
    return false;
  }

  /** The value of the latest own write of op {@code i}'s key before it, or null. */
  Long ownWriteBefore(final int i) {
    Long v = null;
    for (int j = 0; j < i; j++) {
      if (isWrite(j) && keys.get(j).equals(keys.get(i))) {
        v = values.get(j);
      }
    }
    return v;
  }

  String render() {
    final StringBuilder sb = new StringBuilder(id).append(' ').append(session);
    for (int i = 0; i < size(); i++) {
      sb.append(' ').append(types.get(i).code()).append('(').append(keys.get(i)).append(',')
          .append(values.get(i) == null ? "null" : values.get(i)).append(')');
    }
    if (status != TxnStatus.COMMITTED) {
      sb.append(' ').append(status.wire());
    }
    if (start != Transaction.NO_TIME || end != Transaction.NO_TIME) {
      sb.append(" @").append(start == Transaction.NO_TIME ? "" : start).append("..")
          .append(end == Transaction.NO_TIME ? "" : end);
    }
    if (seq != Transaction.NO_SEQ) {
      sb.append(" seq=").append(seq);
    }
    return sb.toString();
  }
}
