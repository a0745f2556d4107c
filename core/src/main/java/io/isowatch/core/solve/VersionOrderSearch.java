package io.isowatch.core.solve;

import io.isowatch.core.check.Edge;
import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.check.Level;
import io.isowatch.core.check.Verdict;
import io.isowatch.core.graph.IntList;
import io.isowatch.core.history.History;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import org.sat4j.core.VecInt;
import org.sat4j.minisat.SolverFactory;
import org.sat4j.specs.ContradictionException;
import org.sat4j.specs.ISolver;
import org.sat4j.specs.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides SER, SI or SSER on a history whose version orders are open, by searching the orders of
 * its {@link VersionOrderProblem polygraph}: a lazy cycle-cut loop over Sat4j (as Cobra, PolySI
 * and Viper do, with acyclicity checked outside the solver).
 *
 * <ol>
 *   <li>The certain edges alone: a cycle there is a violation in every order.
 *   <li>A greedy order: each key's chains in a topological order of the certain edges (ties by
 *       end time). Acyclic: SATISFIED, with that order as the witness.
 *   <li>Otherwise {@link Pruning} forces every pair of chains whose other order would close a cycle
 *       with the certain edges ({@link Reachability}); a pair forced both ways is a violation.
 *   <li>One Boolean per pair pruning left open ({@link KeyOrders}; forced pairs keep their order
 *       and get a variable only when a blocked cycle uses them); each cycle found in a candidate
 *       graph becomes a clause (not all of its choices at once), the solver proposes the next
 *       candidate, until a candidate is acyclic (SATISFIED) or the clauses are unsatisfiable
 *       (VIOLATED: every version order closes one of the cycles found) or the budget runs out
 *       (UNKNOWN).
 * </ol>
 */
public final class VersionOrderSearch {
  private static final Logger LOG = LoggerFactory.getLogger(VersionOrderSearch.class);
  /** Above this many open pairs (solver variables) after pruning only the greedy order is tried. */
  static final long MAX_VARIABLES = 4_000_000L;
  /** How the reason of an UNKNOWN from a size guard (not the budget) begins. */
  public static final String SIZE_GUARD = "the search of version orders left open by blind writes stopped at a size "
      + "guard: ";
  /** Above this many pairs of chains in all, pruning's table (a byte per pair) is not built. */
  static final long MAX_PAIRS = 400_000_000L;
  private static final int CYCLES_PER_ROUND = 256;
  private static final int MINIMIZE_AT_MOST = 200;

  /**
   * One edge of a counterexample cycle.
   *
   * @param edge the edge between transactions (time nodes folded into one RT edge)
   * @param chosen whether it holds only in some version orders (a step of the order, not a fact)
   */
  public record Step(Edge edge, boolean chosen) {}

  /**
   * What the search found.
   *
   * @param verdict SATISFIED, VIOLATED, or UNKNOWN when the search does not apply or ran out of time
   * @param reason why UNKNOWN (null otherwise)
   * @param cycles for VIOLATED: cycles such that every version order contains at least one of them
   *     (one cycle of certain edges when the violation needs no choice)
   * @param minimal whether {@code cycles} is a minimal such set
   * @param variables pair variables, {@code clauses} cycles blocked, {@code rounds} candidates tried
   */
  public record Outcome(Verdict verdict, String reason, List<List<Step>> cycles, boolean minimal, long variables,
      int clauses, int rounds, List<io.isowatch.core.history.Transaction> txns, int coreSize, List<Case> cases) {
    public Outcome(final Verdict verdict, final String reason, final List<List<Step>> cycles, final boolean minimal,
        final long variables, final int clauses, final int rounds, final List<io.isowatch.core.history.Transaction> txns) {
      this(verdict, reason, cycles, minimal, variables, clauses, rounds, txns, cycles.size(), List.of());
    }

    public Outcome(final Verdict verdict, final String reason, final List<List<Step>> cycles, final boolean minimal,
        final long variables, final int clauses, final int rounds, final List<io.isowatch.core.history.Transaction> txns,
        final int coreSize) {
      this(verdict, reason, cycles, minimal, variables, clauses, rounds, txns, coreSize, List.of());
    }
  }

