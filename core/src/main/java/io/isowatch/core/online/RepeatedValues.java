package io.isowatch.core.online;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The (key, value) pairs that transactions not yet processed write more than once: the whole
 * history's for a {@link WholeHistoryCheck}, the reorder buffer's at a flush. Reads of such values
 * are then never attributed to a writer (a stream learns of any other repeat only when its writer
 * is processed).
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

  /** The union of two sets, either of which may be null (none). */
  static RepeatedValues union(final RepeatedValues a, final RepeatedValues b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    final Set<String> all = new HashSet<>(a.repeated);
    all.addAll(b.repeated);
    return new RepeatedValues(all);
  }

  /** The pairs as (key, value), sorted by key then value (a checkpoint writes them). */
  List<Map.Entry<String, Long>> pairs() {
    final List<Map.Entry<String, Long>> out = new java.util.ArrayList<>(repeated.size());
    for (final String name : repeated) {
      // A value never contains the separator; a key might.
      final int sep = name.lastIndexOf('\u0000');
      out.add(Map.entry(name.substring(0, sep), Long.parseLong(name.substring(sep + 1))));
    }
    out.sort(Map.Entry.<String, Long>comparingByKey().thenComparing(Map.Entry.comparingByValue()));
    return out;
  }

  /** The set of these (key, value) pairs, or null when there are none (a restore). */
  static RepeatedValues ofPairs(final List<Map.Entry<String, Long>> pairs) {
    if (pairs.isEmpty()) {
      return null;
    }
    final Set<String> names = new HashSet<>();
    pairs.forEach(p -> names.add(name(p.getKey(), p.getValue())));
    return new RepeatedValues(names);
  }

  boolean contains(final String key, final long value) {
    return repeated.contains(name(key, value));
  }

  private static String name(final String key, final long value) {
    return key + '\u0000' + value;
  }
}
