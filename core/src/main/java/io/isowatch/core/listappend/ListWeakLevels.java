package io.isowatch.core.listappend;

import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides the axiomatic levels RC, RA, CC and PC (Biswas-Enea, paper 002; docs/levels.md) on a
 * list-append history whose lists agree ({@link ListOrders}: no duplicates, every read a prefix).
 *
 * <p>An append is a blind write of its element; the version of a key after it holds every element
 * appended before it in the commit order. So a read of a list reads from the appender of its last
 * element (WR; the empty list: from the initial version), and the commit order must extend each
 * key's version order the lists show (WW: each element's appender before the next one's; every
 * committed append no read shows after the last element any read shows). RC, RA and CC add, for a
 * read of x from t1, an arc t2 → t1 for every other appender t2 of x that the reader read from
 * earlier (RC), read from at all or follows in its session (RA), or follows in (SO ∪ WR)+ (CC);
 * these premises need only SO and WR, so the level holds exactly when SO ∪ WR ∪ WW and those arcs
 * are acyclic (a topological order is a commit order). PC's Prefix axiom, with the version order
 * known, says: when t3 reads x from t1 and t2 appends x after t1 (t3 RW t2), every direct
 * predecessor t4 of t3 in SO ∪ WR commits before t2; so PC holds exactly when SO ∪ WR ∪ WW and the
 * arcs t4 → t2 are acyclic (a self-arc, t2 itself preceding t3, is a violation).
 *
 * <p>The appends no read shows have no known mutual order; none of the arcs above depends on it
 * (they all follow the last shown element, every reader reads before them), so the arcs every
 * order has in common decide: if they are acyclic, a topological order of them orders those
 * appends too and adds no cycle. Indeterminate transactions no read shows are left out (leaving
 * one out only removes arcs).
 */
public final class ListWeakLevels {
  /** The levels decided here. */
  public static final Set<Level> DECIDED = Set.of(Level.RC, Level.RA, Level.CC, Level.PC);

  private final List<Transaction> nodes = new ArrayList<>();
  private final Map<Transaction, Integer> index = new IdentityHashMap<>();
  /** Per node, its reads: key and writer node (-1: the initial version). */
  private final List<List<Object[]>> reads = new ArrayList<>();
  /** Per key, the appender nodes of every version (shown ones first in list order, then the others). */
  private final Map<String, Set<Integer>> appendersOf = new HashMap<>();
  /** Per key and writer node (-1: initial), the appenders after that writer's version. */
  private final Map<String, Map<Integer, List<Integer>>> later = new HashMap<>();
  private final List<int[]> base = new ArrayList<>();
  private final List<List<Integer>> soPreds = new ArrayList<>();

  private ListWeakLevels() {}

  /**
   * The verdicts of the levels of {@code levels} this class decides, true for VIOLATED; null when
   * the history is outside what it decides (register ops, an element appended twice), with every
   * level then undecided. {@code why}, when not null, receives the reason of a violation that is
   * not a cycle (lists no commit order produces).
   */
  public static Map<Level, Boolean> decide(final History history, final ListOrders orders, final Set<Level> levels,
      final StringBuilder why) {
    final ListWeakLevels w = new ListWeakLevels();
    final Built built = w.build(history, orders, why == null ? new StringBuilder() : why);
    if (built == Built.UNDECIDED) {
      return null;
    }
    final Map<Level, Boolean> out = new java.util.EnumMap<>(Level.class);
    for (final Level l : levels) {
      if (DECIDED.contains(l)) {
        out.put(l, built == Built.NO_ORDER || w.cyclic(l));
      }
    }
    return out;
  }

  private enum Built { GRAPH, NO_ORDER, UNDECIDED }