  /**
   * One case of a VIOLATED answer on a history where a value is written more than once: the
   * writer each such read is taken to have read from, and that case's cycles (every version order
   * of the case contains one of them). A case is an assumption, never a claim about the database.
   *
   * @param choices one sentence per read with several candidate writers ("T3 read x=1 from T1")
   * @param cycles as {@link Outcome#cycles} for this case
   * @param coreSize as {@link Outcome#coreSize}
   * @param minimal as {@link Outcome#minimal}
   */
  public record Case(List<String> choices, List<List<Step>> cycles, int coreSize, boolean minimal) {}

  /** Above this many ways to attribute the reads of values written more than once, the search does not run. */
  public static final int MAX_CASES = 1_024;

  private final VersionOrderProblem p;
  private final boolean si;
  private final long deadline;
  /** Clauses that are forced choices (by their index), whose cycles are built on demand. */
  private final java.util.Map<Integer, Pruning.Forced> forced = new java.util.HashMap<>();
  private final boolean prune;
  private Pruning pruning;
  private KeyOrders keys;
  /** Whether a SATISFIED answer records {@link #feed}. */
  private boolean wantFeed;
  /** For SATISFIED (when asked): the counted transactions in a topological order of the order found's graph. */
  private List<io.isowatch.core.history.Transaction> feed;

  private VersionOrderSearch(final VersionOrderProblem p, final Level level, final long deadline,
      final boolean prune) {
    this.p = p;
    this.si = level == Level.SI;
    this.deadline = deadline;
    this.prune = prune;
  }

  /** Searches the version orders of {@code history} for {@code level} (SER, SI or SSER) within {@code budget}. */
  public static Outcome search(final History history, final Level level, final Long initialValue,
      final long rtSkewMicros, final Duration budget) {
    return traced(history, level, initialValue, rtSkewMicros, budget, true).outcome();
  }

  /**
   * The counted transactions of {@code history} in a topological order of the dependency graph of
   * a version order that satisfies {@code level} (SER: all its edges; SI: those that are not RW,
   * which have no cycle when SI holds), so that appending each write after its key's last version
   * while taking them in this order rebuilds that version order (each key's writers are totally
   * ordered by WW and WR steps in it); null when the search does not find the level SATISFIED
   * within {@code budget}, or a value read is written more than once (then the order is a case's,
   * not the history's). The online witness of the appended order takes it over (issue 14, item 3).
   */
  public static List<io.isowatch.core.history.Transaction> satisfyingFeed(final History history, final Level level,
      final Long initialValue, final long rtSkewMicros, final Duration budget) {
    if (level != Level.SER && level != Level.SI) {
      throw new IllegalArgumentException("a feed order is given for SER and SI, not " + level);
    }
    final long deadline = System.nanoTime() + budget.toNanos();
    final List<io.isowatch.core.history.Transaction> counted = VersionOrderProblem.counted(history, initialValue);
    final java.util.Map<VersionOrderProblem.KeyValue, IntList> writers = VersionOrderProblem.writersOf(counted);
    if (!VersionOrderProblem.choiceReads(counted, writers, initialValue).isEmpty()) {
      return null;
    }
    final VersionOrderProblem.Built built =
        VersionOrderProblem.build(counted, writers, initialValue, rtSkewMicros, false, java.util.Map.of());
    if (built.problem() == null || built.problem().lostUpdate != null) {
      return null;
    }
    final VersionOrderSearch search = new VersionOrderSearch(built.problem(), level, deadline, true);
    search.wantFeed = true;
    return search.run().verdict() == Verdict.SATISFIED ? search.feed : null;
  }

