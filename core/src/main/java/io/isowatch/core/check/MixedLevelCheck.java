package io.isowatch.core.check;

import io.isowatch.core.history.Transaction;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Decides {@link Level#MIXED}: each transaction at the level it declared, with the semantics of
 * paper 003 (Bouajjani, Enea, Román-Calvo, Definition 6): a history is consistent when one commit
 * order extends SO ∪ WR and satisfies, for every read, the axiom of its reader's level (the
 * writer's level does not matter). Declared levels are RC, RA, CC, PC, SI or SER.
 *
 * <ul>
 *   <li>VIOLATED when the precedences every such order needs ({@link MixedSaturation}) form a cycle,
 *       or a read no level allows was found; the counterexample names the readers whose promises
 *       break ({@link MixedExplanation});
 *   <li>SATISFIED when a topological order of those precedences passes every read's axiom ({@link
 *       MixedCommitOrder}), found directly or after case splits ({@link MixedSearch}): an explicit
 *       witness; VIOLATED as well when every case of a split ends in a cycle;
 *   <li>UNKNOWN otherwise: a read whose writer is not known for sure, a transaction with no usable
 *       level, a history too large for the closure's bit sets, or case splits beyond the budget.
 * </ul>
 *
 * <p>First, when every write is a read-modify-write (what mini-transaction histories give), {@link
 * MixedChains} decides at any size: in linear time when no two writers read one version, and after
 * a lost update (a fork) by searching only the order of the forks' branches ({@link
 * MixedForkSearch}, within the solver budget); the saturation and the search are for the other
 * histories, and for forks the branch search leaves open, up to {@link #MAX_TRANSACTIONS}. When the
 * branch search proves that no commit order exists, the saturation and the search explain the
 * sub-history of the transactions its proof used ({@link MixedForkSearch#core}), at any size.
 */
public final class MixedLevelCheck {
  /**
   * Above this many counted transactions the closure (n² bits both ways: 100 MB at this bound) is
   * not built: UNKNOWN.
   */
  public static final int MAX_TRANSACTIONS = 20_000;

  /** The verdict, its counterexample when VIOLATED, and why when UNKNOWN. */
  public record Result(Verdict verdict, Anomaly witness, String unknownReason) {}

  private final WeakGraph graph;
  private final Function<Transaction, Level> levelOf;
  private final Duration forkBudget;
  /** Whether {@link MixedChains} goes first; off only to test it against the search. */
  private boolean chainsFirst = true;

  /**
   * @param levelOf each transaction's declared level (one of {@link Level#MIXABLE}), or null when it
   *     has none usable
   * @see WeakLevelCheck#WeakLevelCheck for the other parameters
   */
  public MixedLevelCheck(final List<WeakLevelCheck.Entry> all, final Long initialValue, final boolean horizon,
      final boolean complete, final Function<Transaction, Level> levelOf) {
    this(all, initialValue, horizon, complete, levelOf, CheckOptions.DEFAULT_SOLVER_BUDGET);
  }

  /**
   * @param forkBudget how long the search of forked version orders (lost updates) may take ({@link
   *     CheckOptions#solverBudget()}); zero turns it off
   * @see #MixedLevelCheck(List, Long, boolean, boolean, Function)
   */
  public MixedLevelCheck(final List<WeakLevelCheck.Entry> all, final Long initialValue, final boolean horizon,
      final boolean complete, final Function<Transaction, Level> levelOf, final Duration forkBudget) {
    this.graph = new WeakGraph(all, initialValue, horizon, complete);
    this.levelOf = levelOf;
    this.forkBudget = forkBudget;
  }

  /**
   * The check with every reader judged at {@code level} (one of {@link Level#MIXABLE}), for a
   * history that declares none: the uniform level by paper 003's semantics, which is the level's own
   * axiom read by read. Its counterexample names that level's axiom and lists it and the stronger
   * ones, not MIXED.
   */
  public static MixedLevelCheck uniform(final List<WeakLevelCheck.Entry> all, final Long initialValue,
      final boolean horizon, final boolean complete, final Level level, final Duration forkBudget) {
    final MixedLevelCheck check = new MixedLevelCheck(all, initialValue, horizon, complete, t -> level, forkBudget);
    check.uniform = level;
    return check;
  }

  /** The level of {@link #uniform}, else null. */
  private Level uniform;

  private MixedExplanation explanation(final WeakGraph g, final Level[] level, final Set<Level> requested,
      final MixedSaturation known) {
    return new MixedExplanation(g, level, requested, known).uniform(uniform);
  }

  /** The same check without {@link MixedChains}: saturation and search only (tests compare the two). */
  MixedLevelCheck bySearchOnly() {
    chainsFirst = false;
    return this;
  }

  /** Rounds of growing a fork search's core that is not refuted on its own (a safety net: none needed in tests). */
  static final int CORE_ROUNDS = 3;

  /**
   * VIOLATED with a counterexample from the sub-history of {@code core} (the transactions a fork
   * search's refutation used), found by the saturation and case splits of the general check over
   * those transactions only: at any size of the history, since the core is small. Null when the
   * core, grown by {@link #CORE_ROUNDS} steps along session order and reads, is not refuted on its
   * own or exceeds {@link #MAX_TRANSACTIONS}.
   */
  private Result byCore(final int[] core, final Level[] level, final Set<Level> requested) {
    int[] nodes = core;
    for (int round = 0; nodes != null && nodes.length > 0 && nodes.length <= MAX_TRANSACTIONS; round++) {
      final WeakGraph sub = graph.sub(nodes);
      final Level[] subLevel = new Level[nodes.length + 1];
      for (int i = 0; i < nodes.length; i++) {
        subLevel[i + 1] = level[nodes[i]];
      }
      final MixedSaturation saturation = new MixedSaturation(sub, subLevel);
      final List<MixedStep> cycle = saturation.run();
      if (cycle != null) {
        return new Result(Verdict.VIOLATED, explanation(sub, subLevel, requested, saturation)
            .asCoreOf(graph.n, level).anomaly(cycle), null);
      }
      final MixedExplanation explanation = explanation(sub, subLevel, requested, null).asCoreOf(graph.n, level);
      final MixedSearch.Outcome found = new MixedSearch(sub, subLevel, explanation).search(saturation);
      if (found.refuted() != null) {
        return new Result(Verdict.VIOLATED, explanation.bySplit(found.refuted()), null);
      }
      if (round == CORE_ROUNDS || nodes.length == graph.n) {
        return null;
      }
      nodes = grown(nodes);
    }
    return null;
  }

  /** {@code nodes} with each one's session predecessor and the writers it read from. */
  private int[] grown(final int[] nodes) {
    final boolean[] in = new boolean[graph.n + 1];
    for (final int v : nodes) {
      in[v] = true;
      in[graph.soPred[v]] = true;
      for (final WeakGraph.Read r : graph.reads[v]) {
        in[r.writer()] = true;
      }
    }
    in[WeakGraph.INIT] = false;
    return java.util.stream.IntStream.rangeClosed(1, graph.n).filter(v -> in[v]).toArray();
  }

  /** Decides MIXED; its counterexample lists the {@code requested} levels it violates (and SSER, SER, SI). */
  public Result decide(final Set<Level> requested) {
    if (graph.readViolation() != null) {
      return new Result(Verdict.VIOLATED,
          new WeakExplanations(graph, requested).readViolation(graph.readViolation()), null);
    }
    final Level[] level = new Level[graph.n + 1];
    String undeclared = null;
    for (int t = 1; t <= graph.n; t++) {
      level[t] = levelOf.apply(graph.txn(t));
      if (level[t] == null || !Level.MIXABLE.contains(level[t])) {
        level[t] = null;
        undeclared = undeclared != null ? undeclared : graph.id(t);
      }
    }
    if (undeclared != null) {
      return new Result(Verdict.UNKNOWN, null, "transaction " + undeclared + " declares no level IsoWatch can mix "
          + "(INVALID_LEVEL), so its reads cannot be judged");
    }
    // Version orders WR fixes up to forks (every write a read-modify-write): linear when nothing
    // forks, a search of the forks' branch orders when something does; any size.
    final MixedChains chains = chainsFirst ? new MixedChains(graph, level, forkBudget) : null;
    final MixedChains.Outcome chained = chains != null ? chains.decide() : null;
    if (chained != null) {
      if (chained.cycle() != null) {
        return new Result(Verdict.VIOLATED, explanation(graph, level, requested, null).anomaly(chained.cycle()),
            null);
      }
      return graph.unknownReason() != null ? new Result(Verdict.UNKNOWN, null, graph.unknownReason())
          : new Result(Verdict.SATISFIED, null, null);
    }
    if (chains != null && chains.forkRefuted()) {
      // The fork search proved that no commit order exists: explain the sub-history its proof used.
      final Result core = byCore(chains.forkCore(), level, requested);
      if (core != null) {
        return core;
      }
    }
    if (graph.n > MAX_TRANSACTIONS) {
      if (chains != null && chains.forkRefuted()) {
        return new Result(Verdict.UNKNOWN, null, chains.undecided() + ", but the sub-histories of up to "
            + MAX_TRANSACTIONS + " transactions around the transactions that proof used were not refuted by the "
            + "general mixed check, which explains a violation; no counterexample can be shown");
      }
      if (chains != null && chains.undecided() != null && graph.unknownReason() == null) {
        return new Result(Verdict.UNKNOWN, null, chains.undecided() + " (" + graph.n + " transactions are more than "
            + "the general mixed check's closure holds, " + MAX_TRANSACTIONS + ")");
      }
      return new Result(Verdict.UNKNOWN, null, graph.n + " transactions are more than the mixed check's closure holds ("
          + MAX_TRANSACTIONS + "); check a shorter history or a segment of it");
    }
    final MixedSaturation saturation = new MixedSaturation(graph, level);
    final List<MixedStep> cycle = saturation.run();
    if (cycle != null) {
      return new Result(Verdict.VIOLATED, explanation(graph, level, requested, saturation).anomaly(cycle), null);
    }
    if (graph.unknownReason() != null) {
      return new Result(Verdict.UNKNOWN, null, graph.unknownReason());
    }
    final MixedExplanation explanation = explanation(graph, level, requested, null);
    final MixedSearch.Outcome found = new MixedSearch(graph, level, explanation).search(saturation);
    // A split's cycles come from its cases' saturations, which hold the steps they need.
    if (found.order() != null) {
      return new Result(Verdict.SATISFIED, null, null);
    }
    if (found.refuted() != null) {
      return new Result(Verdict.VIOLATED, explanation.bySplit(found.refuted()), null);
    }
    return new Result(Verdict.UNKNOWN, null, found.unknown());
  }
}
