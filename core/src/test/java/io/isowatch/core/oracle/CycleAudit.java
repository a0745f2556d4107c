package io.isowatch.core.oracle;

import io.isowatch.core.check.Anomaly;
import io.isowatch.core.check.CheckOptions;
import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.history.History;
import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Audits a reported cycle against the raw history, independently of the engine.
 *
 * <ul>
 *   <li>{@link #edgeProblems}: every edge is justified by the history (a person reading the
 *       explanation could verify it) and the edges form a closed cycle through the listed
 *       transactions. Valid for any history.
 *   <li>{@link #classificationProblems}: recomputes every dependency kind of every step from the
 *       history and classifies the cycle by the product's rules (Adya type, -process/-realtime
 *       suffix, violated levels; the Table I name must be justified by its rule, and a missing
 *       name must have no rule that applies). Only for proper mini-transaction histories without
 *       divergences, where the dependencies between two transactions are determined.
 * </ul>
 *
 * <p>Steps carry every kind that holds between their two transactions, with SO transitive (a
 * session is a total order, MTC Definition 2). One deliberate refinement of the rules as first
 * written: when every step has a kind of SER's graph (SO, WR, WW or RW), the cycle is a cycle of
 * SO ∪ WR ∪ WW ∪ RW and violates SER (MTC Definition 5) whatever RT also holds, so it is read
 * with RT ignored: a step with RT and RW is an RW-only step. Only a cycle that needs RT is read
 * with RT as a kind of its own. Read literally, "needs RT = has RT but none of WW/WR/SO" would
 * make a write skew between two transactions that are also ordered in real time claim SSER only.
 */
public final class CycleAudit {
  private final History history;
  private final CheckOptions options;
  private final Map<String, Transaction> byId = new LinkedHashMap<>();
  private final Map<String, Integer> sessionRank = new LinkedHashMap<>();

  public CycleAudit(final History history, final CheckOptions options) {
    this.history = history;
    this.options = options;
    for (final Transaction t : BruteForceOracle.countedTransactions(history)) {
      byId.put(t.id(), t);
    }
    rankSessions();
  }

  /**
   * Kinds of every dependency from u to v, with the keys of the WR and RW ones. {@code ignoreRt}
   * is set when the whole cycle lies in SER's graph: then RT is irrelevant to how it is read.
   */
  private record StepKinds(Set<EdgeKind> kinds, List<String> wrKeys, List<String> rwKeys, boolean ignoreRt) {
    boolean has(final EdgeKind k) {
      return kinds.contains(k) && !(ignoreRt && k == EdgeKind.RT);
    }

    /** Some dependency of SER's graph holds (SO, WR, WW or RW). */
    boolean inSerGraph() {
      return kinds.stream().anyMatch(k -> k != EdgeKind.RT);
    }

    StepKinds forSerCycle() {
      return new StepKinds(kinds, wrKeys, rwKeys, true);
    }

    boolean rwOnly() {
      return has(EdgeKind.RW) && !has(EdgeKind.SO) && !has(EdgeKind.WR) && !has(EdgeKind.WW) && !has(EdgeKind.RT);
    }

    boolean needsRealTime() {
      return has(EdgeKind.RT) && !has(EdgeKind.WW) && !has(EdgeKind.WR) && !has(EdgeKind.SO);
    }

    boolean needsSession() {
      return has(EdgeKind.SO) && !has(EdgeKind.WW) && !has(EdgeKind.WR);
    }

    @Override
    public String toString() {
      return kinds + (wrKeys.isEmpty() ? "" : " wr" + wrKeys) + (rwKeys.isEmpty() ? "" : " rw" + rwKeys);
    }
  }

  // ---- edges ----

  public List<String> edgeProblems(final Anomaly a) {
    final List<String> problems = new ArrayList<>();
    final List<Edge> cycle = a.cycle();
    final List<String> ids = a.txnIds();
    if (cycle.size() != ids.size()) {
      problems.add("cycle of " + cycle.size() + " edges through " + ids.size() + " transactions");
      return problems;
    }
    for (int i = 0; i < cycle.size(); i++) {
      final Edge e = cycle.get(i);
      if (!e.from().equals(ids.get(i)) || !e.to().equals(ids.get((i + 1) % ids.size()))) {
        problems.add("edge " + e + " does not continue the cycle " + ids);
      }
      final Transaction from = byId.get(e.from());
      final Transaction to = byId.get(e.to());
      if (from == null || to == null) {
        problems.add("edge " + e + " involves a transaction that does not count");
      } else if (!justified(e, from, to)) {
        problems.add("edge " + e + " is not justified by the history");
      }
    }
    return problems;
  }