  /** Kahn's order of the real nodes over {@code p.known} (without RW edges for SI); null on a cycle. */
  private List<io.isowatch.core.history.Transaction> topologicalFeed() {
    final EdgeList g = p.known;
    final int[] in = new int[p.nodes];
    final int[] outCount = new int[p.nodes + 1];
    for (int e = 0; e < g.size; e++) {
      if (!(si && g.isRw(e))) {
        in[g.to[e]]++;
        outCount[g.from[e] + 1]++;
      }
    }
    for (int v = 0; v < p.nodes; v++) {
      outCount[v + 1] += outCount[v];
    }
    final int[] adj = new int[outCount[p.nodes]];
    final int[] fill = java.util.Arrays.copyOf(outCount, p.nodes);
    for (int e = 0; e < g.size; e++) {
      if (!(si && g.isRw(e))) {
        adj[fill[g.from[e]]++] = g.to[e];
      }
    }
    final IntList ready = new IntList(p.nodes);
    for (int v = 0; v < p.nodes; v++) {
      if (in[v] == 0) {
        ready.add(v);
      }
    }
    final List<io.isowatch.core.history.Transaction> out = new ArrayList<>(p.txns.size());
    int done = 0;
    for (int i = 0; i < ready.size(); i++) {
      final int v = ready.get(i);
      done++;
      if (v < p.txns.size()) {
        out.add(p.txns.get(v));
      }
      for (int j = outCount[v]; j < outCount[v + 1]; j++) {
        if (--in[adj[j]] == 0) {
          ready.add(adj[j]);
        }
      }
    }
    return done == p.nodes ? out : null;
  }

  /**
   * What a search did, for tests: its outcome, the pairs of chains, the pairs left open after
   * pruning (-1 when the search ended before pruning) and the keys whose pairs pruning all forced.
   */
  record Traced(Outcome outcome, long pairs, long open, int fixedKeys) {}

  /** {@link #search}, with pruning off when {@code prune} is false (every pair a solver variable), traced. */
  static Traced traced(final History history, final Level level, final Long initialValue, final long rtSkewMicros,
      final Duration budget, final boolean prune) {
    final long deadline = System.nanoTime() + budget.toNanos();
    if (!Level.CLASSIC.contains(level)) {
      throw new IllegalArgumentException("the version-order search decides SSER, SER and SI, not " + level);
    }
    final List<io.isowatch.core.history.Transaction> counted = VersionOrderProblem.counted(history, initialValue);
    final java.util.Map<VersionOrderProblem.KeyValue, IntList> writers = VersionOrderProblem.writersOf(counted);
    final List<VersionOrderProblem.ChoiceRead> choices = VersionOrderProblem.choiceReads(counted, writers, initialValue);
    if (!choices.isEmpty()) {
      return byCases(counted, writers, choices, level, initialValue, rtSkewMicros, deadline, prune);
    }
    return traced(counted, writers, java.util.Map.of(), level, initialValue, rtSkewMicros, deadline, prune);
  }

  /** The search of one case ({@code chosen}: the writer of each read with several candidates). */
  private static Traced traced(final List<io.isowatch.core.history.Transaction> counted,
      final java.util.Map<VersionOrderProblem.KeyValue, IntList> writers,
      final java.util.Map<VersionOrderProblem.ReaderKey, Integer> chosen, final Level level, final Long initialValue,
      final long rtSkewMicros, final long deadline, final boolean prune) {
    final VersionOrderProblem.Built built =
        VersionOrderProblem.build(counted, writers, initialValue, rtSkewMicros, level == Level.SSER, chosen);
    if (built.problem() != null && built.problem().lostUpdate != null) {
      return new Traced(lostUpdate(built.problem()), 0, -1, 0);
    }
    if (built.problem() == null) {
      return new Traced(unknown(built.notApplicable(), 0, 0, 0, List.of()), 0, -1, 0);
    }
    final VersionOrderProblem p = built.problem();
    if (level == Level.SSER && !p.timesComplete) {
      return new Traced(unknown(io.isowatch.core.check.UnknownReasons.MISSING_TIMES, p.variables, 0, 0, p.txns),
          p.variables, -1, 0);
    }
    final VersionOrderSearch search = new VersionOrderSearch(p, level, deadline, prune);
    final Outcome o = search.run();
    return new Traced(o, p.variables, search.keys == null ? -1 : search.keys.open,
        search.keys == null ? 0 : search.keys.fixedKeys());
  }

