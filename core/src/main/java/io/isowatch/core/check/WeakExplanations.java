package io.isowatch.core.check;

import io.isowatch.core.check.WeakGraph.Arc;
import io.isowatch.core.check.WeakGraph.Read;
import io.isowatch.core.check.WeakGraph.ReadViolation;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import io.isowatch.core.history.TxnStatus;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The counterexamples of the weak levels as typed anomalies: a cycle of {@link WeakGraph} arcs,
 * or a read no level allows, named, classified and explained (Let/Then) so that a person can check
 * it against the raw history. Anomalies list the levels they violate among those shown ({@link
 * Level#shown}).
 */
final class WeakExplanations {
  private static final int INIT = WeakGraph.INIT;

  private final WeakGraph g;
  private final Set<Level> requested;

  WeakExplanations(final WeakGraph g, final Set<Level> requested) {
    this.g = g;
    this.requested = requested;
  }

  /** A read of a value never committed as its writer's last write: it violates every level. */
  Anomaly readViolation(final ReadViolation v) {
    final Transaction r = txn(v.reader());
    final List<Transaction> txns = v.writer() == null ? List.of(r) : List.of(v.writer(), r);
    final Set<Integer> none = Set.of();
    return new Anomaly(v.type(), v.name(), Level.shown(java.util.EnumSet.allOf(Level.class), requested), txns,
        List.of(),
        let(none) + "  " + r.id() + " = [" + String.join(" ", r.ops().stream().map(Op::toString).toList()) + "]\n"
        + "Then:\n  - " + r.id() + " read " + v.key() + "=" + v.value() + " (op " + v.op() + "), but " + v.why()
        + ": no level allows a read of a value that was never committed as its writer's last write.\n"
        + "This violates every level (" + v.type() + ", " + v.name() + ")",
        new AnomalyRead(r.id(), v.op(), v.key(), v.value()));
  }

  /** The counterexample of an Adya level: a DSG cycle of certain edges, classified as Adya does. */
  Anomaly adyaAnomaly(final List<Arc> cycle, final Level level) {
    final List<Edge> edges = new ArrayList<>();
    final LinkedHashSet<Integer> nodes = new LinkedHashSet<>();
    final StringBuilder then = new StringBuilder("Then:\n");
    int rw = 0;
    boolean allWw = true;
    for (final Arc a : cycle) {
      nodes.add(a.from());
      edges.add(edge(a));
      rw += a.kind() == EdgeKind.RW ? 1 : 0;
      allWw &= a.kind() == EdgeKind.WW;
      then.append("  - ").append(id(a.from())).append(" < ").append(id(a.to())).append(", because ")
          .append(switch (a.kind()) {
            case WR -> id(a.to()) + " read " + a.key() + "=" + a.value() + ", which " + id(a.from()) + " wrote";
            case WW -> id(a.to()) + " read " + a.key() + "=" + a.value() + " from " + id(a.from())
                + " and then wrote " + a.key() + ": its version follows " + id(a.from()) + "'s";
            default -> id(a.from()) + " read " + a.key() + "=" + a.value() + ", a version that " + id(a.to())
                + " overwrote";
          }).append(";\n");
    }
    nodes.remove(INIT);
    final String type = rw == 0 ? (allWw ? "G0" : "G1c") : rw == 1 ? "G-single" : "G2-item";
    final String name = cycle.size() == 2 && rw == 2 ? "WriteSkew"
        : cycle.size() == 2 && rw == 1 && cycle.stream().anyMatch(a -> a.kind() == EdgeKind.WW) ? "LostUpdate" : null;
    final Set<Level> violates = rw == 0 ? java.util.EnumSet.allOf(Level.class)
        : java.util.EnumSet.of(Level.RR, Level.SER, Level.SSER);
    final List<Transaction> txns = new ArrayList<>();
    for (final int v : nodes) {
      txns.add(txn(v));
    }
    return new Anomaly(type, name, Level.shown(violates, requested), txns, edges, let(nodes) + then
        + "These edges form a cycle of Adya's direct serialization graph (no session order). This violates "
        + String.join(", ", Level.strongestFirst(Level.shown(violates, requested)).stream().map(Level::name).toList()) + " (" + type
        + (name == null ? "" : ", " + name) + ")");
  }

  private String let(final Set<Integer> nodes) {
    final StringBuilder let = new StringBuilder("Let:\n");
    for (final int v : nodes) {
      if (v == INIT) {
        continue;
      }
      final Transaction t = txn(v);
      let.append("  ").append(t.id()).append(" = [")
          .append(String.join(" ", t.ops().stream().map(Op::toString).toList())).append("] (session ")
          .append(t.session()).append(", ").append(t.status() == TxnStatus.COMMITTED ? "committed" : t.status().wire())
          .append(t.line() > 0 ? ", line " + t.line() : "").append(")\n");
    }
    return let.toString();
  }

  private Transaction txn(final int node) {
    return g.txn(node);
  }

  private String id(final int node) {
    return g.id(node);
  }

  private Long lastWrite(final int node, final String key) {
    return g.lastWrite(node, key);
  }

  /** The counterexample of {@code level}: the cycle, named and explained. */
  /**
   * {@code violates} and RR when neither the reader's view of t2 ({@code seen}) nor why t1 precedes
   * t2 ({@code rest}) uses session order: then, whatever the version order of the key, Adya's DSG
   * has a cycle (t2's version after t1's: the reader's anti-dependency closes it, a G-single; before
   * it: t2's write dependency on t1's path does, a G1c), which PL-2.99 forbids.
   */
  private static Set<Level> withRrWhenSessionFree(final Set<Level> violates, final List<Arc> seen, final List<Arc> rest) {
    if (seen.stream().anyMatch(a -> a.kind() != EdgeKind.WR) || rest.stream().anyMatch(a -> a.kind() != EdgeKind.WR)) {
      return violates;
    }
    final Set<Level> out = java.util.EnumSet.copyOf(violates);
    out.add(Level.RR);
    return out;
  }

  Anomaly anomaly(final List<Arc> cycle, final Level level) {
    int derived = 0;
    int at = -1;
    for (int i = 0; i < cycle.size(); i++) {
      if (cycle.get(i).why() != null) {
        derived++;
        at = i;
      }
    }
    final List<Edge> edges = new ArrayList<>();
    final LinkedHashSet<Integer> inCycle = new LinkedHashSet<>();
    final LinkedHashSet<Integer> mentioned = new LinkedHashSet<>();
    final StringBuilder then = new StringBuilder("Then:\n");
    final String type;
    final String name;
    final Set<Level> violates;
    if (derived == 1) {
      // Drawn as the classic anti-dependency cycle: the reader read x older than the version of t2,
      // a writer it saw; the rest of the cycle is why t1's version precedes t2's.
      final Arc d = cycle.get(at);
      final Read r = d.why().read();
      final int t2 = d.from();
      edges.add(new Edge(id(r.reader()), id(t2), EdgeKind.RW, r.key(), r.value()));
      inCycle.add(r.reader());
      for (final Arc p : d.why().seen()) {
        inCycle.add(p.from());
        edges.add(edge(p));
      }
      final List<Arc> rest = new ArrayList<>();
      for (int i = 1; i < cycle.size(); i++) {
        rest.add(cycle.get((at + i) % cycle.size()));
      }
      final String t1 = r.writer() == INIT ? "init" : id(r.writer());
      then.append("  - ").append(id(r.reader())).append(" read ").append(r.key()).append('=').append(r.value())
          .append(r.writer() == INIT ? ", the initial value" : ", written by " + t1).append(", although it had seen ")
          .append(id(t2)).append(", which also wrote ").append(r.key()).append(" (").append(seenBy(d.why().seen()))
          .append(");\n  - so ").append(axiom(level)).append(": ").append(id(t2)).append(" must commit before ")
          .append(t1).append(";\n  - but ").append(t1).append(" commits before ").append(id(t2));
      if (rest.isEmpty()) {
        then.append(", since the initial transaction precedes every other");
      } else {
        then.append(": ");
        for (int i = 0; i < rest.size(); i++) {
          then.append(i == 0 ? "" : ", ").append(fact(rest.get(i)));
          mentioned.add(rest.get(i).from());
        }
      }
      then.append(".\n");
      type = "G-single" + (d.why().seen().stream().allMatch(p -> p.kind() == EdgeKind.SO) ? "-process" : "");
      name = nameOf(d, level);
      violates = withRrWhenSessionFree(level.andStronger(), d.why().seen(), rest);
    } else {
      for (final Arc a : cycle) {
        inCycle.add(a.from());
        if (a.why() == null) {
          edges.add(edge(a));
          then.append("  - ").append(fact(a)).append(";\n");
        } else {
          final Read r = a.why().read();
          edges.add(new Edge(id(a.from()), id(a.to()), EdgeKind.WW, r.key(), lastWrite(a.from(), r.key())));
          mentioned.add(r.reader());
          then.append("  - ").append(id(a.from())).append(" must commit before ").append(id(a.to()))
              .append(", because ").append(id(r.reader())).append(" read ").append(r.key()).append('=')
              .append(r.value()).append(" from ").append(id(a.to())).append(" although it had seen ")
              .append(id(a.from())).append(" (").append(seenBy(a.why().seen())).append("), and ")
              .append(axiom(level)).append(";\n");
        }
      }
      final boolean so = cycle.stream().anyMatch(a -> a.kind() == EdgeKind.SO);
      type = derived == 0 ? "G1c" + (so ? "-process" : "") : "G2-item";
      if (derived == 0) {
        // A read from a later transaction of one's own session: SO one way, WR back.
        name = so && cycle.size() == 2 ? "SessionGuaranteeViolation" : null;
        final Set<Level> all = java.util.EnumSet.allOf(Level.class);
        if (so) {
          all.remove(Level.PL2); // Adya's levels have no session order
          all.remove(Level.RR);
        }
        violates = all;
      } else {
        // Several derived orders from one reader that read each writer directly: it saw parts of each.
        final Set<Integer> readers = new java.util.HashSet<>();
        boolean direct = true;
        for (final Arc a : cycle) {
          if (a.why() != null) {
            readers.add(a.why().read().reader());
            direct &= a.why().seen().size() == 1;
          }
        }
        name = readers.size() == 1 && direct ? (level == Level.RC ? "NonMonotonicRead" : "FracturedRead") : null;
        violates = level.andStronger();
      }
    }
    final LinkedHashSet<Integer> all = new LinkedHashSet<>(inCycle);
    all.addAll(mentioned);
    all.remove(INIT);
    inCycle.remove(INIT);
    final String let = let(all);
    final List<Transaction> txns = new ArrayList<>();
    for (final int v : inCycle) {
      txns.add(txn(v));
    }
    final String explanation = let + then.toString() + "No commit order satisfies these constraints. This violates "
        + String.join(", ", Level.strongestFirst(Level.shown(violates, requested)).stream().map(Level::name).toList()) + " (" + type
        + (name == null ? "" : ", " + name) + ")";
    return new Anomaly(type, name, Level.shown(violates, requested), txns, edges, explanation);
  }

  private Edge edge(final Arc a) {
    return new Edge(id(a.from()), id(a.to()), a.kind(), a.key(), a.value());
  }

  /** A fact arc as a sentence: session order, or a read from a writer. */
  private String fact(final Arc a) {
    return a.kind() == EdgeKind.SO
        ? id(a.from()) + " precedes " + id(a.to()) + " in session " + txn(a.to()).session()
        : id(a.to()) + " read " + a.key() + "=" + a.value() + ", which " + id(a.from()) + " wrote";
  }

  private String seenBy(final List<Arc> path) {
    final StringBuilder sb = new StringBuilder();
    for (final Arc p : path) {
      if (sb.length() > 0) {
        sb.append(", ");
      }
      sb.append(p.kind() == EdgeKind.SO ? id(p.from()) + " precedes " + id(p.to()) + " in its session"
          : id(p.to()) + " read " + p.key() + "=" + p.value() + " from " + id(p.from()));
    }
    return sb.toString();
  }

  private static String axiom(final Level level) {
    return switch (level) {
      case RC -> "Read Committed orders before the writer a read returns every writer of the key that an earlier "
          + "read of the transaction read from";
      case RA -> "Read Atomic orders before the writer a read returns every writer of the key that the "
          + "transaction read from or follows in its session";
      default -> "Causal Consistency orders before the writer a read returns every writer of the key that causally "
          + "precedes the transaction (SO ∪ WR)+";
    };
  }

  /** The literature name of a one-derived-arc cycle. */
  private static String nameOf(final Arc a, final Level level) {
    final List<Arc> seen = a.why().seen();
    if (seen.stream().allMatch(p -> p.kind() == EdgeKind.SO)) {
      return "SessionGuaranteeViolation";
    }
    if (seen.size() > 1) {
      return "CausalityViolation";
    }
    return level == Level.RC ? "NonMonotonicRead" : "FracturedRead";
  }
}
