package io.isowatch.core.listappend;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.graph.IntList;
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

  /**
   * CC's vector clocks hold transactions × sessions ints; above this many, CC is left UNKNOWN with a
   * reason that says so rather than running out of memory (docs/list-append.md, "Not yet").
   */
  public static final long CLOCK_CELLS = 1L << 25;

  private final List<Transaction> nodes = new ArrayList<>();
  private final Map<Transaction, Integer> index = new IdentityHashMap<>();
  /** Per node, its reads: key and writer node (-1: the initial version). */
  private final List<List<Object[]>> reads = new ArrayList<>();
  /** Per key, the appender nodes of every version (shown ones first in list order, then the others). */
  private final Map<String, Set<Integer>> appendersOf = new HashMap<>();
  /** Per key and writer node (-1: initial), the appenders after that writer's version. */
  private final Map<String, Map<Integer, List<Integer>>> later = new HashMap<>();
  /** The arcs SO, WR and WW, each with what it is (an {@link Edge} and why it holds), told on demand ({@link #why}). */
  private final Arcs base = new Arcs();
  /** Per key named by an arc, its name and the longest external read of it. */
  private final List<String> keyNames = new ArrayList<>();
  private final Map<String, Integer> keyIds = new HashMap<>();
  private Map<String, List<Long>> longestRead = Map.of();
  private Map<String, Map<Integer, List<Long>>> appendedBy = Map.of();
  /** Per node and read, the list it read. */
  private final List<List<List<Long>>> readLists = new ArrayList<>();

  /**
   * An arc's counterexample edges (one, or two for PC's arcs), why it holds, and the nodes its
   * reason names beyond the edges' sources (a premise's reader), which the Let lines show too.
   */
  private record Why(List<Edge> edges, java.util.function.Supplier<String> because, List<String> mentions) {
    Why(final List<Edge> edges, final java.util.function.Supplier<String> because) {
      this(edges, because, List.of());
    }
  }
  /** Per node, the node before it in its session (-1: none), its session and its position there. */
  private final List<Integer> soPred = new ArrayList<>();
  private final List<Integer> sessionOf = new ArrayList<>();
  private final List<Integer> positionOf = new ArrayList<>();
  /** Per node and read, the last node before it in its session that appends the key (-1: none). */
  private final List<int[]> sessionWriter = new ArrayList<>();
  /** Per key and session, the key's appenders in that session, in session order. */
  private final Map<String, Map<Integer, List<Integer>>> writersBySession = new HashMap<>();
  private int sessions;

  private ListWeakLevels() {}

  /**
   * Verdicts (true: VIOLATED), a counterexample for each violated level, and why a level asked for
   * is not decided (CC past {@link #CLOCK_CELLS}).
   */
  public record Decision(Map<Level, Boolean> violated, Map<Level, Anomaly> counterexamples, Map<Level, String> undecided) {}

  /**
   * The verdicts of the levels of {@code levels} this class decides, with counterexamples; null
   * when the history is outside what it decides (register ops, an element appended twice).
   */
  public static Decision decide(final History history, final ListOrders orders, final Set<Level> levels) {
    final ListWeakLevels w = new ListWeakLevels();
    final StringBuilder why = new StringBuilder();
    final Built built = w.build(history, orders, why);
    if (built == Built.UNDECIDED) {
      return null;
    }
    final Map<Level, Boolean> out = new java.util.EnumMap<>(Level.class);
    final Map<Level, List<Why>> cycles = new java.util.EnumMap<>(Level.class);
    final Map<Level, String> undecided = new java.util.EnumMap<>(Level.class);
    for (final Level l : levels) {
      if (l == Level.CC && built == Built.GRAPH && w.clockCells() > CLOCK_CELLS) {
        undecided.put(l, "CC is decided on list-append histories of at most " + CLOCK_CELLS + " transactions × sessions "
            + "(this one has " + w.nodes.size() + " × " + w.sessions + "; docs/list-append.md); no violation of it is certain");
        continue;
      }
      if (DECIDED.contains(l)) {
        final List<Why> cycle = built == Built.NO_ORDER ? null : w.counterexample(l);
        out.put(l, built == Built.NO_ORDER || cycle != null);
        if (cycle != null) {
          cycles.put(l, cycle);
        }
      }
    }
    final Map<Level, Anomaly> witnesses = new java.util.EnumMap<>(Level.class);
    for (final Level l : Level.weakestFirst(out.keySet())) {
      if (!out.get(l)) {
        continue;
      }
      final Set<Level> violates = java.util.EnumSet.noneOf(Level.class);
      for (final Level m : out.keySet()) {
        if (out.get(m) && (m == l || l.andStronger().contains(m))) {
          violates.add(m);
        }
      }
      witnesses.put(l, built == Built.NO_ORDER ? w.noOrder(why.toString(), violates) : w.anomaly(cycles.get(l), l, violates));
    }
    return new Decision(out, witnesses, undecided);
  }

  private Anomaly noOrder(final String why, final Set<Level> violates) {
    return new Anomaly("incompatible-order", "IncompatibleOrder", violates, List.of(), List.of(), "Let:\n  (the lists read)\n"
        + "Then:\n  - " + why + ";\n  - so no commit order of the appends produces the lists read. This violates "
        + names(violates) + ".");
  }

  private Anomaly anomaly(final List<Why> cycle, final Level level, final Set<Level> violates) {
    final List<Edge> edges = new ArrayList<>();
    final java.util.LinkedHashSet<String> ids = new java.util.LinkedHashSet<>();
    final StringBuilder then = new StringBuilder("Then:\n");
    boolean derived = false;
    for (final Why w : cycle) {
      edges.addAll(w.edges());
      w.edges().forEach(e -> ids.add(e.from()));
      ids.addAll(w.mentions());
      derived |= w.because().get().contains(" must commit before ") || w.edges().stream().anyMatch(e -> e.kind() == EdgeKind.RW);
      then.append("  - ").append(w.because().get()).append(";\n");
    }
    final StringBuilder let = new StringBuilder("Let:\n");
    final List<Transaction> txns = new ArrayList<>();
    for (final Transaction t : nodes) {
      if (ids.contains(t.id())) {
        txns.add(t);
        let.append("  ").append(t.id()).append(" = [").append(String.join(" ", t.ops().stream().map(Op::toString).toList()))
            .append("] (session ").append(t.session()).append(t.line() > 0 ? ", line " + t.line() : "").append(")\n");
      }
    }
    final String type = derived ? "G-single" : "G1c";
    final String name = !derived ? null : switch (level) {
      case RC -> "NonMonotonicRead";
      case RA -> "FracturedRead";
      case CC -> "CausalityViolation";
      default -> "LongFork";
    };
    return new Anomaly(type, name, violates, txns, edges, let.toString() + then
        + "No commit order of these transactions satisfies all of it. This violates " + names(violates) + " ("
        + type + (name == null ? "" : ", " + name) + ")");
  }

  private static String names(final Set<Level> levels) {
    final List<String> names = Level.strongestFirst(levels).stream().map(Level::name).toList();
    return names.size() == 1 ? names.get(0)
        : String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
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
    final Map<String, Set<Long>> everAppended = new HashMap<>();
    final Map<String, List<Integer>> sessionMembers = new HashMap<>();
    for (final Transaction t : history.transactions()) {
      for (final Op op : t.ops()) {
        if (op.isWrite() || (!op.isRead() && !op.isAppend())) {
          return Built.UNDECIDED; // a register write: not a list-append version
        }
        if (op.isAppend() && !everAppended.computeIfAbsent(op.key(), k -> new HashSet<>()).add(op.value())) {
          return Built.UNDECIDED; // an element appended twice: the lists do not name versions
        }
      }
    }
    final Map<String, Integer> sessionIds = new HashMap<>();
    final Map<Integer, Map<String, Integer>> lastWriter = new HashMap<>();
    for (final Transaction t : nodes) {
      final int me = index.get(t);
      final List<Integer> members = sessionMembers.computeIfAbsent(t.session(), k -> new ArrayList<>());
      soPred.add(members.isEmpty() ? -1 : members.get(members.size() - 1));
      final int session = sessionIds.computeIfAbsent(t.session(), k -> sessionIds.size());
      sessionOf.add(session);
      positionOf.add(members.size());
      members.add(me);
      final Map<String, Integer> last = lastWriter.computeIfAbsent(session, k -> new HashMap<>());
      int readCount = 0;
      for (final Op op : t.ops()) {
        readCount += op.isRead() ? 1 : 0;
      }
      final int[] readWriters = new int[readCount];
      readCount = 0;
      for (final Op op : t.ops()) {
        if (op.isRead()) {
          readWriters[readCount++] = last.getOrDefault(op.key(), -1);
        }
      }
      sessionWriter.add(readWriters);
      for (final Op op : t.ops()) {
        if (op.isAppend()) {
          if (!Integer.valueOf(me).equals(last.put(op.key(), me))) {
            writersBySession.computeIfAbsent(op.key(), k -> new HashMap<>()).computeIfAbsent(session,
                k -> new ArrayList<>()).add(me);
          }
          appender.computeIfAbsent(op.key(), k -> new HashMap<>()).put(op.value(), me);
          appended.computeIfAbsent(op.key(), k -> new HashMap<>()).computeIfAbsent(me, k -> new ArrayList<>())
              .add(op.value());
          appendersOf.computeIfAbsent(op.key(), k -> new java.util.LinkedHashSet<>()).add(me);
        }
      }
    }
    final Map<String, List<Long>> longest = new HashMap<>();
    /** Per key, the node and read index of its longest external read (what the reasons quote as read). */
    final Map<String, int[]> longestAt = new HashMap<>();
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
          why.append(t.id()).append(" read ").append(op.key()).append('=').append(format(list))
              .append(", which does not end with its own appends ").append(format(ownList));
          return Built.NO_ORDER;
        }
        final List<Long> external = ownList.isEmpty() ? list : list.subList(0, list.size() - ownList.size());
        mine.add(new Object[] {op.key(), external});
        final List<Long> l = longest.get(op.key());
        if (l == null || external.size() > l.size()) {
          longest.put(op.key(), external);
          longestAt.put(op.key(), new int[] {index.get(t), mine.size() - 1});
        }
      }
      externals.add(mine);
    }
    sessions = sessionIds.size();
    longestRead = longest;
    appendedBy = appended;
    final Map<String, List<Integer>> chains = new HashMap<>();
    for (final Map.Entry<String, List<Long>> e : longest.entrySet()) {
      final String x = e.getKey();
      final List<Long> order = e.getValue();
      final List<Integer> chain = new ArrayList<>();
      final Set<Integer> inChain = new HashSet<>();
      int i = 0;
      while (i < order.size()) {
        final Integer a = appender.getOrDefault(x, Map.of()).get(order.get(i));
        if (a == null) {
          why.append(readAt(longestAt.get(x), x, order)).append(", which shows ").append(order.get(i))
              .append(", which no committed transaction appended");
          return Built.NO_ORDER;
        }
        final List<Long> whole = appended.get(x).get(a);
        if (inChain.contains(a) || order.size() - i < whole.size() && !order.subList(i, order.size())
            .equals(whole.subList(0, order.size() - i)) || order.size() - i >= whole.size()
            && !order.subList(i, i + whole.size()).equals(whole)) {
          why.append(readAt(longestAt.get(x), x, order)).append(", which does not hold ").append(nodes.get(a).id())
              .append("'s appends ").append(format(whole)).append(" together and in order");
          return Built.NO_ORDER;
        }
        chain.add(a);
        inChain.add(a);
        i += whole.size();
      }
      chains.put(x, chain);
    }
    for (int t = 0; t < nodes.size(); t++) {
      final List<Object[]> mine = new ArrayList<>();
      final List<List<Long>> lists = new ArrayList<>();
      for (int ri = 0; ri < externals.get(t).size(); ri++) {
        final Object[] r = externals.get(t).get(ri);
        final String x = (String) r[0];
        @SuppressWarnings("unchecked")
        final List<Long> external = (List<Long>) r[1];
        final List<Long> order = longest.get(x);
        if (!isPrefix(external, order)) {
          why.append(readAt(new int[] {t, ri}, x, external)).append(", and ").append(readAt(longestAt.get(x), x, order))
              .append(": past the reader's own appends, neither is a prefix of the other");
          return Built.NO_ORDER;
        }
        final int writer = external.isEmpty() ? -1 : appender.get(x).get(external.get(external.size() - 1));
        if (writer >= 0) {
          final List<Long> whole = appended.get(x).get(writer);
          if (!whole.get(whole.size() - 1).equals(external.get(external.size() - 1)) || writer == t) {
            why.append(readAt(new int[] {t, ri}, x, external)).append(", ")
                .append(writer == t ? "its own later append" : "an intermediate version of " + nodes.get(writer).id());
            return Built.NO_ORDER;
          }
        }
        mine.add(new Object[] {x, writer});
        lists.add(external);
      }
      reads.add(mine);
      readLists.add(lists);
    }
    for (final Map.Entry<String, Set<Integer>> e : appendersOf.entrySet()) {
      final List<Integer> chain = chains.getOrDefault(e.getKey(), List.of());
      final Set<Integer> shown = new HashSet<>(chain);
      final List<Integer> unshown = new ArrayList<>();
      for (final int a : e.getValue()) {
        if (!shown.contains(a)) {
          unshown.add(a);
        }
      }
      final int x = keyId(e.getKey());
      for (int i = 0; i + 1 < chain.size(); i++) {
        base.add(Arcs.WW_NEXT, chain.get(i), chain.get(i + 1), x, 0);
      }
      if (!chain.isEmpty()) {
        final int last = chain.get(chain.size() - 1);
        for (final int u : unshown) {
          base.add(Arcs.WW_UNSHOWN, last, u, x, 0);
        }
      }
      // The appenders right after each version: the next one shown, or after the last shown version
      // every unshown one; the later ones follow those by WW, so PC's arcs to these imply the rest.
      final Map<Integer, List<Integer>> after = new HashMap<>();
      after.put(-1, chain.isEmpty() ? unshown : List.of(chain.get(0)));
      for (int i = 0; i < chain.size(); i++) {
        after.put(chain.get(i), i + 1 < chain.size() ? List.of(chain.get(i + 1)) : unshown);
      }
      later.put(e.getKey(), after);
    }
    for (int t = 0; t < nodes.size(); t++) {
      final int p = soPred.get(t);
      if (p >= 0) {
        base.add(Arcs.SO, p, t, 0, 0);
      }
      for (int i = 0; i < reads.get(t).size(); i++) {
        final int w = (Integer) reads.get(t).get(i)[1];
        if (w >= 0) {
          base.add(Arcs.WR, w, t, t, i);
        }
      }
    }
    return Built.GRAPH;
  }

  /** "T read x=[..]" for read {@code at[1]} of node {@code at[0]}, as the history has it ({@link #shown}). */
  private String readAt(final int[] at, final String x, final List<Long> external) {
    return id(at[0]) + " read " + shown(at[0], at[1], x, external);
  }

  /** True when {@code a} is a prefix of {@code b} (lists of list reads compared as arrays). */
  private static boolean isPrefix(final List<Long> a, final List<Long> b) {
    if (a instanceof io.isowatch.core.history.LongList x && b instanceof io.isowatch.core.history.LongList y) {
      return x.prefixOf(y);
    }
    return a.size() <= b.size() && b.subList(0, a.size()).equals(a);
  }

  private int keyId(final String key) {
    return keyIds.computeIfAbsent(key, k -> {
      keyNames.add(k);
      return keyNames.size() - 1;
    });
  }

  /**
   * The arcs of a graph as parallel int arrays (a graph of 10^5 transactions has millions of arcs
   * for CC; an object and an explanation per arc ran out of a 2 GB heap): the ends, the kind, and
   * two ints saying where the arc comes from, enough to tell it ({@link #why}) when it is in a cycle.
   */
  private static final class Arcs {
    /** p → t: p precedes t in its session. */
    static final int SO = 0;
    /** w → t: read {@code b} of t ({@code a}) ends in an element w appended. */
    static final int WR = 1;
    /** a → b: b's appends to key {@code a} follow a's in the longest read. */
    static final int WW_NEXT = 2;
    /** last → u: u's append to key {@code a} appears in no read. */
    static final int WW_UNSHOWN = 3;
    /** t2 → t1: RC's, RA's or CC's premise at read {@code b} of t ({@code a}). */
    static final int PREMISE = 4;
    /** t4 → t2: PC's arc at read {@code b} of t ({@code a}). */
    static final int PREFIX = 5;

    int size;
    int[] from = new int[64];
    int[] to = new int[64];
    int[] kind = new int[64];
    int[] a = new int[64];
    int[] b = new int[64];

    void add(final int k, final int f, final int t, final int x, final int y) {
      if (size == from.length) {
        final int n = size + (size >> 1) + 1;
        from = java.util.Arrays.copyOf(from, n);
        to = java.util.Arrays.copyOf(to, n);
        kind = java.util.Arrays.copyOf(kind, n);
        a = java.util.Arrays.copyOf(a, n);
        b = java.util.Arrays.copyOf(b, n);
      }
      from[size] = f;
      to[size] = t;
      kind[size] = k;
      a[size] = x;
      b[size] = y;
      size++;
    }

    Arcs copy() {
      final Arcs c = new Arcs();
      c.size = size;
      c.from = from.clone();
      c.to = to.clone();
      c.kind = kind.clone();
      c.a = a.clone();
      c.b = b.clone();
      return c;
    }
  }

  /** Arc k told: its counterexample edges and why it holds (PREMISE arcs: at {@code level}). */
  private Why why(final Arcs arcs, final int k, final Level level) {
    final int from = arcs.from[k];
    final int to = arcs.to[k];
    switch (arcs.kind[k]) {
      case Arcs.SO:
        return new Why(List.of(new Edge(id(from), id(to), EdgeKind.SO, null, null)),
            () -> id(from) + " precedes " + id(to) + " in its session");
      case Arcs.WR: {
        final int t = arcs.a[k];
        final int i = arcs.b[k];
        final String x = (String) reads.get(t).get(i)[0];
        final List<Long> list = readLists.get(t).get(i);
        return new Why(List.of(new Edge(id(from), id(to), EdgeKind.WR, x, list.get(list.size() - 1))), () -> id(to)
            + " read " + shown(t, i, x, list) + ", whose last element " + id(from) + " appended");
      }
      case Arcs.WW_NEXT: {
        final String x = keyNames.get(arcs.a[k]);
        return new Why(List.of(new Edge(id(from), id(to), EdgeKind.WW, x, lastOf(appendedBy, x, from))), () -> id(to)
            + "'s appends to " + x + " follow " + id(from) + "'s in " + x + "=" + format(longestRead.get(x)));
      }
      case Arcs.WW_UNSHOWN: {
        final String x = keyNames.get(arcs.a[k]);
        return new Why(List.of(new Edge(id(from), id(to), EdgeKind.WW, x, lastOf(appendedBy, x, from))), () -> id(to)
            + "'s append to " + x + " appears in no read, so it follows the last element a read shows, " + id(from)
            + "'s " + lastOf(appendedBy, x, from));
      }
      case Arcs.PREMISE: {
        final int t = arcs.a[k];
        final int i = arcs.b[k];
        final String x = (String) reads.get(t).get(i)[0];
        final List<Long> list = readLists.get(t).get(i);
        return new Why(List.of(new Edge(id(from), id(to), EdgeKind.WW, x, null)), () -> id(from) + " must commit before "
            + id(to) + ", because " + premise(level, t, i, x, list, to, from, true), seenBy(level, t, i, from));
      }
      default: {
        final int t = arcs.a[k];
        final int i = arcs.b[k];
        final String x = (String) reads.get(t).get(i)[0];
        final List<Long> list = readLists.get(t).get(i);
        final int t4 = from;
        final int t2 = to;
        final Edge into = t4 == soPred.get(t) ? new Edge(id(t4), id(t), EdgeKind.SO, null, null)
            : new Edge(id(t4), id(t), EdgeKind.WR, null, null);
        final Edge rw = new Edge(id(t), id(t2), EdgeKind.RW, x, list.isEmpty() ? null : list.get(list.size() - 1));
        return new Why(List.of(into, rw), () -> id(t4) + " must commit before " + id(t2) + ", because " + id(t)
            + " read " + shown(t, i, x, list) + ", which " + id(t2) + "'s append to " + x + " follows, and " + id(t4)
            + " precedes " + id(t) + " (" + (into.kind() == EdgeKind.SO ? "in its session" : id(t) + " read from it")
            + "): under PC a transaction sees every commit before one it depends on directly");
      }
    }
  }

  /**
   * Why t2 must commit before t1 (or the initial version, t1 < 0) when t read x=list from t1 at the
   * level, told with lists: t had seen t2 (how, when {@code tellSeen}: the cycle does not show it),
   * so the level puts t2's appends to x in the list t read, before the element t1 appended; the
   * empty list holds none.
   */
  private String premise(final Level level, final int t, final int i, final String x, final List<Long> list,
      final int t1, final int t2, final boolean tellSeen) {
    final String seen = tellSeen ? " (" + seen(level, t, i, t2) + ")" : "";
    return id(t) + " read " + shown(t, i, x, list) + (t1 < 0 ? ", the empty list," : ", whose last element " + id(t1)
        + " appended,") + " although it had seen " + id(t2) + seen + ", which also appended to " + x + ": " + axiom(level)
        + ", so " + id(t2) + "'s appends to " + x + " belong in " + x + "=" + format(list) + (t1 < 0
        ? ", but the empty list, " + x + "'s initial version, comes before every append"
        : ", before " + id(t1) + "'s " + list.get(list.size() - 1));
  }

  /** The reader t and the transactions {@link #seen} names, for the Let lines. */
  private List<String> seenBy(final Level level, final int t, final int i, final int t2) {
    final java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
    out.add(id(t));
    if (seenByRead(level, t, i, t2) < 0) {
      path(t2, t).forEach(w -> w.edges().forEach(e -> out.add(e.from())));
    }
    return List.copyOf(out);
  }

  /** RC and RA: the index of a read of t (an earlier one, for RC) ending in t2's append, or -1. */
  private int seenByRead(final Level level, final int t, final int i, final int t2) {
    if (level == Level.RC || level == Level.RA) {
      final List<Object[]> rs = reads.get(t);
      for (int j = 0; j < (level == Level.RC ? i : rs.size()); j++) {
        if ((Integer) rs.get(j)[1] == t2) {
          return j;
        }
      }
    }
    return -1;
  }

  /**
   * How t had seen t2 at the level: RC, by an earlier read ending in t2's append; RA, by any such
   * read or its session; CC, by a shortest path of session order and reads.
   */
  private String seen(final Level level, final int t, final int i, final int t2) {
    final int j = seenByRead(level, t, i, t2);
    if (j >= 0) {
      final String y = (String) reads.get(t).get(j)[0];
      return id(t) + " read " + shown(t, j, y, readLists.get(t).get(j)) + ", whose last element " + id(t2) + " appended";
    }
    return String.join(", ", path(t2, t).stream().map(w -> w.because().get()).toList());
  }

  /**
   * Read {@code i} of node t as the history has it, ending in the version it reads from: "x=[1,2]",
   * or, when the list ends in t's own earlier appends, which are left out of what it reads from,
   * "x=[1,2,5], ending in its own append 5, after x=[1,2]" (the text never claims t read a list it did not).
   */
  private String shown(final int t, final int i, final String x, final List<Long> external) {
    int n = 0;
    for (final Op op : nodes.get(t).ops()) {
      if (op.isAppend()) {
        continue;
      }
      if (n++ == i) {
        final List<Long> read = op.isListRead() ? op.elements() : List.of();
        if (read.size() == external.size()) {
          break;
        }
        final List<Long> own = read.subList(external.size(), read.size());
        return x + "=" + format(read) + ", ending in its own append" + (own.size() == 1 ? " " + own.get(0) : "s " + format(own))
            + ", after " + x + "=" + format(external);
      }
    }
    return x + "=" + format(external);
  }

  private static String format(final List<Long> list) {
    return list.toString().replace(" ", "");
  }

  private boolean writes(final int t, final String key) {
    return appendersOf.getOrDefault(key, Set.of()).contains(t);
  }

  private String id(final int node) {
    return nodes.get(node).id();
  }

  private static Long lastOf(final Map<String, Map<Integer, List<Long>>> appended, final String key, final int node) {
    final List<Long> l = appended.get(key).get(node);
    return l.get(l.size() - 1);
  }

  /**
   * A cycle of SO ∪ WR ∪ WW and the level's arcs, each arc with its edges and why it holds (the
   * first line says which read and axiom force the level's arcs); null when there is none.
   *
   * <p>Per read only the premises that matter are visited: RC and RA, the writers of the reader's
   * reads and (RA) the last appender of the key before it in its session (the earlier ones precede
   * that one in SO); CC, per session the last appender of the key that precedes the reader in
   * (SO ∪ WR)+, found by vector clocks; PC, the reader's session predecessor and writers, and the
   * appenders right after the version read (the later ones follow them by WW).
   */
  List<Why> counterexample(final Level level) {
    final Arcs arcs = base.copy();
    int[] clock = null;
    if (level == Level.CC) {
      clock = clocks();
      if (clock == null) {
        return cycle(arcs, level); // SO ∪ WR has a cycle: so has the base graph
      }
    }
    final IntList premises = new IntList();
    for (int node = 0; node < nodes.size(); node++) {
      final int t = node;
      final List<Object[]> rs = reads.get(t);
      for (int i = 0; i < rs.size(); i++) {
        final String x = (String) rs.get(i)[0];
        final int t1 = (Integer) rs.get(i)[1];
        if (level == Level.PC) {
          for (final int t2 : later.getOrDefault(x, Map.of()).getOrDefault(t1, List.of())) {
            if (t2 == t) {
              continue; // the reader's own append: its predecessors precede it already
            }
            final int p = soPred.get(t);
            if (p >= 0) {
              arcs.add(Arcs.PREFIX, p, t2, t, i);
            }
            for (final Object[] r : rs) {
              if ((Integer) r[1] >= 0) {
                arcs.add(Arcs.PREFIX, (Integer) r[1], t2, t, i);
              }
            }
          }
          continue;
        }
        premises.clear();
        premises(level, t, i, x, clock, premises);
        for (int j = 0; j < premises.size(); j++) {
          final int t2 = premises.get(j);
          if (t2 < 0 || t2 == t1 || t2 == t || !writes(t2, x)) {
            continue;
          }
          if (t1 < 0) {
            // t2 would have to commit before the initial version: the path by which the reader saw it, and back.
            final List<Why> cycle = new ArrayList<>(path(t2, t));
            final List<Long> list = readLists.get(t).get(i);
            final int read = i;
            cycle.add(new Why(List.of(new Edge(id(t), id(t2), EdgeKind.RW, x, null)), () -> premise(level, t, read, x, list,
                t1, t2, false)));
            return cycle;
          }
          arcs.add(Arcs.PREMISE, t2, t1, t, i);
        }
      }
    }
    return cycle(arcs, level);
  }

  /** The candidate premises t2 of read i (key x) of node t at the level (RC, RA or CC). */
  private void premises(final Level level, final int t, final int i, final String x, final int[] clock,
      final IntList out) {
    final List<Object[]> rs = reads.get(t);
    if (level == Level.CC) {
      final Map<Integer, List<Integer>> bySession = writersBySession.getOrDefault(x, Map.of());
      for (final Map.Entry<Integer, List<Integer>> e : bySession.entrySet()) {
        final int upTo = clock[t * sessions + e.getKey()];
        final int w = lastAtOrBefore(e.getValue(), upTo);
        if (w >= 0) {
          out.add(w);
        }
      }
      return;
    }
    for (int j = 0; j < (level == Level.RA ? rs.size() : i); j++) {
      out.add((Integer) rs.get(j)[1]);
    }
    if (level == Level.RA) {
      out.add(sessionWriter.get(t)[i]);
    }
  }

  /** The last of a session's appenders (in session order) at a position at most upTo, or -1. */
  private int lastAtOrBefore(final List<Integer> writers, final int upTo) {
    int lo = 0;
    int hi = writers.size() - 1;
    int found = -1;
    while (lo <= hi) {
      final int mid = (lo + hi) >>> 1;
      if (positionOf.get(writers.get(mid)) <= upTo) {
        found = writers.get(mid);
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /**
   * clock[t * sessions + s]: the last position of session s that precedes t in (SO ∪ WR)+, or -1;
   * null when SO ∪ WR has a cycle. Callers check {@link #clockCells} first.
   */
  private int[] clocks() {
    final int n = nodes.size();
    final int[] in = new int[n];
    final List<List<Integer>> succ = new ArrayList<>();
    for (int t = 0; t < n; t++) {
      succ.add(new ArrayList<>());
    }
    for (int t = 0; t < n; t++) {
      for (final int p : directPredecessors(t)) {
        succ.get(p).add(t);
        in[t]++;
      }
    }
    final int[] clock = new int[n * sessions];
    java.util.Arrays.fill(clock, -1);
    final ArrayDeque<Integer> ready = new ArrayDeque<>();
    for (int t = 0; t < n; t++) {
      if (in[t] == 0) {
        ready.add(t);
      }
    }
    int done = 0;
    while (!ready.isEmpty()) {
      final int t = ready.poll();
      done++;
      for (final int p : directPredecessors(t)) {
        for (int c = 0; c < sessions; c++) {
          clock[t * sessions + c] = Math.max(clock[t * sessions + c], clock[p * sessions + c]);
        }
        clock[t * sessions + sessionOf.get(p)] = Math.max(clock[t * sessions + sessionOf.get(p)], positionOf.get(p));
      }
      for (final int v : succ.get(t)) {
        if (--in[v] == 0) {
          ready.add(v);
        }
      }
    }
    return done < n ? null : clock;
  }

  /** How many ints CC's vector clocks take (transactions × sessions). */
  long clockCells() {
    return (long) nodes.size() * sessions;
  }

  private static String axiom(final Level level) {
    return switch (level) {
      case RC -> "under RC a read sees every commit an earlier read of its transaction saw";
      case RA -> "under RA a transaction sees every commit any of its reads or its session saw";
      default -> "under CC a transaction sees every commit that precedes it causally";
    };
  }

  /** A shortest path of SO and WR arcs from {@code from} to {@code to}, as whys. */
  private List<Why> path(final int from, final int to) {
    final int n = nodes.size();
    final List<List<Integer>> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new ArrayList<>());
    }
    for (int k = 0; k < base.size; k++) {
      if (base.kind[k] == Arcs.SO || base.kind[k] == Arcs.WR) {
        out.get(base.from[k]).add(k);
      }
    }
    final int[] prev = new int[n];
    final int[] via = new int[n];
    java.util.Arrays.fill(prev, -2);
    prev[from] = -1;
    final ArrayDeque<Integer> work = new ArrayDeque<>(List.of(from));
    while (!work.isEmpty() && prev[to] == -2) {
      final int u = work.poll();
      for (final int k : out.get(u)) {
        final int v = base.to[k];
        if (prev[v] == -2) {
          prev[v] = u;
          via[v] = k;
          work.add(v);
        }
      }
    }
    final List<Why> path = new ArrayList<>();
    for (int v = to; v != from; v = prev[v]) {
      path.add(0, why(base, via[v], null));
    }
    return path;
  }

  /** A cycle of the arcs, as their whys in order, or null when they are acyclic. */
  private List<Why> cycle(final Arcs arcs, final Level level) {
    final int n = nodes.size();
    final int[] in = new int[n];
    final int[] outStart = new int[n + 1];
    for (int k = 0; k < arcs.size; k++) {
      outStart[arcs.from[k] + 1]++;
      in[arcs.to[k]]++;
    }
    for (int v = 0; v < n; v++) {
      outStart[v + 1] += outStart[v];
    }
    final int[] outArcs = new int[arcs.size]; // per node, its arcs in the order they were added
    final int[] fill = java.util.Arrays.copyOf(outStart, n);
    for (int k = 0; k < arcs.size; k++) {
      outArcs[fill[arcs.from[k]]++] = k;
    }
    final int[] ready = new int[n];
    int head = 0;
    int tail = 0;
    for (int v = 0; v < n; v++) {
      if (in[v] == 0) {
        ready[tail++] = v;
      }
    }
    final boolean[] done = new boolean[n];
    while (head < tail) {
      final int u = ready[head++];
      done[u] = true;
      for (int e = outStart[u]; e < outStart[u + 1]; e++) {
        final int v = arcs.to[outArcs[e]];
        if (--in[v] == 0) {
          ready[tail++] = v;
        }
      }
    }
    if (tail == n) {
      return null;
    }
    int start = 0;
    while (done[start]) {
      start++;
    }
    // Every node left has an arc from another node left: walk them backwards until one repeats,
    // each time along the first arc (in the order added) from a node left.
    final int[] back = new int[n];
    java.util.Arrays.fill(back, -1);
    for (int k = 0; k < arcs.size; k++) {
      final int v = arcs.to[k];
      if (!done[v] && back[v] < 0 && !done[arcs.from[k]]) {
        back[v] = k;
      }
    }
    final Map<Integer, Integer> seenAt = new HashMap<>();
    final List<Integer> walked = new ArrayList<>();
    int u = start;
    while (!seenAt.containsKey(u)) {
      seenAt.put(u, walked.size());
      walked.add(back[u]);
      u = arcs.from[back[u]];
    }
    final List<Why> cycle = new ArrayList<>();
    for (int i = walked.size() - 1; i >= seenAt.get(u); i--) {
      cycle.add(why(arcs, walked.get(i), level));
    }
    return cycle;
  }

  /** The direct predecessors of a node in SO ∪ WR: its session predecessor and its reads' writers. */
  private List<Integer> directPredecessors(final int t) {
    final List<Integer> out = new ArrayList<>(2);
    if (soPred.get(t) >= 0) {
      out.add(soPred.get(t));
    }
    for (final Object[] r : reads.get(t)) {
      if ((Integer) r[1] >= 0) {
        out.add((Integer) r[1]);
      }
    }
    return out;
  }
}
