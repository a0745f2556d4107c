package io.isowatch.core.oracle;

import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Whether a history is a proper mini-transaction history in the product's sense (MTC Definitions
 * 8-9, without the op-count limit): in every transaction, whatever its status, every write is
 * preceded by a read of the same key, and no two writes anywhere write the same value to the same
 * key or write the initial value. On such histories the engine must be exact.
 */
public final class MiniTransactions {
  private MiniTransactions() {}

  public static boolean isProper(final History history, final Long initialValue) {
    final Set<String> written = new HashSet<>();
    for (final Transaction t : history.transactions()) {
      final Set<String> readKeys = new HashSet<>();
      for (final Op op : t.ops()) {
        if (op.isRead()) {
          readKeys.add(op.key());
          continue;
        }
        final boolean fresh = written.add(op.key() + "=" + op.value());
        if (!readKeys.contains(op.key()) || !fresh || Objects.equals(op.value(), initialValue)) {
          return false;
        }
      }
    }
    return true;
  }
}