  private boolean justified(final Edge e, final Transaction from, final Transaction to) {
    if (from == to) {
      return false;
    }
    return switch (e.kind()) {
      case SO -> sessionOrder(from, to);
      case RT -> realTime(from, to);
      case WR -> externalRead(to, e.key()) && Objects.equals(read(to, e.key()), e.value())
          && writes(from, e.key()) && Objects.equals(lastWrite(from, e.key()), e.value());
      case WW -> writes(from, e.key()) && Objects.equals(lastWrite(from, e.key()), e.value())
          && writes(to, e.key());
      case RW -> externalRead(from, e.key()) && Objects.equals(read(from, e.key()), e.value())
          && writes(to, e.key()) && !Objects.equals(lastWrite(to, e.key()), e.value());
    };
  }

  // ---- classification ----

  public List<String> classificationProblems(final Anomaly a) {
    final List<String> ids = a.txnIds();
    final List<StepKinds> literal = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      literal.add(kinds(byId.get(ids.get(i)), byId.get(ids.get((i + 1) % ids.size()))));
    }
    // A cycle of SER's graph is read without RT (a step with RT and RW is an RW step there);
    // only a cycle that needs RT is read with RT as one more non-RW kind.
    final List<StepKinds> steps = literal.stream().allMatch(StepKinds::inSerGraph)
        ? literal.stream().map(StepKinds::forSerCycle).toList()
        : literal;
    final List<String> problems = new ArrayList<>();
    final String type = type(steps);
    if (!type.equals(a.type())) {
      problems.add("type " + a.type() + ", expected " + type + " from steps " + steps);
    }
    final Set<Level> levels = levels(steps);
    // The rules here are those of SSER, SER and SI; the weak levels a cycle lists are held to
    // WeakLevelOracle by WeakLevelsMatchOracleTest.
    final Set<Level> classic = java.util.EnumSet.noneOf(Level.class);
    a.violates().stream().filter(Level.CLASSIC::contains).forEach(classic::add);
    if (!levels.equals(classic)) {
      problems.add("violates " + a.violates() + ", expected " + levels + " from steps " + steps);
    }
    final List<String> justified = justifiedNames(ids, steps);
    if (a.name() == null ? !justified.isEmpty() : !justified.contains(a.name())) {
      problems.add("name " + a.name() + ", rules justify " + justified + " from steps " + steps);
    }
    return problems;
  }

  private static String type(final List<StepKinds> steps) {
    final long rwOnly = steps.stream().filter(StepKinds::rwOnly).count();
    final boolean writeOrder = steps.stream()
        .allMatch(s -> s.has(EdgeKind.WW) || s.has(EdgeKind.SO) || s.has(EdgeKind.RT));
    final String base;
    if (writeOrder && steps.stream().anyMatch(s -> s.has(EdgeKind.WW))) {
      base = "G0";
    } else if (rwOnly == 0) {
      base = "G1c";
    } else {
      base = rwOnly == 1 ? "G-single" : "G2-item";
    }
    if (steps.stream().anyMatch(StepKinds::needsRealTime)) {
      return base + "-realtime";
    }
    return steps.stream().anyMatch(StepKinds::needsSession) ? base + "-process" : base;
  }

  private static Set<Level> levels(final List<StepKinds> steps) {
    final Set<Level> levels = EnumSet.of(Level.SSER);
    if (steps.stream().anyMatch(StepKinds::needsRealTime)) {
      return levels;
    }
    levels.add(Level.SER);
    final int n = steps.size();
    boolean adjacent = false;
    for (int i = 0; i < n; i++) {
      adjacent |= steps.get(i).rwOnly() && steps.get((i + 1) % n).rwOnly();
    }
    if (!adjacent && steps.stream().anyMatch(s -> !s.rwOnly())) {
      levels.add(Level.SI);
    }
    return levels;
  }

  /** Every Table I cycle name whose rule this cycle satisfies. */
  private List<String> justifiedNames(final List<String> ids, final List<StepKinds> steps) {
    final List<String> names = new ArrayList<>();
    final int n = steps.size();
    final long rwOnly = steps.stream().filter(StepKinds::rwOnly).count();
    final boolean othersCausal = steps.stream()
        .allMatch(s -> s.rwOnly() || s.has(EdgeKind.WR) || s.has(EdgeKind.SO));
    final boolean anyWr = steps.stream().anyMatch(s -> s.has(EdgeKind.WR));
    if (rwOnly == 1 && steps.stream().allMatch(s -> s.rwOnly() || s.has(EdgeKind.SO))) {
      names.add("SessionGuaranteeViolation");
    }
    if (n == 2 && rwOnly == 1) {
      final int dep = steps.get(0).rwOnly() ? 1 : 0;
      final Transaction reader = byId.get(ids.get((dep + 1) % 2));
      for (final String newKey : steps.get(dep).wrKeys()) {
        for (final String oldKey : steps.get(1 - dep).rwKeys()) {
          if (!newKey.equals(oldKey)) {
            names.add(firstRead(reader, newKey) < firstRead(reader, oldKey) ? "NonMonotonicRead" : "FracturedRead");
          }
        }
      }
    }
    if (rwOnly == 1 && n >= 3 && othersCausal && anyWr) {
      names.add("CausalityViolation");
    }
    boolean adjacent = false;
    for (int i = 0; i < n; i++) {
      adjacent |= steps.get(i).rwOnly() && steps.get((i + 1) % n).rwOnly();
    }
    if (rwOnly == 2 && !adjacent && othersCausal) {
      names.add("LongFork");
    }
    if (n == 2 && rwOnly == 2) {
      names.add("WriteSkew");
    }
    // A read from a later transaction of the reader's own session: SO one way, WR (no WW) back.
    if (n == 2 && rwOnly == 0 && steps.stream().anyMatch(s -> s.has(EdgeKind.SO) && !s.has(EdgeKind.WR)
        && !s.has(EdgeKind.WW)) && steps.stream().allMatch(s -> (s.has(EdgeKind.WR) || s.has(EdgeKind.SO))
        && !s.has(EdgeKind.WW))) {
      names.add("SessionGuaranteeViolation");
    }
    return names;
  }

  /** All dependencies from u to v (MT histories: the version successor is the writer that read it). */
  private StepKinds kinds(final Transaction u, final Transaction v) {
    final Set<EdgeKind> kinds = EnumSet.noneOf(EdgeKind.class);
    final List<String> wrKeys = new ArrayList<>();
    final List<String> rwKeys = new ArrayList<>();
    if (u == null || v == null || u == v) {
      return new StepKinds(kinds, wrKeys, rwKeys, false);
    }
    if (sessionOrder(u, v)) {
      kinds.add(EdgeKind.SO);
    }
    if (realTime(u, v)) {
      kinds.add(EdgeKind.RT);
    }
    for (final String k : OracleRelations.lastWrites(u).keySet()) {
      if (externalRead(v, k) && Objects.equals(read(v, k), lastWrite(u, k))) {
        kinds.add(EdgeKind.WR);
        wrKeys.add(k);
        if (writes(v, k)) {
          kinds.add(EdgeKind.WW);
        }
      }
    }
    for (final Map.Entry<String, Long> r : BruteForceOracle.firstExternalReads(u).entrySet()) {
      if (writes(v, r.getKey()) && externalRead(v, r.getKey()) && Objects.equals(read(v, r.getKey()), r.getValue())) {
        kinds.add(EdgeKind.RW);
        rwKeys.add(r.getKey());
      }
    }
    return new StepKinds(kinds, wrKeys, rwKeys, false);
  }

  // ---- facts about transactions ----

  private void rankSessions() {
    final Map<String, List<Transaction>> bySession = new LinkedHashMap<>();
    for (final Transaction t : history.transactions()) {
      bySession.computeIfAbsent(t.session(), s -> new ArrayList<>()).add(t);
    }
    for (final List<Transaction> members : bySession.values()) {
      final List<Transaction> ordered = new ArrayList<>(members);
      if (members.stream().allMatch(Transaction::hasSeq)) {
        ordered.sort(Comparator.comparingLong(Transaction::seq));
      }
      for (int i = 0; i < ordered.size(); i++) {
        sessionRank.put(ordered.get(i).id(), i);
      }
    }
  }

  private boolean sessionOrder(final Transaction u, final Transaction v) {
    return u.session().equals(v.session()) && sessionRank.get(u.id()) < sessionRank.get(v.id());
  }

  private boolean realTime(final Transaction u, final Transaction v) {
    final boolean uEnd = u.end() != Transaction.NO_TIME && (u.start() == Transaction.NO_TIME || u.end() >= u.start());
    final boolean vStart = v.start() != Transaction.NO_TIME && (v.end() == Transaction.NO_TIME || v.end() >= v.start());
    return uEnd && vStart && u.end() + options.rtSkewMicros() < v.start();
  }

  private static boolean externalRead(final Transaction t, final String key) {
    return BruteForceOracle.firstExternalReads(t).containsKey(key);
  }

  private static Long read(final Transaction t, final String key) {
    return BruteForceOracle.firstExternalReads(t).get(key);
  }

  private static boolean writes(final Transaction t, final String key) {
    return OracleRelations.lastWrites(t).containsKey(key);
  }

  private static Long lastWrite(final Transaction t, final String key) {
    return OracleRelations.lastWrites(t).get(key);
  }

  private static int firstRead(final Transaction t, final String key) {
    final List<Op> ops = t.ops();
    for (int i = 0; i < ops.size(); i++) {
      if (ops.get(i).isRead() && ops.get(i).key().equals(key)) {
        return i;
      }
    }
    return Integer.MAX_VALUE;
  }

  /** True when two counted transactions read the same version of a key and both overwrite it. */
  public boolean hasDivergence() {
    final List<Transaction> counted = new ArrayList<>(byId.values());
    for (int i = 0; i < counted.size(); i++) {
      for (int j = i + 1; j < counted.size(); j++) {
        final Transaction a = counted.get(i);
        final Transaction b = counted.get(j);
        for (final Map.Entry<String, Long> r : BruteForceOracle.firstExternalReads(a).entrySet()) {
          if (writes(a, r.getKey()) && writes(b, r.getKey()) && externalRead(b, r.getKey())
              && Objects.equals(read(b, r.getKey()), r.getValue())) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
