package io.isowatch.core.listappend;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.AnomalyRead;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The anomalies only lists show, each with its Let/Then explanation [Elle, section 4.2 and its
 * list-append checker]: DuplicateElements, IncompatibleOrder, a thin-air element and a read of an
 * aborted append (G1a, anywhere in the list). The cycles (G0, G1c, G-single, G2-item), G1b and
 * the internal anomalies come from the engine on the {@link RegisterTranslation}; so do lost
 * appends (an acknowledged append a later read misses), as G-single-realtime or G-single-process
 * cycles through the edge from that read to every append no read shows.
 */
final class ListAnomalies {
  private final CheckOptions options;
  private final ListOrders orders;
  private final List<Anomaly> found = new ArrayList<>();

  private ListAnomalies(final CheckOptions options, final ListOrders orders) {
    this.options = options;
    this.orders = orders;
  }

  /** The list anomalies of {@code history}. */
  static List<Anomaly> of(final History history, final ListOrders orders, final CheckOptions options) {
    final ListAnomalies a = new ListAnomalies(options, orders);
    a.orderAnomalies();
    a.appendsOutOfOrder(history);
    a.abortedElements(history);
    a.thinAirElements(history);
    return a.found;
  }

  private void orderAnomalies() {
    for (final ListOrders.KeyOrder k : orders.keys()) {
      for (final ListOrders.ListRead r : k.duplicates()) {
        found.add(new Anomaly("duplicate-elements", "DuplicateElements", EnumSet.allOf(Level.class),
            List.of(r.txn()), List.of(),
            let(r.txn(), null) + "Then:\n  - T1 read " + k.key() + "=" + show(r.elements()) + ", which holds "
                + repeated(r.elements()) + " more than once.\n"
                + "An append adds its element once, so no order of the appends produces this list [Elle: duplicate "
                + "elements]. " + violatesAll() + " (duplicate-elements, DuplicateElements)",
            read(r)));
      }
      for (final ListOrders.ListRead r : k.incompatible()) {
        final ListOrders.ListRead l = k.longest();
        // One transaction may read both lists: then it is T1 twice.
        final String other = l.txn() == r.txn() ? "T1" : "T2";
        found.add(new Anomaly("incompatible-order", "IncompatibleOrder", EnumSet.allOf(Level.class),
            l.txn() == r.txn() ? List.of(r.txn()) : List.of(r.txn(), l.txn()), List.of(),
            let(r.txn(), l.txn()) + "Then:\n  - T1 read " + k.key() + "=" + show(r.elements()) + " and " + other + " read "
                + k.key() + "=" + show(l.elements()) + ";\n  - appends only add at the end, so of two reads of one "
                + "list one must be a prefix of the other, and neither is.\n"
                + "No single version order of " + k.key() + " explains both reads [Elle: incompatible order]. "
                + violatesAll() + " (incompatible-order, IncompatibleOrder)",
            read(r)));
      }
    }
  }

  /**
   * A transaction appended a and then b to one key, but the longest list shows b without a before
   * it: no execution of its appends, in any order of transactions, produces that list.
   */
  private void appendsOutOfOrder(final History history) {
    final List<Transaction> txns = history.transactions();
    for (int ti = 0; ti < txns.size(); ti++) {
      final Transaction t = txns.get(ti);
      if (t.ops().size() < 2 || !orders.counted(t) || appends(t) < 2) {
        continue;
      }
      final List<Op> ops = t.ops();
      final boolean small = ops.size() <= SMALL; // then scans of the earlier ops, not a map and a set
      final java.util.Map<String, Long> previous = small ? null : new java.util.HashMap<>();
      final Set<String> reported = small ? null : new HashSet<>();
      final boolean[] reportedAt = small ? new boolean[ops.size()] : null;
      for (int o = 0; o < ops.size(); o++) {
        final Op op = ops.get(o);
        if (!op.isAppend()) {
          continue;
        }
        final Long before = small ? previousAppend(ti, ops, o) : previous.put(op.key(), op.value());
        if (small && before != null && reportedBefore(ti, ops, o, reportedAt)) {
          continue;
        }
        final ListOrders.KeyOrder order = orders.of(orders.slot(ti, o));
        final int at = orders.position(ti, o);
        if (before == null || at < 0 || !order.duplicates().isEmpty() || !small && reported.contains(op.key())) {
          continue;
        }
        final int beforeAt = order.position(before);
        if (beforeAt < 0 || beforeAt > at) {
          if (small) {
            reportedAt[o] = true;
          } else {
            reported.add(op.key());
          }
          final ListOrders.ListRead l = order.longest();
          found.add(new Anomaly("incompatible-order", "IncompatibleOrder", EnumSet.allOf(Level.class),
              l.txn() == t ? List.of(t) : List.of(t, l.txn()), List.of(),
              let(t, l.txn()) + "Then:\n  - T1 appended " + before + " and then " + op.value() + " to " + op.key()
                  + ";\n  - " + (l.txn() == t ? "T1" : "T2") + " read " + op.key() + "=" + show(l.elements()) + ", which holds "
                  + op.value() + (beforeAt < 0 ? " but not " + before : " before " + before) + ".\n"
                  + "Appends add at the end in the order they run, so no execution produces that list [Elle: "
                  + "incompatible order]. " + violatesAll() + " (incompatible-order, IncompatibleOrder)",
              read(l)));
        }
      }
    }
  }

