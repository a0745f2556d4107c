package io.isowatch.core.listappend;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Adya's PL2 and RR on a list-append history, decided on the dependency graph the lists give
 * (docs/list-append.md, "Levels"), without the register translation: that translation's read before
 * each append (what SSER, SER and SI imply) is no edge of Adya's graph, which has no session order.
 *
 * <ul>
 *   <li>WW: the appender of an element → the appender of the next one in the key's order (the
 *       longest committed read);
 *   <li>WR: the appender of a list's last element → the reader of that list;
 *   <li>RW: the reader of a list → the appender of the element after its last one.
 * </ul>
 *
 * An append no committed read shows comes after the whole order, in an order nothing fixes: it
 * gets the edges every such order has (WW from the appender of the order's last element, RW from the
 * readers of the whole order). PL2 forbids a cycle of WW and WR edges (G0, G1c), RR any cycle (G1c,
 * G2-item); both are acyclicity conditions, and ordering the open appends along a topological order
 * of the acyclic common graph closes no cycle (they have no other outgoing edges), so the common
 * edges decide them. A cycle is named by its edges: G0, G1c, G-single (exactly one RW), G2-item
 * (two or more RW), as the engine's {@code CycleClassifier} and Elle name them. Keys whose reads contradict each other (IncompatibleOrder, DuplicateElements)
 * have no order and give no edge: those anomalies violate every level already. Only transactions
 * that count as committed ({@link ListOrders#counted}) are nodes.
 */
final class ListDependencyCycles {
  private final List<Transaction> nodes = new ArrayList<>();
  private final Map<Transaction, Integer> index = new IdentityHashMap<>();
  private final List<List<Arc>> out = new ArrayList<>();

  /**
   * An edge to node {@code to} (node indices, since transaction ids may repeat in invalid input);
   * {@code unshown} when its target's append is one no committed read shows, which comes after the
   * whole order but not necessarily right after its last element.
   */
  private record Arc(int from, int to, Edge edge, boolean unshown) {}

  private ListDependencyCycles() {}

  /**
   * The counterexample of the level (PL2: a cycle of WW and WR; RR: any cycle), or null when the
   * graph has none.
   */
  static Anomaly cycle(final History history, final ListOrders orders, final Level level) {
    final ListDependencyCycles g = new ListDependencyCycles();
    g.build(history, orders, level == Level.RR);
    final List<Arc> cycle = g.findCycle();
    return cycle == null ? null : g.anomaly(cycle);
  }

  private int node(final Transaction t) {
    return index.computeIfAbsent(t, k -> {
      nodes.add(k);
      out.add(new ArrayList<>());
      return nodes.size() - 1;
    });
  }

  private void edge(final Transaction from, final Transaction to, final EdgeKind kind, final String key,
      final Long value) {
    edge(from, to, kind, key, value, false);
  }

  private void edge(final Transaction from, final Transaction to, final EdgeKind kind, final String key,
      final Long value, final boolean unshown) {
    if (from != to) {
      final int f = node(from);
      out.get(f).add(new Arc(f, node(to), new Edge(from.id(), to.id(), kind, key, value), unshown));
    }
  }

  private void build(final History history, final ListOrders orders, final boolean antiDependencies) {
    final Map<String, Map<Long, Transaction>> appenders = new HashMap<>();
    final Map<String, List<ListOrders.ListRead>> reads = new HashMap<>();
    for (final Transaction t : history.transactions()) {
      if (!orders.counted(t)) {
        continue;
      }
      node(t);
      for (int i = 0; i < t.ops().size(); i++) {
        final Op op = t.ops().get(i);
        if (op.isAppend()) {
          appenders.computeIfAbsent(op.key(), k -> new HashMap<>()).putIfAbsent(op.value(), t);
        } else if (op.isListRead() || (op.isRead() && op.value() == null)) {
          final List<Long> elements = op.isListRead() ? op.elements() : List.of();
          reads.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(new ListOrders.ListRead(t, i, op.key(), elements));
        }
      }
    }
    final java.util.Set<String> keys = new java.util.LinkedHashSet<>(appenders.keySet());
    keys.addAll(reads.keySet());
    for (final String key : keys) {
      final ListOrders.KeyOrder ko = orders.of(key);
      if (!ko.incompatible().isEmpty() || !ko.duplicates().isEmpty()) {
        continue; // no order: IncompatibleOrder / DuplicateElements violate every level already
      }
      final List<Long> order = ko.order();
      final Map<Long, Transaction> by = appenders.getOrDefault(key, Map.of());
      for (int i = 0; i + 1 < order.size(); i++) {
        final Transaction a = by.get(order.get(i));
        final Transaction b = by.get(order.get(i + 1));
        if (a != null && b != null) {
          edge(a, b, EdgeKind.WW, key, order.get(i));
        }
      }
      final Set<Long> shown = new java.util.HashSet<>(order);
      final List<Transaction> open = new ArrayList<>();
      for (final Map.Entry<Long, Transaction> e : by.entrySet()) {
        if (!shown.contains(e.getKey()) && !open.contains(e.getValue())) {
          open.add(e.getValue());
        }
      }
      final Long last = order.isEmpty() ? null : order.get(order.size() - 1);
      final Transaction lastAppender = last == null ? null : by.get(last);
      for (final Transaction u : open) {
        if (lastAppender != null) {
          edge(lastAppender, u, EdgeKind.WW, key, last, true);
        }
      }
      for (final ListOrders.ListRead r : reads.getOrDefault(key, List.of())) {
        final List<Long> l = r.elements();
        final Long end = l.isEmpty() ? null : l.get(l.size() - 1);
        if (end != null && by.get(end) != null) {
          edge(by.get(end), r.txn(), EdgeKind.WR, key, end);
        }
        if (!antiDependencies) {
          continue;
        }
        if (l.size() < order.size()) {
          final Transaction next = by.get(order.get(l.size()));
          if (next != null) {
            edge(r.txn(), next, EdgeKind.RW, key, end);
          }
        } else {
          for (final Transaction u : open) {
            edge(r.txn(), u, EdgeKind.RW, key, end, true);
          }
        }
      }
    }
  }

  /** A cycle's arcs in order, or null: iterative depth-first search (graphs of millions of nodes). */
  private List<Arc> findCycle() {
    final int n = nodes.size();
    final byte[] state = new byte[n]; // 0 new, 1 on the stack, 2 done
    final int[] next = new int[n];
    final Arc[] via = new Arc[n];
    final int[] stack = new int[n];
    for (int root = 0; root < n; root++) {
      if (state[root] != 0) {
        continue;
      }
      int depth = 0;
      stack[depth++] = root;
      state[root] = 1;
      while (depth > 0) {
        final int v = stack[depth - 1];
        final List<Arc> arcs = out.get(v);
        if (next[v] == arcs.size()) {
          state[v] = 2;
          depth--;
          continue;
        }
        final Arc a = arcs.get(next[v]++);
        if (state[a.to()] == 1) {
          final List<Arc> cycle = new ArrayList<>();
          cycle.add(a);
          for (int u = v; u != a.to(); u = via[u].from()) {
            cycle.add(0, via[u]);
          }
          return cycle;
        }
        if (state[a.to()] == 0) {
          state[a.to()] = 1;
          via[a.to()] = a;
          stack[depth++] = a.to();
        }
      }
    }
    return null;
  }

  private Anomaly anomaly(final List<Arc> arcs) {
    final List<Edge> cycle = arcs.stream().map(Arc::edge).toList();
    boolean onlyWw = true;
    int antiDependencies = 0;
    for (final Edge e : cycle) {
      onlyWw &= e.kind() == EdgeKind.WW;
      antiDependencies += e.kind() == EdgeKind.RW ? 1 : 0;
    }
    // Named as Elle's txn cycle explainer and the engine's CycleClassifier name a cycle: by the
    // number of anti-dependencies among its edges (Adya: G-single has exactly one; G2-item, any
    // item cycle with one or more, is reported as such when there are two or more).
    final String type = antiDependencies == 1 ? "G-single" : antiDependencies > 1 ? "G2-item" : onlyWw ? "G0" : "G1c";
    final Set<Level> violates = antiDependencies > 0 ? EnumSet.of(Level.RR) : EnumSet.of(Level.PL2, Level.RR);
    final List<Transaction> txns = new ArrayList<>();
    final Map<String, String> alias = new HashMap<>();
    final StringBuilder text = new StringBuilder("Let:\n");
    for (final Arc a : arcs) {
      final Transaction t = nodes.get(a.from());
      txns.add(t);
      alias.put(t.id(), "T" + txns.size());
      text.append("  T").append(txns.size()).append(" = ").append(t.id()).append(' ').append(t.ops())
          .append(" (session ").append(t.session()).append(", ").append(t.status().wire()).append(")\n");
    }
    text.append("Then:\n");
    for (final Arc a : arcs) {
      final Edge e = a.edge();
      final String from = alias.get(e.from());
      final String to = alias.get(e.to());
      final String read = e.value() == null ? "the empty list of " + e.key() : "a list of " + e.key() + " ending in "
          + e.value();
      final String order = "the whole order every read of " + e.key() + " is a prefix of";
      text.append("  - ").append(from).append(" < ").append(to).append(", because ").append(switch (e.kind()) {
        case WW -> a.unshown()
            ? to + " appended to " + e.key() + " an element no committed read shows, which comes after " + order
                + ", ending in " + from + "'s " + e.value()
            : to + " appended to " + e.key() + " the element right after " + from + "'s " + e.value() + " (the order every "
                + "read of " + e.key() + " is a prefix of)";
        case WR -> to + " read a list of " + e.key() + " ending in " + e.value() + ", which " + from + " appended";
        case RW -> a.unshown()
            ? from + " read " + read + ", " + order + ", and " + to + " appended an element no committed read shows, "
                + "which comes after that order"
            : from + " read " + read + ", and " + to + " appended the element after it";
        default -> e.kind().name();
      }).append(";\n");
    }
    text.append("However, that makes ").append(alias.get(cycle.get(0).from())).append(" precede itself: a cycle of ")
        .append(antiDependencies == 1 ? "dependencies with exactly one anti-dependency (Adya's G-single, an item cycle "
            + "RR forbids as G2-item)"
            : antiDependencies > 1 ? "dependencies with " + antiDependencies + " anti-dependencies (Adya's G2-item)"
            : onlyWw ? "write dependencies (Adya's G0)" : "write and read dependencies (Adya's G1c)")
        .append(" without session order. This violates ").append(antiDependencies > 0 ? "RR" : "PL2 and RR")
        .append(" (").append(type).append(").");
    return new Anomaly(type, null, violates, txns, cycle, text.toString());
  }
}
