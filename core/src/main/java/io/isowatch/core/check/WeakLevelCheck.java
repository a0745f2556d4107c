package io.isowatch.core.check;

import io.isowatch.core.history.Transaction;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides the weak levels PL2, RC, RA and CC (docs/levels.md) from the write-read and session
 * orders alone, by saturation (Biswas-Enea, OOPSLA 2019, Section 4): each level's axiom says which
 * writers must commit before the writer a read returned, and the level holds exactly when SO, WR
 * and those edges together are acyclic (PL2: when SO ∪ WR is). None of them needs a key's version
 * order, so blind writes leave them decided; only a read whose writer is not known for sure (a value
 * written twice, or no committed writer yet) leaves them UNKNOWN, unless a violation is certain.
 * RR is decided on Adya's certain edges ({@link AdyaArcs}).
 *
 * <p>The transactions given are the committed ones (and indeterminate ones that were read); the
 * reads the engine already reports as non-cycle anomalies (thin air, aborted, intermediate, own
 * writes) are its concern, not this class's. The result names one counterexample per violated
 * level, as an {@link Anomaly} with a Let/Then explanation.
 *
 * <p>Two steps. {@link WeakIndex} and {@link WeakDecision} decide each level over primitive
 * arrays, without building the arcs that write-read arcs already imply. Only a level found
 * violated is then explained by the arc graph ({@link WeakCounterexamples}): {@link WeakGraph}
 * resolves reads and session order, {@link AxiomArcs} and {@link AdyaArcs} derive each level's
 * arcs, {@link ArcCycles} finds cycles, {@link WeakExplanations} turns a cycle into an anomaly; so
 * the counterexample is the one the arc graph gives (docs/benchmarks.md, "Weak levels").
 */
public final class WeakLevelCheck {
  /** One transaction as the engine holds it: its session id and rank in the session. */
  public record Entry(Transaction txn, int session, long rank) {}

  /** Verdicts of the weak levels, the counterexample of each violated one, and why an unknown one is. */
  public record Result(Map<Level, Verdict> verdicts, Map<Level, Anomaly> witnesses, String unknownReason) {}

  /** Vector clocks of CC hold at most this many ints at a time (a chunk of sessions at a time). */
  static final long CLOCK_CELLS = 1L << 25;

  private final List<Entry> all;
  private final Long initialValue;
  private final boolean horizon;
  private final boolean complete;
  private final long clockCells;
  private final WeakIndex index;

  /**
   * @param all the transactions to judge
   * @param initialValue the value of every key before any write (null: absent)
   * @param horizon whether transactions were pruned (a cut): a read of a value no given transaction
   *     wrote then reads a pruned version and is not judged, instead of leaving the levels UNKNOWN
   * @param complete whether every transaction has arrived (a flush): a read of a value nobody wrote
   *     is then from thin air, not waiting for its writer
   */
  public WeakLevelCheck(final List<Entry> all, final Long initialValue, final boolean horizon, final boolean complete) {
    this(all, initialValue, horizon, complete, CLOCK_CELLS);
  }

  /** As above, with CC's vector clocks bounded by {@code clockCells} ints (tests use tiny bounds). */
  WeakLevelCheck(final List<Entry> all, final Long initialValue, final boolean horizon, final boolean complete,
      final long clockCells) {
    this.all = all;
    this.initialValue = initialValue;
    this.horizon = horizon;
    this.complete = complete;
    this.clockCells = clockCells;
    this.index = new WeakIndex(all, initialValue, horizon, complete);
  }

  /** Decides {@code levels} (those of them that are weak). */
  public Result decide(final Set<Level> levels) {
    return decide(levels, Level.CLASSIC);
  }

  /** Decides {@code levels} (those of them that are weak); its anomalies show {@code requested}. */
  public Result decide(final Set<Level> levels, final Set<Level> requested) {
    if (index.readViolation()) {
      return counterexamples().decide(levels, requested);
    }
    final WeakDecision decision = new WeakDecision(index, clockCells);
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final Set<Level> violated = EnumSet.noneOf(Level.class);
    final String unknownReason = index.unknownReason();
    String rrReason = null;
    for (final Level level : Level.weakestFirst(levels)) {
      if (!Level.WEAK.contains(level)) {
        continue;
      }
      final boolean cyclic;
      if (level == Level.PL2) {
        cyclic = decision.pl2Cyclic();
      } else if (level == Level.RR) {
        cyclic = decision.rrCyclic();
        rrReason = index.blindKey() == null ? null : "the version order of " + index.blindKey()
            + " is open (BLIND_WRITE), and Adya's PL-2.99 needs one; no violation is certain";
      } else {
        cyclic = decision.axiomCyclic(level);
      }
      if (cyclic) {
        violated.add(level);
        verdicts.put(level, Verdict.VIOLATED);
      } else if (unknownReason != null || (level == Level.RR && rrReason != null)) {
        verdicts.put(level, Verdict.UNKNOWN);
      } else {
        verdicts.put(level, Verdict.SATISFIED);
      }
    }
    final Map<Level, Anomaly> witnesses = new EnumMap<>(Level.class);
    if (!violated.isEmpty()) {
      final Result explained = counterexamples().decide(violated, requested);
      for (final Level level : violated) {
        if (explained.verdicts().get(level) != Verdict.VIOLATED) {
          throw new IllegalStateException("the weak check found " + level + " violated, but no cycle to explain it");
        }
        witnesses.put(level, explained.witnesses().get(level));
      }
    }
    return new Result(verdicts, witnesses, unknownReason != null ? unknownReason : rrReason);
  }

  private WeakCounterexamples counterexamples() {
    return new WeakCounterexamples(new WeakGraph(all, initialValue, horizon, complete), clockCells);
  }
}