  /**
   * A history where some value is written more than once: a read of it may have read from any of
   * its candidate writers (the brute-force oracle's semantics), a choice made here by cases. Each
   * combination of writers is searched as a history of unique attributions; the level holds when
   * some case has an acyclic version order (SATISFIED), fails when every case is VIOLATED (the
   * counterexample gives each case's cycles, each case stated as an assumption), and is UNKNOWN
   * when no case holds and some case is undecided (budget, size guard, or a case the search does
   * not take on), or when there are more than {@link #MAX_CASES} cases.
   */
  private static Traced byCases(final List<io.isowatch.core.history.Transaction> counted,
      final java.util.Map<VersionOrderProblem.KeyValue, IntList> writers, final List<VersionOrderProblem.ChoiceRead> choices, final Level level, final Long initialValue,
      final long rtSkewMicros, final long deadline, final boolean prune) {
    long total = 1;
    for (final VersionOrderProblem.ChoiceRead c : choices) {
      total = Math.min(Long.MAX_VALUE / 64, total * c.candidates().length);
    }
    if (total > MAX_CASES) {
      return new Traced(unknown(CASES_GUARD + choices.size() + " read(s) of values written more than once can be "
          + "attributed in " + (total >= Long.MAX_VALUE / 64 ? "too many" : String.valueOf(total)) + " ways, more than "
          + "the " + MAX_CASES + " the search tries one by one; no violation is certain", 0, 0, 0, counted), 0, -1, 0);
    }
    final int[] digit = new int[choices.size()];
    final List<Case> violatedCases = new ArrayList<>();
    String undecided = null;
    long pairs = 0;
    long open = -1;
    int fixedKeys = 0;
    int clauses = 0;
    int rounds = 0;
    for (long c = 0; c < total; c++) {
      final java.util.Map<VersionOrderProblem.ReaderKey, Integer> chosen = new java.util.HashMap<>();
      final List<String> said = new ArrayList<>();
      for (int j = 0; j < digit.length; j++) {
        final VersionOrderProblem.ChoiceRead r = choices.get(j);
        final int w = r.candidates()[digit[j]];
        chosen.put(new VersionOrderProblem.ReaderKey(r.reader(), r.key()), w);
        said.add(counted.get(r.reader()).id() + " read " + r.key() + "=" + r.value() + " from "
            + (w < 0 ? "the initial version" : counted.get(w).id()));
      }
      for (int j = 0; j < digit.length; j++) {
        if (++digit[j] < choices.get(j).candidates().length) {
          break;
        }
        digit[j] = 0;
      }
      final Traced t = traced(counted, writers, chosen, level, initialValue, rtSkewMicros, deadline, prune);
      final Outcome o = t.outcome();
      pairs = Math.max(pairs, t.pairs());
      open = Math.max(open, t.open());
      fixedKeys = Math.max(fixedKeys, t.fixedKeys());
      clauses += o.clauses();
      rounds += o.rounds();
      if (o.verdict() == Verdict.SATISFIED) {
        return new Traced(new Outcome(Verdict.SATISFIED, null, List.of(), true, o.variables(), clauses, rounds,
            counted), pairs, open, fixedKeys);
      } else if (o.verdict() == Verdict.VIOLATED) {
        violatedCases.add(new Case(List.copyOf(said), o.cycles(), o.coreSize(), o.minimal()));
      } else if (io.isowatch.core.check.UnknownReasons.MISSING_TIMES.equals(o.reason())) {
        return new Traced(o, pairs, open, fixedKeys);
      } else if (undecided == null) {
        undecided = "in the case where " + String.join(", ", said) + ": " + o.reason();
        if (o.reason() != null && o.reason().startsWith(SIZE_GUARD)) {
          undecided = SIZE_GUARD + undecided;
        }
      }
      if (undecided != null && System.nanoTime() > deadline) {
        break;
      }
    }
    if (undecided != null) {
      return new Traced(unknown(CASES_UNDECIDED + "each read of it was searched with each "
          + "of its candidate writers; no case has an acyclic version order so far, and one is undecided "
          + undecided, pairs, clauses, rounds, counted), pairs, open, fixedKeys);
    }
    final List<List<Step>> first = violatedCases.get(0).cycles();
    final int core = violatedCases.stream().mapToInt(Case::coreSize).sum();
    return new Traced(new Outcome(Verdict.VIOLATED, null, first, violatedCases.stream().allMatch(Case::minimal), pairs,
        clauses, rounds, counted, core, List.copyOf(violatedCases)), pairs, open, fixedKeys);
  }

