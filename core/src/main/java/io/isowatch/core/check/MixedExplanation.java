package io.isowatch.core.check;

import io.isowatch.core.check.MixedStep.Rule;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The counterexample of a violated {@link Level#MIXED}: a cycle of precedences that every commit
 * order would need, each step a fact or a consequence of one reader's declared level, and the
 * promises that break (the declared levels of the readers whose axioms the cycle uses).
 */
final class MixedExplanation {
  private static final int INIT = WeakGraph.INIT;

  private final WeakGraph g;
  private final Level[] level;
  private final Set<Level> requested;
  /** The level every reader is judged at when no level is declared ({@link #uniform}), else null. */
  private Level uniform;
  /** The saturation the steps come from, to explain the precedences a step relied on; null for SO ∪ WR cycles. */
  private final MixedSaturation known;
  /** When the graph is a core of a larger history: that history's counted transactions (else 0) and levels. */
  private int total;
  /** While a split is written: the number of the case that assumed each case step. */
  private final Map<MixedStep, String> assumedAt = new java.util.HashMap<>();
  private Level[] totalLevel;

  MixedExplanation(final WeakGraph g, final Level[] level, final Set<Level> requested, final MixedSaturation known) {
    this.g = g;
    this.level = level;
    this.requested = requested;
    this.known = known;
  }

  /**
   * Marks the explanation as one of a uniform level (every reader judged at {@code level}, none
   * declared): it names that level's axiom instead of declared promises, and lists that level and
   * the stronger ones, not MIXED.
   */
  MixedExplanation uniform(final Level level) {
    this.uniform = level;
    return this;
  }

  /**
   * Marks the graph as the sub-history ({@link WeakGraph#sub}) of a history of {@code total}
   * counted transactions whose levels are {@code levels}: the explanation says that it uses only
   * these transactions, and names the levels the whole history violates.
   */
  /** How a reader's level is named: declared by the transaction, or the uniform level it is judged at. */
  private String declared(final Level l) {
    return (uniform != null ? "judged at " : "declared ") + l;
  }

  MixedExplanation asCoreOf(final int total, final Level[] levels) {
    this.total = total;
    this.totalLevel = levels;
    return this;
  }

  /**
   * What a violation of the mixed configuration also violates: every uniform level at least as
   * strong as the strongest one declared (it is stronger, read by read, than the configuration).
   */
  Set<Level> violates() {
    Level strongest = Level.RC;
    final Level[] declared = totalLevel != null ? totalLevel : level;
    for (int t = 1; t < declared.length; t++) {
      if (declared[t] != null && declared[t].ordinal() > strongest.ordinal()) {
        strongest = declared[t];
      }
    }
    if (uniform != null) {
      return uniform.andStronger();
    }
    final Set<Level> out = EnumSet.of(Level.MIXED);
    out.addAll(strongest.andStronger());
    return out;
  }

  Anomaly anomaly(final List<MixedStep> cycle) {
    final List<Edge> edges = new ArrayList<>();
    final LinkedHashSet<Integer> txns = new LinkedHashSet<>();
    final Map<Integer, Level> promises = new LinkedHashMap<>();
    final StringBuilder then = new StringBuilder("Then:\n");
    boolean session = false;
    for (final MixedStep s : cycle) {
      txns.add(s.from());
      session |= s.rule() == Rule.SO;
      edges.add(new Edge(g.id(s.from()), g.id(s.to()), kind(s), s.key(), s.value()));
      then.append("  - ").append(g.id(s.from())).append(" < ").append(g.id(s.to())).append(", because ")
          .append(because(s)).append(";\n");
      if (s.derived()) {
        promises.putIfAbsent(s.reader(), level[s.reader()]);
      }
    }
    final LinkedHashSet<Integer> whereNodes = new LinkedHashSet<>();
    if (known != null) {
      render(where(known, cycle), "  ", then, promises, whereNodes);
    }
    final long derived = cycle.stream().filter(MixedStep::derived).count();
    final String type = derived == 0 ? "G1c" + (session ? "-process" : "") : derived == 1 ? "G-single" : "G2-item";
    final String name = name(cycle, derived);
    final LinkedHashSet<Integer> mentioned = new LinkedHashSet<>(txns);
    mentioned.addAll(promises.keySet());
    mentioned.addAll(whereNodes);
    mentioned.remove(INIT);
    txns.remove(INIT);
    final List<Transaction> involved = new ArrayList<>();
    for (final int v : txns) {
      involved.add(g.txn(v));
    }
    final Set<Level> shown = Level.shown(violates(), requested);
    final List<String> broken = new ArrayList<>();
    promises.forEach((t, l) -> broken.add(g.id(t) + (uniform != null ? "" : " (declared " + l + ")")));
    final String promise = broken.isEmpty()
        ? "SO ∪ WR is cyclic, so no commit order exists at any level"
        : uniform != null ? "the axiom of " + uniform + " breaks at a read of " + String.join(", ", broken)
        + " (every read judged at " + uniform + ")"
        : "the promise broken is that of " + String.join(", ", broken) + " (each read is judged at its reader's declared level)";
    return new Anomaly(type, name, shown, involved, edges, let(mentioned) + then
        + "No commit order has all these precedences, so " + promise + ". This violates "
        + String.join(", ", Level.strongestFirst(shown).stream().map(Level::name).toList()) + " (" + type
        + (name == null ? "" : ", " + name) + ")", brokenRead(cycle));
  }

  /**
   * The read the counterexample is about: that of the first step a reader's declared level derived,
   * or, in a cycle of facts alone, the read of its first WR step. It sets the counterexample apart
   * from a cycle of the same edges the classic engine reports for SER or SI (an anomaly's identity
   * leaves its levels out, schemas/README.md "Anomaly ids"), so that both are published.
   */
  private AnomalyRead brokenRead(final List<MixedStep> cycle) {
    for (final MixedStep s : cycle) {
      if (s.derived() && s.reader() > 0 && s.key() != null) {
        return read(s.reader(), s.key(), s.value());
      }
    }
    for (final MixedStep s : cycle) {
      if (s.rule() == Rule.WR) {
        return read(s.to(), s.key(), s.value());
      }
    }
    return null;
  }

  private AnomalyRead read(final int reader, final String key, final Long value) {
    final List<Op> ops = g.txn(reader).ops();
    for (int i = 0; i < ops.size(); i++) {
      final Op op = ops.get(i);
      if (op.isRead() && op.key().equals(key) && java.util.Objects.equals(op.value(), value)) {
        return new AnomalyRead(g.id(reader), i, key, value);
      }
    }
    return null;
  }

  /**
   * The counterexample when no single cycle is forced: a case split every commit order must take
   * (any order outside its cases breaks the read the split is on), each case closing a cycle or
   * split again, down to cycles. The graph drawn is the first case's cycle; every case is written out.
   */
  Anomaly bySplit(final MixedSearch.Split split) {
    final List<MixedStep> firstCycle = split.cases().get(0).firstCycle();
    final Anomaly first = anomaly(firstCycle);
    final StringBuilder text = new StringBuilder();
    final LinkedHashSet<Integer> mentioned = new LinkedHashSet<>();
    final Map<Integer, Level> promises = new LinkedHashMap<>();
    split(split, "", "", text, mentioned, promises);
    mentioned.remove(INIT);
    final Set<Level> shown = Level.shown(violates(), requested);
    final List<String> broken = new ArrayList<>();
    promises.forEach((t, l) -> broken.add(g.id(t) + (uniform != null ? "" : " (declared " + l + ")")));
    final String judged = uniform != null ? uniform.name() : "its reader's declared level";
    final String breaks = uniform != null ? "the axiom of " + uniform + " at a read of one of " : "the promise of one of ";
    return new Anomaly("G2-item", null, shown, first.transactions(), first.cycle(), let(mentioned) + "Then:\n" + text
        + "So no commit order satisfies every read at " + judged + ": whichever case holds, " + breaks
        + String.join(", ", broken) + " breaks. This violates "
        + String.join(", ", Level.strongestFirst(shown).stream().map(Level::name).toList()) + " (G2-item)",
        first.read());
  }

  /** Writes a split and its cases, numbered under {@code number} and indented by {@code indent}. */
  private void split(final MixedSearch.Split split, final String number, final String indent,
      final StringBuilder text, final Set<Integer> mentioned, final Map<Integer, Level> promises) {
    final MixedCommitOrder.Broken b = split.why();
    final int t1 = b.read().writer();
    mentioned.add(b.t3());
    mentioned.add(t1);
    mentioned.add(b.t2());
    mentioned.add(b.via());
    promises.putIfAbsent(b.t3(), level[b.t3()]);
    final String t3 = g.id(b.t3());
    final String through = b.via() == b.t3() ? "commits before " + t3
        : b.conflict() && b.via() == b.t2() ? "commits before " + t3 + " and writes a key " + t3 + " writes"
        : b.conflict() ? "commits no later than " + g.id(b.via()) + ", which writes a key " + t3
            + " writes and commits before it"
        : b.via() == b.t2() ? t3 + " follows it in SO ∪ WR"
        : "commits no later than " + g.id(b.via()) + ", which " + t3 + " follows in SO ∪ WR";
    text.append(indent).append("Every commit order").append(number.isEmpty() ? "" : " in case " + number)
        .append(" takes one of these ").append(split.cases().size()).append(" cases: in any other, ")
        .append(g.id(b.t2())).append(", which also wrote ").append(b.read().key()).append(", commits after ")
        .append(g.id(t1)).append(" and ").append(through).append(", so ").append(g.id(b.t3())).append(" (").append(declared(level[b.t3()]))
        .append("), which read ").append(b.read().key()).append("=").append(b.read().value())
        .append(t1 == INIT ? ", the initial value," : " from " + g.id(t1)).append(" would have ").append(level[b.t3()])
        .append(" order ").append(g.id(b.t2())).append(" before ").append(g.id(t1)).append(":\n");
    for (int i = 0; i < split.cases().size(); i++) {
      final MixedSearch.Case c = split.cases().get(i);
      final String at = number + (number.isEmpty() ? "" : ".") + (i + 1);
      final MixedStep assumed = c.assumed();
      assumedAt.put(assumed, at);
      mentioned.add(assumed.from());
      mentioned.add(assumed.to());
      text.append(indent).append(at).append(". if ").append(g.id(assumed.from())).append(" < ")
          .append(g.id(assumed.to())).append(c.cycle() != null ? ", this closes a cycle:\n" : ":\n");
      if (c.cycle() == null) {
        split(c.split(), at, indent + "  ", text, mentioned, promises);
        continue;
      }
      for (final MixedStep st : c.cycle()) {
        mentioned.add(st.from());
        if (st.reader() >= 0) {
          mentioned.add(st.reader());
        }
        if (st.derived() && st.rule() != Rule.CASE) {
          promises.putIfAbsent(st.reader(), level[st.reader()]);
        }
        text.append(indent).append("  - ").append(g.id(st.from())).append(" < ").append(g.id(st.to()))
            .append(", because ").append(because(st)).append(";\n");
      }
      if (c.where() != null) {
        render(c.where(), indent + "  ", text, promises, mentioned);
      }
    }
  }


  /** Most "where" lines an explanation gets; the rest follow the same way. */
  private static final int MAX_WHERE = 40;

  /** Why precedence {@code from} before {@code to} holds: {@code path}, by steps recorded before the step that relied on it. */
  record Where(int from, int to, List<MixedStep> path) {}

  /** The "where" lines of a cycle, and whether more were left out. */
  record Wheres(List<Where> lines, boolean more) {}

  /**
   * For each derived step of {@code cycle}, why the precedences it relied on hold in {@code state},
   * by steps recorded before it (so the proof is never circular), and so on for the derived steps
   * those use, up to {@link #MAX_WHERE}.
   */
  Wheres where(final MixedSaturation state, final List<MixedStep> cycle) {
    final java.util.ArrayDeque<MixedStep> work = new java.util.ArrayDeque<>();
    cycle.stream().filter(MixedStep::derived).forEach(work::add);
    final Set<String> done = new java.util.HashSet<>();
    final List<Where> lines = new ArrayList<>();
    while (!work.isEmpty() && lines.size() < MAX_WHERE) {
      final MixedStep s = work.poll();
      for (final int[] need : needs(s)) {
        if (need[0] == INIT || need[0] == need[1] || !done.add(need[0] + "<" + need[1])) {
          continue;
        }
        final List<MixedStep> path = s.rule() == Rule.PREMISE && level[s.reader()] == Level.CC
            ? state.causalPath(need[0], need[1]) : state.pathBefore(need[0], need[1], s);
        if (path == null) {
          continue;
        }
        lines.add(new Where(need[0], need[1], path));
        path.stream().filter(MixedStep::derived).forEach(work::add);
      }
    }
    return new Wheres(lines, !work.isEmpty());
  }

  private void render(final Wheres wheres, final String indent, final StringBuilder then,
      final Map<Integer, Level> promises, final Set<Integer> mentioned) {
    for (final Where w : wheres.lines()) {
      then.append(indent).append("- where ").append(g.id(w.from())).append(" < ").append(g.id(w.to())).append(": ");
      for (int i = 0; i < w.path().size(); i++) {
        final MixedStep p = w.path().get(i);
        mentioned.add(p.from());
        mentioned.add(p.to());
        then.append(i == 0 ? "" : "; ").append(g.id(p.from())).append(" < ").append(g.id(p.to())).append(", because ")
            .append(because(p));
        if (p.derived() && p.rule() != Rule.CASE) {
          promises.putIfAbsent(p.reader(), level[p.reader()]);
          mentioned.add(p.reader());
        }
      }
      then.append(";\n");
    }
    if (wheres.more()) {
      then.append(indent).append("- (the remaining precedences follow the same way)\n");
    }
  }

  /** The precedences (a, b), a before b, that step {@code s} relied on. */
  private List<int[]> needs(final MixedStep s) {
    final int t3 = s.reader();
    final int t1 = s.writer();
    final List<int[]> out = new ArrayList<>(2);
    switch (s.rule()) {
      case PREMISE -> {
        if (level[t3] == Level.SER || level[t3] == Level.CC) {
          out.add(new int[] {s.from(), t3});
        } else {
          out.add(new int[] {s.from(), s.other()});
          if (!isPredecessor(s.other(), t3)) {
            out.add(new int[] {s.other(), t3});
          }
        }
      }
      case READER_FIRST -> out.add(new int[] {t1, s.to()});
      case PREDECESSOR_FIRST -> {
        out.add(new int[] {t1, s.to()});
        if (!isPredecessor(s.from(), t3)) {
          out.add(new int[] {s.from(), t3});
        }
      }
      case CONFLICT_AFTER -> {
        out.add(new int[] {t1, s.other()});
        out.add(new int[] {s.other(), s.to()});
      }
      default -> { }
    }
    return out;
  }

  private String because(final MixedStep s) {
    final String read = s.reader() < 0 ? null : g.id(s.reader()) + " (" + declared(level[s.reader()]) + ") read "
        + s.key() + "=" + s.value() + (s.writer() == INIT ? ", the initial value," : " from " + g.id(s.writer()));
    return switch (s.rule()) {
      case INIT -> "the initial transaction precedes every other";
      case SO -> g.id(s.from()) + " precedes " + g.id(s.to()) + " in session " + g.txn(s.to()).session();
      case WR -> g.id(s.to()) + " read " + s.key() + "=" + s.value() + ", which " + g.id(s.from()) + " wrote";
      case AXIOM -> read + " although it had seen " + g.id(s.from()) + ", which also wrote " + s.key() + " ("
          + seen(s.arc().why().seen()) + "), and " + level[s.reader()] + " orders such a writer first";
      case PREMISE -> read + " while " + g.id(s.from()) + ", which also wrote " + s.key() + ", "
          + premise(s) + ", and " + level[s.reader()] + " then orders it before the writer read";
      case READER_FIRST -> read + " and " + g.id(s.to()) + ", which also wrote " + s.key() + ", commits after "
          + g.id(s.writer()) + ": had it committed before " + g.id(s.reader()) + ", SER would order it before "
          + g.id(s.writer());
      case PREDECESSOR_FIRST -> read + " and " + g.id(s.to()) + ", which also wrote " + s.key() + ", commits after "
          + g.id(s.writer()) + ": had it committed no later than " + g.id(s.from()) + (s.other() == s.from()
          && isPredecessor(s.from(), s.reader()) ? ", which " + g.id(s.reader()) + " follows in SO ∪ WR" : "")
          + ", " + level[s.reader()] + " would order it before " + g.id(s.writer());
      case CONFLICT_AFTER -> read + ", " + g.id(s.other()) + " also wrote " + s.key() + " after "
          + g.id(s.writer()) + " and commits no later than " + g.id(s.to()) + ", which writes a key "
          + g.id(s.reader()) + " writes: had " + g.id(s.to()) + " committed before " + g.id(s.reader())
          + ", SI's Conflict axiom would order " + g.id(s.other()) + " before " + g.id(s.writer());
      case CASE -> (assumedAt.containsKey(s) ? "case " + assumedAt.get(s) + " assumes it" : "this case assumes it")
          + " (" + (read.endsWith(",") ? read + " and " : read + ", and ") + g.id(s.other()) + " relates the writers)";
    };
  }

  private String premise(final MixedStep s) {
    return switch (level[s.reader()]) {
      case SER -> "commits before " + g.id(s.reader());
      case CC -> "precedes " + g.id(s.reader()) + " causally (SO ∪ WR)+";
      // When the writer is itself the transaction related to the reader, say so directly, not
      // "T3 commits no later than T3".
      default -> s.other() == s.from()
          ? isPredecessor(s.from(), s.reader())
              ? "precedes " + g.id(s.reader()) + " in SO ∪ WR"
              : "writes a key " + g.id(s.reader()) + " writes and commits before it (SI's Conflict axiom)"
          : isPredecessor(s.other(), s.reader())
          ? "commits no later than " + g.id(s.other()) + ", which " + g.id(s.reader()) + " follows in SO ∪ WR"
          : "commits no later than " + g.id(s.other()) + ", which writes a key " + g.id(s.reader())
              + " writes and commits before it (SI's Conflict axiom)";
    };
  }

  private boolean isPredecessor(final int p, final int t) {
    if (g.soPred[t] == p) {
      return true;
    }
    return g.reads[t].stream().anyMatch(r -> r.writer() == p);
  }

  private String seen(final List<WeakGraph.Arc> path) {
    final List<String> parts = new ArrayList<>();
    for (final WeakGraph.Arc p : path) {
      parts.add(p.kind() == EdgeKind.SO ? g.id(p.from()) + " precedes " + g.id(p.to()) + " in its session"
          : g.id(p.to()) + " read " + p.key() + "=" + p.value() + " from " + g.id(p.from()));
    }
    return String.join(", ", parts);
  }

  /** A derived step that orders a writer first is drawn as WW, one that orders the reader first as RW. */
  private static EdgeKind kind(final MixedStep s) {
    return switch (s.rule()) {
      case INIT, SO -> EdgeKind.SO;
      case WR -> EdgeKind.WR;
      case READER_FIRST, PREDECESSOR_FIRST, CONFLICT_AFTER -> EdgeKind.RW;
      default -> EdgeKind.WW;
    };
  }

  /**
   * A literature name where the shape has one: two SER readers each ordered before the other's
   * write (LostUpdate on one key, WriteSkew on two); one RC, RA or CC axiom step closed by facts
   * (named as {@link WeakExplanations} names it).
   */
  private String name(final List<MixedStep> cycle, final long derived) {
    if (cycle.size() == 2 && derived == 2 && cycle.stream().allMatch(s -> s.rule() == Rule.READER_FIRST)) {
      return cycle.get(0).key().equals(cycle.get(1).key()) ? "LostUpdate" : "WriteSkew";
    }
    if (derived == 1) {
      final MixedStep d = cycle.stream().filter(MixedStep::derived).findFirst().orElseThrow();
      if (d.rule() == Rule.AXIOM) {
        final List<WeakGraph.Arc> seen = d.arc().why().seen();
        if (seen.stream().allMatch(p -> p.kind() == EdgeKind.SO)) {
          return "SessionGuaranteeViolation";
        }
        return seen.size() > 1 ? "CausalityViolation"
            : level[d.reader()] == Level.RC ? "NonMonotonicRead" : "FracturedRead";
      }
    }
    return null;
  }

  private String let(final Set<Integer> nodes) {
    final StringBuilder let = new StringBuilder("Let:\n  init = the initial transaction, writing the initial value of every key\n");
    if (total > 0) {
      let.append("  (every step below uses only reads and session order among ").append(g.n)
          .append(" of the history's ").append(total).append(" transactions, those the search of forked version ")
          .append("orders used to refute it; the other transactions only add constraints, so they cannot remove ")
          .append("this contradiction)\n");
    }
    for (final int v : nodes) {
      final Transaction t = g.txn(v);
      let.append("  ").append(t.id()).append(" = [")
          .append(String.join(" ", t.ops().stream().map(Op::toString).toList())).append("] (session ")
          .append(t.session()).append(", ").append(t.status() == TxnStatus.COMMITTED ? "committed" : t.status().wire())
          .append(", ").append(declared(level[v])).append(t.line() > 0 ? ", line " + t.line() : "").append(")\n");
    }
    return let.toString();
  }
}
