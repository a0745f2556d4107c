package io.isowatch.core.check;

import io.isowatch.core.check.WeakGraph.Arc;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The weak levels decided over {@link WeakGraph}'s arcs as objects, with the counterexample of
 * each violated level: the original decision procedure of {@link WeakLevelCheck}, now run only when
 * {@link WeakDecision} found a level violated (or a read no level allows), to explain it. Which
 * cycle it reports, and how, is what it always reported.
 */
final class WeakCounterexamples {
  private final WeakGraph graph;
  private final long clockCells;

  WeakCounterexamples(final WeakGraph graph) {
    this(graph, WeakLevelCheck.CLOCK_CELLS);
  }

  WeakCounterexamples(final WeakGraph graph, final long clockCells) {
    this.graph = graph;
    this.clockCells = clockCells;
  }

  /** Decides {@code levels} (those of them that are weak); its anomalies show {@code requested}. */
  WeakLevelCheck.Result decide(final Set<Level> levels, final Set<Level> requested) {
    final WeakExplanations explain = new WeakExplanations(graph, requested);
    final Map<Level, Verdict> verdicts = new EnumMap<>(Level.class);
    final Map<Level, Anomaly> witnesses = new EnumMap<>(Level.class);
    if (graph.readViolation() != null) {
      for (final Level level : levels) {
        if (Level.WEAK.contains(level)) {
          verdicts.put(level, Verdict.VIOLATED);
          witnesses.put(level, explain.readViolation(graph.readViolation()));
        }
      }
      return new WeakLevelCheck.Result(verdicts, witnesses, null);
    }
    final List<Arc> base = graph.baseArcs();
    final List<Arc> g1c = ArcCycles.cycle(base, graph.n);
    final List<Arc> wr = base.stream().filter(a -> a.kind() != EdgeKind.SO).toList();
    final AxiomArcs axioms = new AxiomArcs(graph, base, clockCells);
    final String unknownReason = graph.unknownReason();
    String rrReason = null;
    for (final Level level : Level.weakestFirst(levels)) {
      if (!Level.WEAK.contains(level)) {
        continue;
      }
      final List<Arc> cycle;
      if (level == Level.PL2) {
        cycle = ArcCycles.cycle(wr, graph.n);
      } else if (level == Level.RR) {
        final AdyaArcs adya = new AdyaArcs(graph, wr);
        cycle = ArcCycles.cycle(adya.arcs(), graph.n);
        rrReason = adya.blindWriter() == null ? null : "the version order of " + adya.blindWriter()
            + " is open (BLIND_WRITE), and Adya's PL-2.99 needs one; no violation is certain";
      } else {
        cycle = g1c != null ? g1c : ArcCycles.cycle(axioms.withDerived(level), graph.n);
      }
      if (cycle != null) {
        verdicts.put(level, Verdict.VIOLATED);
        witnesses.put(level, level == Level.RR || level == Level.PL2
            ? explain.adyaAnomaly(cycle, level) : explain.anomaly(cycle, level));
      } else if (unknownReason != null || (level == Level.RR && rrReason != null)) {
        verdicts.put(level, Verdict.UNKNOWN);
      } else {
        verdicts.put(level, Verdict.SATISFIED);
      }
    }
    return new WeakLevelCheck.Result(verdicts, witnesses, unknownReason != null ? unknownReason : rrReason);
  }
}
