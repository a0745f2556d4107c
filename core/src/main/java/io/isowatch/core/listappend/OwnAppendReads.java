package io.isowatch.core.listappend;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads that miss their own transaction's earlier appends: a list read after the transaction
 * appended to the key must end with those appends, in order (a transaction reads its own writes;
 * every level requires it, docs/levels.md, "The model"). The engine finds this on the register
 * translation (NotMyOwnWrite) except when the appends are among several no read shows, which the
 * translation gives to a stand-in key (docs/list-append.md, "Appends no read shows"): then the
 * read and the appends are on different keys there. This finds it on the lists themselves, for
 * the reads the engine's anomalies do not already name.
 */
final class OwnAppendReads {
  private OwnAppendReads() {}

  /** The NotMyOwnWrite anomalies of counted transactions that {@code known} does not already list. */
  static List<Anomaly> missed(final History history, final ListOrders orders, final List<Anomaly> known,
      final Set<Level> requested) {
    final Set<String> named = new HashSet<>();
    for (final Anomaly a : known) {
      if (a.read() != null) {
        named.add(a.read().txn() + '\u0000' + a.read().op());
      }
    }
    final List<Anomaly> out = new ArrayList<>();
    for (final Transaction t : history.transactions()) {
      if (!orders.counted(t)) {
        continue;
      }
      final List<Op> ops = t.ops();
      if (ops.size() <= SMALL) { // the earlier appends found by a scan, not a map of lists
        for (int i = 1; i < ops.size(); i++) {
          final Op op = ops.get(i);
          if (!op.isListRead() || endsWithOwn(ops, i)) {
            continue;
          }
          final List<Long> mine = ownAppends(ops, i);
          if (!named.contains(t.id() + '\u0000' + i)) {
            out.add(anomaly(t, i, op, mine, requested));
          }
        }
        continue;
      }
      Map<String, List<Long>> own = null; // made at the first append: most transactions read before any
      for (int i = 0; i < t.ops().size(); i++) {
        final Op op = t.ops().get(i);
        if (op.isAppend()) {
          if (own == null) {
            own = new HashMap<>(4);
          }
          own.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op.value());
          continue;
        }
        final List<Long> mine = own == null ? null : own.get(op.key());
        if (!op.isListRead() || mine == null || endsWith(op.elements(), mine)
            || named.contains(t.id() + '\u0000' + i)) {
          continue;
        }
        out.add(anomaly(t, i, op, mine, requested));
      }
    }
    return out;
  }

  /** Transactions of at most this many ops find their earlier appends by a scan. */
  private static final int SMALL = 16;

  /**
   * True when the list read at {@code i} ends with the transaction's earlier appends to its key, in
   * order (also when there are none).
   */
  private static boolean endsWithOwn(final List<Op> ops, final int i) {
    final Op read = ops.get(i);
    final List<Long> list = read.elements();
    int at = list.size(); // the earlier appends, from the last, against the list, from its end
    for (int j = i - 1; j >= 0; j--) {
      final Op op = ops.get(j);
      if (op.isAppend() && op.key().equals(read.key())) {
        if (--at < 0 || !op.value().equals(list.get(at))) {
          return false;
        }
      }
    }
    return true;
  }

  /** The transaction's appends to the key of op {@code i} before it, in order. */
  private static List<Long> ownAppends(final List<Op> ops, final int i) {
    final List<Long> mine = new ArrayList<>();
    for (int j = 0; j < i; j++) {
      final Op op = ops.get(j);
      if (op.isAppend() && op.key().equals(ops.get(i).key())) {
        mine.add(op.value());
      }
    }
    return mine;
  }

  private static boolean endsWith(final List<Long> list, final List<Long> suffix) {
    return list.size() >= suffix.size() && list.subList(list.size() - suffix.size(), list.size()).equals(suffix);
  }

  private static Anomaly anomaly(final Transaction t, final int i, final Op op, final List<Long> mine,
      final Set<Level> requested) {
    final Set<Level> violates = Level.shown(EnumSet.allOf(Level.class), requested);
    final List<String> names = new ArrayList<>();
    for (final Level l : Level.strongestFirst(violates)) {
      names.add(l.name());
    }
    final String text = "Let:\n  T1 = " + t.id() + " " + t.ops() + " (session " + t.session() + ", "
        + t.status().wire() + (t.line() > 0 ? ", line " + t.line() : "") + ")\nThen:\n"
        + "  - T1 appended " + mine + " to " + op.key() + " and later read " + op.key() + "=" + op.elements() + ";\n"
        + "  - a transaction's read of a list ends with its own earlier appends to it, in order, and this one does "
        + "not.\nT1 did not read its own writes. This violates " + String.join(", ", names) + ". (internal, NotMyOwnWrite)";
    final Long last = op.elements().isEmpty() ? null : op.elements().get(op.elements().size() - 1);
    return new Anomaly("internal", "NotMyOwnWrite", violates, List.of(t), List.of(), text,
        new AnomalyRead(t.id(), i, op.key(), last));
  }
}