  /**
   * Builds the nodes and the arcs SO, WR and WW. A read's external part is its list less the
   * reader's own earlier appends to the key, which must end it; the external parts of one key must
   * be prefixes of the longest one, which must consist of whole appends of committed transactions
   * (each one's appends to the key together, in its order), and each must end at the last append of
   * its writer, which is not the reader: otherwise no commit order produces the lists (NO_ORDER).
   */
  private Built build(final History history, final ListOrders orders, final StringBuilder why) {
    for (final Transaction t : history.transactions()) {
      if (orders.counted(t)) {
        index.put(t, nodes.size());
        nodes.add(t);
      }
    }
    final Map<String, Map<Long, Integer>> appender = new HashMap<>();
    final Map<String, Map<Integer, List<Long>>> appended = new HashMap<>();
    final Set<String> everAppended = new HashSet<>();
    final Map<String, List<Integer>> sessionMembers = new HashMap<>();
    for (final Transaction t : history.transactions()) {
      for (final Op op : t.ops()) {
        if (op.isWrite() || (!op.isRead() && !op.isAppend())) {
          return Built.UNDECIDED; // a register write: not a list-append version
        }
        if (op.isAppend() && !everAppended.add(op.key() + '\u0000' + op.value())) {
          return Built.UNDECIDED; // an element appended twice: the lists do not name versions
        }
      }
    }
    for (final Transaction t : nodes) {
      final int me = index.get(t);
      soPreds.add(new ArrayList<>(sessionMembers.getOrDefault(t.session(), List.of())));
      sessionMembers.computeIfAbsent(t.session(), k -> new ArrayList<>()).add(me);
      for (final Op op : t.ops()) {
        if (op.isAppend()) {
          appender.computeIfAbsent(op.key(), k -> new HashMap<>()).put(op.value(), me);
          appended.computeIfAbsent(op.key(), k -> new HashMap<>()).computeIfAbsent(me, k -> new ArrayList<>())
              .add(op.value());
          appendersOf.computeIfAbsent(op.key(), k -> new java.util.LinkedHashSet<>()).add(me);
        }
      }
    }
    final Map<String, List<Long>> longest = new HashMap<>();
    final List<List<Object[]>> externals = new ArrayList<>();
    for (final Transaction t : nodes) {
      final List<Object[]> mine = new ArrayList<>();
      final Map<String, List<Long>> own = new HashMap<>();
      for (final Op op : t.ops()) {
        if (op.isAppend()) {
          own.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op.value());
          continue;
        }
        final List<Long> list = op.isListRead() ? op.elements() : op.value() == null ? List.of() : null;
        if (list == null) {
          return Built.UNDECIDED; // a register read
        }
        final List<Long> ownList = own.getOrDefault(op.key(), List.of());
        if (ownList.size() > list.size() || !list.subList(list.size() - ownList.size(), list.size()).equals(ownList)) {
          why.append(t.id()).append(" read ").append(op.key()).append('=').append(list)
              .append(", which does not end with its own appends ").append(ownList);
          return Built.NO_ORDER;
        }
        final List<Long> external = list.subList(0, list.size() - ownList.size());
        mine.add(new Object[] {op.key(), external});
        final List<Long> l = longest.get(op.key());
        if (l == null || external.size() > l.size()) {
          longest.put(op.key(), external);
        }
      }
      externals.add(mine);
    }
    final Map<String, List<Integer>> chains = new HashMap<>();
    for (final Map.Entry<String, List<Long>> e : longest.entrySet()) {
      final String x = e.getKey();
      final List<Long> order = e.getValue();
      final List<Integer> chain = new ArrayList<>();
      int i = 0;
      while (i < order.size()) {
        final Integer a = appender.getOrDefault(x, Map.of()).get(order.get(i));
        if (a == null) {
          why.append(x).append('=').append(order).append(" shows ").append(order.get(i))
              .append(", which no committed transaction appended");
          return Built.NO_ORDER;
        }
        final List<Long> whole = appended.get(x).get(a);
        if (chain.contains(a) || order.size() - i < whole.size() && !order.subList(i, order.size())
            .equals(whole.subList(0, order.size() - i)) || order.size() - i >= whole.size()
            && !order.subList(i, i + whole.size()).equals(whole)) {
          why.append(x).append('=').append(order).append(" does not hold ").append(nodes.get(a).id())
              .append("'s appends ").append(whole).append(" together and in order");
          return Built.NO_ORDER;
        }
        chain.add(a);
        i += whole.size();
      }
      chains.put(x, chain);
    }
    for (int t = 0; t < nodes.size(); t++) {
      final List<Object[]> mine = new ArrayList<>();
      for (final Object[] r : externals.get(t)) {
        final String x = (String) r[0];
        @SuppressWarnings("unchecked")
        final List<Long> external = (List<Long>) r[1];
        final List<Long> order = longest.get(x);
        if (!order.subList(0, external.size()).equals(external)) {
          why.append(nodes.get(t).id()).append(" read ").append(x).append('=').append(external)
              .append(", and another read ").append(x).append('=').append(order).append(": neither is a prefix of the other");
          return Built.NO_ORDER;
        }
        final int writer = external.isEmpty() ? -1 : appender.get(x).get(external.get(external.size() - 1));
        if (writer >= 0) {
          final List<Long> whole = appended.get(x).get(writer);
          if (!whole.get(whole.size() - 1).equals(external.get(external.size() - 1)) || writer == t) {
            why.append(nodes.get(t).id()).append(" read ").append(x).append('=').append(external).append(", ")
                .append(writer == t ? "its own later append" : "an intermediate version of " + nodes.get(writer).id());
            return Built.NO_ORDER;
          }
        }
        mine.add(new Object[] {x, writer});
      }
      reads.add(mine);
    }
    for (final Map.Entry<String, Set<Integer>> e : appendersOf.entrySet()) {
      final List<Integer> chain = chains.getOrDefault(e.getKey(), List.of());
      final List<Integer> unshown = new ArrayList<>(e.getValue());
      unshown.removeAll(chain);
      for (int i = 0; i + 1 < chain.size(); i++) {
        base.add(new int[] {chain.get(i), chain.get(i + 1)});
      }
      if (!chain.isEmpty()) {
        for (final int u : unshown) {
          base.add(new int[] {chain.get(chain.size() - 1), u});
        }
      }
      final Map<Integer, List<Integer>> after = new HashMap<>();
      final List<Integer> all = new ArrayList<>(chain);
      all.addAll(unshown);
      after.put(-1, all);
      for (int i = 0; i < chain.size(); i++) {
        after.put(chain.get(i), all.subList(i + 1, all.size()));
      }
      later.put(e.getKey(), after);
    }
    for (int t = 0; t < nodes.size(); t++) {
      for (final int p : soPreds.get(t)) {
        base.add(new int[] {p, t});
      }
      for (final Object[] r : reads.get(t)) {
        if ((Integer) r[1] >= 0) {
          base.add(new int[] {(Integer) r[1], t});
        }
      }
    }
    return Built.GRAPH;
  }

  private boolean writes(final int t, final String key) {
    return appendersOf.getOrDefault(key, Set.of()).contains(t);
  }

  /** Whether SO ∪ WR ∪ WW and the level's arcs have a cycle. */
  private boolean cyclic(final Level level) {
    final List<int[]> arcs = new ArrayList<>(base);
    final boolean[][] reach = level == Level.CC ? closure() : null;
    for (int t = 0; t < nodes.size(); t++) {
      final List<Object[]> rs = reads.get(t);
      for (int i = 0; i < rs.size(); i++) {
        final String x = (String) rs.get(i)[0];
        final int t1 = (Integer) rs.get(i)[1];
        final Set<Integer> premises = new HashSet<>();
        if (level == Level.RC || level == Level.RA) {
          for (int j = 0; j < (level == Level.RA ? rs.size() : i); j++) {
            premises.add((Integer) rs.get(j)[1]);
          }
          if (level == Level.RA) {
            premises.addAll(soPreds.get(t));
          }
        } else if (level == Level.CC) {
          for (int u = 0; u < nodes.size(); u++) {
            if (reach[u][t]) {
              premises.add(u);
            }
          }
        } else {
          for (final int t2 : later.getOrDefault(x, Map.of()).getOrDefault(t1, List.of())) {
            if (t2 == t) {
              continue;
            }
            for (final int t4 : directPredecessors(t)) {
              arcs.add(new int[] {t4, t2});
            }
          }
          continue;
        }
        for (final int t2 : premises) {
          if (t2 >= 0 && t2 != t1 && writes(t2, x)) {
            if (t1 < 0) {
              return true; // t2 must commit before the initial version
            }
            arcs.add(new int[] {t2, t1});
          }
        }
      }
    }
    return hasCycle(arcs);
  }

  private List<Integer> directPredecessors(final int t) {
    final List<Integer> out = new ArrayList<>(soPreds.get(t));
    for (final Object[] r : reads.get(t)) {
      if ((Integer) r[1] >= 0) {
        out.add((Integer) r[1]);
      }
    }
    return out;
  }

  /** reach[u][t]: u precedes t in (SO ∪ WR)+. */
  private boolean[][] closure() {
    final int n = nodes.size();
    final boolean[][] reach = new boolean[n][n];
    for (int t = 0; t < n; t++) {
      final ArrayDeque<Integer> work = new ArrayDeque<>(directPredecessors(t));
      while (!work.isEmpty()) {
        final int u = work.poll();
        if (!reach[u][t]) {
          reach[u][t] = true;
          work.addAll(directPredecessors(u));
        }
      }
    }
    return reach;
  }

  private boolean hasCycle(final List<int[]> arcs) {
    final int n = nodes.size();
    final int[] in = new int[n];
    final List<List<Integer>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new ArrayList<>());
    }
    for (final int[] a : arcs) {
      out.get(a[0]).add(a[1]);
      in[a[1]]++;
    }
    final ArrayDeque<Integer> ready = new ArrayDeque<>();
    for (int i = 0; i < n; i++) {
      if (in[i] == 0) {
        ready.add(i);
      }
    }
    int done = 0;
    while (!ready.isEmpty()) {
      final int u = ready.poll();
      done++;
      for (final int v : out.get(u)) {
        if (--in[v] == 0) {
          ready.add(v);
        }
      }
    }
    return done < n;
  }
}