  /**
   * A lost update: transactions a and b both read the same version of key k and both overwrote it.
   * Whichever version goes first, the other transaction read the version it overwrote: a -WW-> b
   * with b -RW-> a, or b -WW-> a with a -RW-> b. Every version order with no other cycle contains
   * one of the two (for SI too: one RW edge), a minimal set.
   */
  private static Outcome lostUpdate(final VersionOrderProblem p) {
    final int k = p.lostUpdate[0];
    final int a = p.lostUpdate[2];
    final int b = p.lostUpdate[3];
    final String key = p.keys.get(k);
    final List<List<Step>> cycles = List.of(lostUpdateCycle(p, key, a, b), lostUpdateCycle(p, key, b, a));
    return new Outcome(Verdict.VIOLATED, null, cycles, true, 0, 2, 0, p.txns);
  }

  private static List<Step> lostUpdateCycle(final VersionOrderProblem p, final String key, final int first,
      final int second) {
    final String f = p.txns.get(first).id();
    final String s = p.txns.get(second).id();
    final Long written = VersionOrderProblem.lastWrites(p.txns.get(first)).get(key);
    return List.of(new Step(new Edge(f, s, EdgeKind.WW, key, written), true),
        new Step(new Edge(s, f, EdgeKind.RW, key, p.lostValue), true));
  }

  /** How the reason of an UNKNOWN from too many ways to attribute reads of repeated values begins. */
  public static final String CASES_GUARD = "the search of version orders did not run: ";
  /** How the reason of an UNKNOWN begins when no case of writers holds and some case is undecided. */
  public static final String CASES_UNDECIDED = "a value read is written more than once, so ";

  private static Outcome unknown(final String reason, final long vars, final int clauses, final int rounds,
      final List<io.isowatch.core.history.Transaction> txns) {
    return new Outcome(Verdict.UNKNOWN, reason, List.of(), false, vars, clauses, rounds, txns);
  }