  /** Transactions of at most this many ops find their earlier appends to a key by a scan. */
  private static final int SMALL = 16;

  /** The element of the last append before {@code o} to the key of op {@code o}, or null. */
  private Long previousAppend(final int txn, final List<Op> ops, final int o) {
    final ListOrders.Slot key = orders.slot(txn, o);
    for (int j = o - 1; j >= 0; j--) {
      final Op other = ops.get(j);
      if (other.isAppend() && orders.slot(txn, j) == key) {
        return other.value();
      }
    }
    return null;
  }

  /** True when an append before {@code o} to the key of op {@code o} was reported. */
  private boolean reportedBefore(final int txn, final List<Op> ops, final int o, final boolean[] reportedAt) {
    final ListOrders.Slot key = orders.slot(txn, o);
    for (int j = 0; j < o; j++) {
      if (reportedAt[j] && orders.slot(txn, j) == key) {
        return true;
      }
    }
    return false;
  }

  private static int appends(final Transaction t) {
    final List<Op> ops = t.ops();
    int n = 0;
    for (int i = 0; i < ops.size(); i++) {
      n += ops.get(i).isAppend() ? 1 : 0;
    }
    return n;
  }

  /**
   * Every committed read holding an element only aborted transactions appended (Adya G1a). The
   * engine would see such an element only at the end of a list; here it is found anywhere.
   */
  private void abortedElements(final History history) {
    final Map<String, Map<Long, Transaction>> abortedBy = new HashMap<>();
    for (final Transaction t : history.transactions()) {
      if (t.status() != TxnStatus.ABORTED) {
        continue;
      }
      for (final Op op : t.ops()) {
        if (op.isAppend()) {
          abortedBy.computeIfAbsent(op.key(), k -> new HashMap<>()).putIfAbsent(op.value(), t);
        }
      }
    }
    if (abortedBy.isEmpty()) {
      return;
    }
    // An element some transaction that did not abort also appended is not an aborted read.
    for (final Transaction t : history.transactions()) {
      if (t.status() == TxnStatus.ABORTED) {
        continue;
      }
      for (final Op op : t.ops()) {
        final Map<Long, Transaction> byElement = op.isAppend() ? abortedBy.get(op.key()) : null;
        if (byElement != null) {
          byElement.remove(op.value());
        }
      }
    }
    for (final Transaction t : history.transactions()) {
      if (!orders.counted(t)) {
        continue;
      }
      for (int i = 0; i < t.ops().size(); i++) {
        final Op op = t.ops().get(i);
        final Map<Long, Transaction> byElement = op.isListRead() ? abortedBy.get(op.key()) : null;
        if (byElement == null || byElement.isEmpty()) {
          continue;
        }
        for (final Long e : op.elements()) {
          final Transaction writer = byElement.get(e);
          if (writer != null) {
            found.add(new Anomaly("G1a", "AbortedRead", EnumSet.allOf(Level.class), List.of(writer, t), List.of(),
                // Named by their ids, as the engine's Let lines and the lists' G1a clauses ("where 1 was appended by
                // T1, which aborted (G1a)") name them, not "T1 = T2 [a(z,2)]"
                "Let:\n  " + describe(writer).replaceFirst(" ", " = ") + "\n  " + describe(t).replaceFirst(" ", " = ") + "\nThen:\n  - "
                    + t.id() + " read " + op.key() + "=" + show(op.elements()) + ", where " + e + " was appended by "
                    + writer.id() + " alone, which aborted: an aborted write must never be visible (Adya G1a).\n"
                    + "No dependency graph exists for such a history. " + violatesAll() + " (G1a, AbortedRead)",
                new AnomalyRead(t.id(), i, op.key(), op.value())));
            break; // one anomaly per read: its first aborted element
          }
        }
      }
    }
  }

