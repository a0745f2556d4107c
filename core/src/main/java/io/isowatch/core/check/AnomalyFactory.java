package io.isowatch.core.check;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Builds the reported {@link Anomaly} records, typed (MTC Table I, Adya) and explained, from an
 * engine's {@link DependencyView}. Both engines use it, so that the same violation is named and
 * explained the same way whichever engine found it.
 */
public final class AnomalyFactory {
  /** A lost update is allowed up to PC (no write-conflict axiom below SI); it is a G-single for Adya. */
  static final java.util.Set<Level> LOST_UPDATE_LEVELS =
      java.util.Collections.unmodifiableSet(java.util.EnumSet.of(Level.SI, Level.RR, Level.SER, Level.SSER));

  private final DependencyView view;
  private final Explainer explainer;
  private final CycleAnomalies cycles;

  public AnomalyFactory(final DependencyView view, final long skewMicros) {
    this.view = view;
    this.explainer = new Explainer(view, skewMicros);
    this.cycles = new CycleAnomalies(view, explainer);
  }

  /** A non-cycle anomaly (MTC Table I (a)-(g)): it violates the levels of its kind. */
  public Anomaly read(final ReadAnomaly a) {
    final List<Transaction> txns = new ArrayList<>(2);
    if (a.writer() > 0 && a.writer() != a.reader()) {
      txns.add(view.txn(a.writer()));
    }
    txns.add(view.txn(a.reader()));
    return new Anomaly(a.kind().type(), a.kind().name(), Level.shown(a.kind().violates(), view.requestedLevels()), txns, List.of(), explainer.read(a),
        new AnomalyRead(view.txnId(a.reader()), a.opIndex(), view.keyName(a.key()), a.value()));
  }

  /**
   * The lost update of two transactions {@code a} and {@code b} that both overwrote {@code version}
   * (MTC Definition 10), with {@code a} listed first.
   */
  public Anomaly lostUpdate(final int version, final int a, final int b) {
    final String key = view.keyName(view.versionKey(version));
    final List<Edge> cycle = List.of(
        new Edge(view.txnId(a), view.txnId(b), EdgeKind.WW, key, lastWrite(view.txn(a), key)),
        new Edge(view.txnId(b), view.txnId(a), EdgeKind.RW, key, view.versionValue(version)));
    // Allowed up to PC (no write-conflict axiom below SI; Cerone et al. 2015).
    return new Anomaly("G-single", "LostUpdate", Level.shown(LOST_UPDATE_LEVELS, view.requestedLevels()), List.of(view.txn(a), view.txn(b)), cycle,
        explainer.lostUpdate(version, a, b));
  }

  /** A counterexample cycle, classified by {@link CycleClassifier}. */
  public Anomaly cycle(final List<CycleStep> steps) {
    return cycles.anomaly(steps);
  }

  /**
   * The name the cycle's anomaly will have ({@link Anomaly#displayName()}), found by classifying
   * it without writing the explanation.
   */
  public String cycleName(final List<CycleStep> steps) {
    final CycleClassifier.Classification c = cycles.classify(steps);
    return c.name() != null ? c.name() : c.type();
  }

  private static Long lastWrite(final Transaction t, final String key) {
    Long v = null;
    for (final Op op : t.ops()) {
      if (op.isWrite() && op.key().equals(key)) {
        v = op.value();
      }
    }
    return v;
  }
}