  private Outcome run() {
    final List<GraphCycles.Cycle> certain = GraphCycles.find(p.known, p.nodes, si, 1, false);
    if (!certain.isEmpty()) {
      return new Outcome(Verdict.VIOLATED, null, List.of(steps(p.known, certain.get(0).edges())), true,
          p.variables, 0, 0, p.txns);
    }
    if (p.readCycle != null) {
      return unknown(p.readCycle + ", which the search did not find as a cycle", p.variables, 0, 0, p.txns);
    }
    p.listInOrder(greedyPositions());
    final int base = p.known.size;
    int rounds = 1;
    // The greedy order first: linear, and on histories of correct databases usually acyclic.
    for (int k = 0; k < p.openChains.size(); k++) {
      final int[] chains = p.openChains.get(k);
      for (int j = 1; j < chains.length; j++) {
        p.addOrderEdges(p.known, chains[j - 1], chains[j], p.literal(k, j - 1, j));
      }
    }
    final boolean greedyAcyclic = GraphCycles.find(p.known, p.nodes, si, 1, true).isEmpty();
    if (greedyAcyclic && wantFeed) {
      feed = topologicalFeed();
    }
    p.known.truncate(base);
    if (greedyAcyclic) {
      return new Outcome(Verdict.SATISFIED, null, List.of(), true, p.variables, 0, rounds, p.txns);
    }
    final long t0 = System.nanoTime();
    pruning = new Pruning(p, si);
    final Pruning.Status status =
        !prune || p.variables > MAX_PAIRS ? Pruning.Status.TOO_LARGE : pruning.prune(deadline);
    LOG.debug("version-order search: pruning status=[{}] reachability=[{}] pairs=[{}] open=[{}] ms=[{}]", status,
        pruning.describe(), p.variables, pruning.open, (System.nanoTime() - t0) / 1_000_000L);
    if (status == Pruning.Status.OUT_OF_TIME) {
      return budgetSpent(0, rounds);
    }
    if (pruning.conflict != null) {
      // Both orders of one pair close a cycle: those two cycles are a minimal core.
      final int[] c = pruning.conflict;
      return new Outcome(Verdict.VIOLATED, null, List.of(forcedCycle(pruning.forced(c[0], c[2], c[1])),
          forcedCycle(pruning.forced(c[0], c[1], c[2]))), true, p.variables, 2, rounds, p.txns);
    }
    final long open = status == Pruning.Status.PRUNED ? pruning.open : p.variables;
    if (open > MAX_VARIABLES) {
      return unknown(SIZE_GUARD + open + " pairs of blind-write chains are open" + (status == Pruning.Status.PRUNED
          ? " after pruning" : " (the certain graph is too large to prune: " + p.variables + " pairs in all)")
          + ", more than the " + MAX_VARIABLES + " the search takes on, and the greedy version order has a cycle; "
          + "no violation is certain", open, 0, rounds, p.txns);
    }
    keys = new KeyOrders(p, pruning);
    // Keys whose every pair is forced have one order in every acyclic graph: fixed once, no variable.
    keys.addFixed(p.known);
    final int fixedBase = p.known.size;
    final List<int[]> clauses = new ArrayList<>();
    final List<List<Step>> clauseCycles = new ArrayList<>();
    final Set<List<Integer>> seen = new HashSet<>();
    final ISolver solver = SolverFactory.newDefault();
    int declared = keys.variables();
    solver.newVar(Math.max(1, declared));
    int added = 0;
    try {
      while (true) {
        if (keys.variables() > declared) {
          declared = keys.variables();
          solver.newVar(declared);
        }
        for (; added < clauses.size(); added++) {
          solver.addClause(new VecInt(clauses.get(added)));
        }
        final long left = (deadline - System.nanoTime()) / 1_000_000L;
        if (left <= 0) {
          return budgetSpent(clauses.size(), rounds);
        }
        LOG.debug("version-order search: round=[{}] variables=[{}] clauses=[{}] ms=[{}]", rounds, keys.variables(),
            clauses.size(), (System.nanoTime() - t0) / 1_000_000L);
        solver.setTimeoutMs(left);
        if (!solver.isSatisfiable()) {
          return violated(clauses, clauseCycles, rounds);
        }
        rounds++;
        final boolean[] model = new boolean[keys.variables() + 1];
        for (int v = 1; v <= keys.variables(); v++) {
          model[v] = solver.model(v);
        }
        keys.addCandidate(p.known, model);
        final boolean acyclic = block(clauses, clauseCycles, seen) & blockTriangles(clauses, clauseCycles, seen);
        if (acyclic && wantFeed) {
          feed = topologicalFeed();
        }
        p.known.truncate(fixedBase);
        if (acyclic) {
          return new Outcome(Verdict.SATISFIED, null, List.of(), true, p.variables, clauses.size(), rounds, p.txns);
        }
      }
    } catch (final ContradictionException e) {
      return violated(clauses, clauseCycles, rounds);
    } catch (final TimeoutException e) {
      return budgetSpent(clauses.size(), rounds);
    } finally {
      p.known.truncate(base);
    }
  }

  private Outcome budgetSpent(final int clauses, final int rounds) {
    final String open = keys == null ? "" : keys.open + " of them open after pruning, ";
    return unknown("the search of version orders left open by blind writes ran out of its time budget (" + rounds
        + " candidate orders, " + clauses + " cycles blocked, " + p.variables + " pairs of blind-write chains, " + open
        + "raise --solver-budget); no violation is certain", p.variables, clauses, rounds, p.txns);
  }

  /**
   * Finds cycles of the current candidate and adds one clause per new cycle (and, the first time a
   * forced pair's edge is in one, that pair's variable and its unit clause); true when there is none.
   */
  private boolean block(final List<int[]> clauses, final List<List<Step>> cycles, final Set<List<Integer>> seen) {
    final List<GraphCycles.Cycle> found = GraphCycles.find(p.known, p.nodes, si, CYCLES_PER_ROUND, true);
    for (final GraphCycles.Cycle c : found) {
      final IntList lits = new IntList(8);
      final Set<Integer> distinct = new HashSet<>();
      for (final int e : c.edges()) {
        final int pairLit = p.known.literal[e];
        if (pairLit == 0) {
          continue;
        }
        final int lit = keys.solverLiteral(p.known.key[e], pairLit, f -> {
          clauses.add(new int[] {keys.solverLiteral(f.literal())});
          cycles.add(null); // built when a core needs it
          forced.put(clauses.size() - 1, f);
        });
        if (distinct.add(-lit)) {
          lits.add(-lit);
        }
      }
      final int[] clause = lits.toArray();
      Arrays.sort(clause);
      if (seen.add(Arrays.stream(clause).boxed().toList())) {
        clauses.add(clause);
        cycles.add(steps(p.known, c.edges()));
      }
    }
    return found.isEmpty();
  }