  /** An element of a committed read that no transaction appended (first read showing it). */
  private void thinAirElements(final History history) {
    // Per key, which places of its order an append fills (an element's first place: with the
    // order free of repeats, that is its only one; a key with repeats marks every place of it).
    // (kept on each key's order, owned by this check: one lookup per append, not two)
    final List<Transaction> txns = history.transactions();
    for (int ti = 0; ti < txns.size(); ti++) {
      final List<Op> ops = txns.get(ti).ops();
      for (int o = 0; o < ops.size(); o++) {
        final Op op = ops.get(o);
        if (op.isAppend()) {
          final ListOrders.KeyOrder k = orders.peek(orders.slot(ti, o));
          final int at = k == null ? -1 : orders.position(ti, o);
          if (at >= 0) {
            final boolean[] marks = k.scratchMarks(this);
            if (k.duplicates().isEmpty()) {
              marks[at] = true;
            } else {
              for (int i = at; i < marks.length; i++) {
                marks[i] |= op.value().equals(k.order().get(i));
              }
            }
          }
        }
      }
    }
    for (final ListOrders.KeyOrder k : orders.keys()) {
      if (k.longest() == null) {
        continue;
      }
      final boolean[] marks = k.marksOf(this);
      if (marks != null && allTrue(marks)) {
        continue;
      }
      final Set<Long> reported = new HashSet<>();
      final List<Long> order = k.order();
      for (int i = 0; i < order.size(); i++) {
        final Long e = order.get(i);
        if ((marks == null || !marks[i]) && reported.add(e)) {
          final ListOrders.ListRead r = firstReadShowing(history, k.key(), e);
          found.add(new Anomaly("thin-air", "ThinAirRead", EnumSet.allOf(Level.class), List.of(r.txn()), List.of(),
              let(r.txn(), null) + "Then:\n  - T1 read " + k.key() + "=" + show(r.elements()) + ", but no "
                  + "transaction appended " + e + " to " + k.key() + ": the element came from thin air.\n"
                  + "No dependency graph exists for such a history. " + violatesAll() + " (thin-air, ThinAirRead)",
              new AnomalyRead(r.txn().id(), r.op(), k.key(), e)));
        }
      }
    }
  }

  private static boolean allTrue(final boolean[] marks) {
    for (final boolean m : marks) {
      if (!m) {
        return false;
      }
    }
    return true;
  }

  private ListOrders.ListRead firstReadShowing(final History history, final String key, final Long e) {
    for (final Transaction t : history.transactions()) {
      if (!orders.counted(t)) {
        continue;
      }
      for (int i = 0; i < t.ops().size(); i++) {
        final Op op = t.ops().get(i);
        if (op.isListRead() && op.key().equals(key) && op.elements().contains(e)) {
          return new ListOrders.ListRead(t, i, key, op.elements());
        }
      }
    }
    throw new IllegalStateException("no read shows " + key + "=" + e);
  }

  private String violatesAll() {
    final List<String> names = new ArrayList<>();
    for (final Level l : Level.strongestFirst(Level.shown(EnumSet.allOf(Level.class), options.levels()))) {
      names.add(l.name());
    }
    return "This violates " + (names.size() == 1 ? names.get(0)
        : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1)) + ".";
  }

  private static AnomalyRead read(final ListOrders.ListRead r) {
    final List<Long> e = r.elements();
    return new AnomalyRead(r.txn().id(), r.op(), r.key(), e.isEmpty() ? null : e.get(e.size() - 1));
  }

  private static String let(final Transaction t1, final Transaction t2) {
    final StringBuilder sb = new StringBuilder("Let:\n  T1 = ").append(describe(t1)).append('\n');
    if (t2 != null && t2 != t1) {
      sb.append("  T2 = ").append(describe(t2)).append('\n');
    }
    return sb.toString();
  }

  private static String describe(final Transaction t) {
    final StringBuilder ops = new StringBuilder();
    for (final Op op : t.ops()) {
      ops.append(ops.length() == 0 ? "" : " ").append(op);
    }
    return t.id() + " [" + ops + "] (session " + t.session() + ", " + t.status().wire()
        + (t.line() > 0 ? ", line " + t.line() : "") + ")";
  }

  private static String show(final List<Long> elements) {
    return elements.toString().replace(" ", "");
  }

  private static String repeated(final List<Long> elements) {
    final Set<Long> seen = new HashSet<>();
    for (final Long e : elements) {
      if (!seen.add(e)) {
        return String.valueOf(e);
      }
    }
    return "an element";
  }
}
