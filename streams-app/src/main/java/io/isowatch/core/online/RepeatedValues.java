package io.isowatch.core.online;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The (key, value) pairs a whole history writes more than once. Only the batch adapter knows them
 * before processing; it tells the engine so that reads of such values are never attributed, as in
 * the batch checker (a stream can only learn of the repeat when it arrives).
 */
final class RepeatedValues {
  private final Set<String> repeated;

  private RepeatedValues(final Set<String> repeated) {
    this.repeated = repeated;
  }

  /** The repeated values of the transactions, or null when there are none (the usual case). */
  static RepeatedValues of(final List<Transaction> txns) {
    final Map<String, Integer> keyIds = new HashMap<>();
    final KeyValueTable seen = new KeyValueTable(1 << 12);
    Set<String> out = null;
    for (final Transaction t : txns) {
      for (final Op op : t.ops()) {
        if (!op.isWrite()) {
          continue;
        }
        final int k = keyIds.computeIfAbsent(op.key(), x -> keyIds.size());
        if (seen.get(k, op.value()) >= 0) {
          if (out == null) {
            out = new HashSet<>();
          }
          out.add(name(op.key(), op.value()));
        } else {
          seen.put(k, op.value(), 0);
        }
      }
    }
    return out == null ? null : new RepeatedValues(out);
  }

  boolean contains(final String key, final long value) {
    return repeated.contains(name(key, value));
  }

  private static String name(final String key, final long value) {
    return key + '\u0000' + value;
  }
}