  /**
   * Adds one clause per three-cycle of choices of the last candidate ({@link KeyOrders#triangles}:
   * chain a before b, b before c, c before a, which no version order has), with its cycle of WW
   * steps for a counterexample; true when there was none.
   */
  private boolean blockTriangles(final List<int[]> clauses, final List<List<Step>> cycles,
      final Set<List<Integer>> seen) {
    final IntList t = keys.triangles;
    for (int i = 0; i < t.size(); i += 4) {
      final int k = t.get(i);
      final int[] chains = p.openChains.get(k);
      final int[] at = {t.get(i + 1), t.get(i + 2), t.get(i + 3)};
      final IntList lits = new IntList(3);
      final List<Step> steps = new ArrayList<>(3);
      for (int j = 0; j < 3; j++) {
        final int x = at[j];
        final int y = at[(j + 1) % 3];
        final int lit = keys.solverLiteral(k, p.literal(k, x, y), f -> {
          clauses.add(new int[] {keys.solverLiteral(f.literal())});
          cycles.add(null); // built when a core needs it
          forced.put(clauses.size() - 1, f);
        });
        lits.add(-lit);
        final int c = chains[x];
        steps.add(new Step(new Edge(p.txns.get(p.chainLast.get(c)).id(), p.txns.get(p.chainFirst.get(chains[y])).id(),
            EdgeKind.WW, p.keys.get(k), p.chainValue.get(c)), true));
      }
      final int[] clause = lits.toArray();
      Arrays.sort(clause);
      if (seen.add(Arrays.stream(clause).boxed().toList())) {
        clauses.add(clause);
        cycles.add(steps);
      }
    }
    return t.size() == 0;
  }

  private Outcome violated(final List<int[]> clauses, final List<List<Step>> cycles, final int rounds) {
    final List<Integer> core = minimalCore(clauses);
    final List<Integer> all = core == null ? range(clauses.size()) : core;
    final List<List<Step>> shown = new ArrayList<>();
    // Cycles of forced choices are built by a search each: only those an explanation shows.
    for (final int i : all.subList(0, Math.min(all.size(), BlindWriteDecision.SHOWN_CYCLES))) {
      shown.add(cycles.get(i) != null ? cycles.get(i) : forcedCycle(forced.get(i)));
    }
    return new Outcome(Verdict.VIOLATED, null, shown, core != null, p.variables, clauses.size(), rounds, p.txns,
        all.size());
  }

  /** The cycle that rules out the negation of a forced choice: a certain path, closed by that choice's edge. */
  private List<Step> forcedCycle(final Pruning.Forced f) {
    final int[] path = Pruning.path(p, si, f.from(), f.to());
    final List<Step> steps = new ArrayList<>(steps(p.known, path == null ? new int[0] : path));
    final int c = f.closingChain();
    final int k = p.chainKey.get(c);
    final String key = p.keys.get(k);
    final Long value = p.chainValue.get(c);
    final EdgeKind kind = f.to() == p.chainLast.get(c) ? EdgeKind.WW : EdgeKind.RW;
    steps.add(new Step(new Edge(p.txns.get(f.to()).id(), p.txns.get(f.from()).id(), kind, key, value), true));
    return steps;
  }

  private static List<Integer> range(final int n) {
    final List<Integer> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  /** Deletion-based minimal unsatisfiable subset of the clauses, or null when too large or out of time. */
  private List<Integer> minimalCore(final List<int[]> clauses) {
    if (clauses.size() > MINIMIZE_AT_MOST) {
      return null;
    }
    final List<Integer> core = range(clauses.size());
    for (int i = core.size() - 1; i >= 0; i--) {
      if (System.nanoTime() > deadline) {
        return null;
      }
      final List<Integer> without = new ArrayList<>(core);
      without.remove(i);
      final Boolean sat = satisfiable(clauses, without);
      if (sat == null) {
        return null;
      }
      if (!sat) {
        core.remove(i);
      }
    }
    return core;
  }

  private Boolean satisfiable(final List<int[]> clauses, final List<Integer> subset) {
    final ISolver s = SolverFactory.newDefault();
    s.newVar(Math.max(1, keys.variables()));
    try {
      for (final int i : subset) {
        s.addClause(new VecInt(clauses.get(i)));
      }
      s.setTimeoutMs(Math.max(1, (deadline - System.nanoTime()) / 1_000_000L));
      return s.isSatisfiable();
    } catch (final ContradictionException e) {
      return false;
    } catch (final TimeoutException e) {
      return null;
    }
  }

  /** Kahn's topological order of the certain edges, ties (and cycles, should SI allow them) broken by end time. */
  private int[] greedyPositions() {
    final EdgeList g = p.known;
    final int n = p.nodes;
    final int[] indeg = new int[n];
    final int[] outStart = new int[n + 1];
    for (int e = 0; e < g.size; e++) {
      indeg[g.to[e]]++;
      outStart[g.from[e] + 1]++;
    }
    for (int v = 0; v < n; v++) {
      outStart[v + 1] += outStart[v];
    }
    final int[] out = new int[g.size];
    final int[] fill = Arrays.copyOf(outStart, n);
    for (int e = 0; e < g.size; e++) {
      out[fill[g.from[e]]++] = g.to[e];
    }
    final long[] prio = new long[n];
    Arrays.fill(prio, Long.MIN_VALUE);
    System.arraycopy(p.priority, 0, prio, 0, p.realNodes());
    final PriorityQueue<Integer> ready = new PriorityQueue<>((a, b) -> prio[a] != prio[b]
        ? Long.compare(prio[a], prio[b]) : Integer.compare(a, b));
    for (int v = 0; v < n; v++) {
      if (indeg[v] == 0) {
        ready.add(v);
      }
    }
    final int[] position = new int[n];
    final boolean[] done = new boolean[n];
    int placed = 0;
    int scan = 0;
    final Integer[] byPrio = new Integer[n];
    for (int v = 0; v < n; v++) {
      byPrio[v] = v;
    }
    Arrays.sort(byPrio, (a, b) -> prio[a] != prio[b] ? Long.compare(prio[a], prio[b]) : Integer.compare(a, b));
    while (placed < n) {
      if (ready.isEmpty()) {
        while (done[byPrio[scan]]) {
          scan++;
        }
        ready.add(byPrio[scan]);
        indeg[byPrio[scan]] = 0;
      }
      final int v = ready.poll();
      if (done[v]) {
        continue;
      }
      done[v] = true;
      position[v] = placed++;
      for (int j = outStart[v]; j < outStart[v + 1]; j++) {
        final int w = out[j];
        if (!done[w] && --indeg[w] == 0) {
          ready.add(w);
        }
      }
    }
    return position;
  }

  /** The cycle's edges between transactions; a run through time nodes becomes one RT edge. */
  private List<Step> steps(final EdgeList g, final int[] edges) {
    final List<Step> out = new ArrayList<>();
    final int real = p.realNodes();
    // A cycle may start inside a run of time nodes: that run was entered by the cycle's last step into it.
    int pendingFrom = -1;
    for (final int e : edges) {
      if (g.from[e] < real && g.to[e] >= real) {
        pendingFrom = g.from[e];
      }
    }
    for (final int e : edges) {
      final int f = g.from[e];
      final int t = g.to[e];
      if (t >= real) {
        if (f < real) {
          pendingFrom = f;
        }
        continue;
      }
      final int source = f >= real ? pendingFrom : f;
      final EdgeKind kind = g.kindOf(e);
      final String key = g.key[e] < 0 ? null : p.keys.get(g.key[e]);
      final Long value = g.value[e] == EdgeList.NO_VALUE || key == null ? null : g.value[e];
      final boolean chosenRead = kind == EdgeKind.WR && source == f && p.chosenReads.contains(List.of(f, t, g.key[e]));
      out.add(new Step(new Edge(p.txns.get(source).id(), p.txns.get(t).id(), kind, key, value),
          g.literal[e] != 0 || chosenRead));
    }
    return out;
  }
}
