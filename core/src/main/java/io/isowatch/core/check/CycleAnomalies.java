package io.isowatch.core.check;

import io.isowatch.core.history.Op;
import io.isowatch.core.history.Transaction;
import java.util.ArrayList;
import java.util.List;

/** Turns a cycle of steps into a typed, explained {@link Anomaly}. */
final class CycleAnomalies {
  private final DependencyView view;
  private final Explainer explainer;

  CycleAnomalies(final DependencyView view, final Explainer explainer) {
    this.view = view;
    this.explainer = explainer;
  }

  CycleClassifier.Classification classify(final List<CycleStep> steps) {
    return CycleClassifier.classify(steps, this::firstRead, new CycleClassifier.StepKeys() {
      @Override
      public int wrKey(final CycleStep step) {
        return keyOfFirst(step, EdgeKind.WR);
      }

      @Override
      public int rwKey(final CycleStep step) {
        return keyOfFirst(step, EdgeKind.RW);
      }
    });
  }

  Anomaly anomaly(final List<CycleStep> steps) {
    final CycleClassifier.Classification c = classify(steps);
    final boolean writeOrder = c.type().startsWith("G0");
    // Shown as classified: a cycle whose every step holds in SER's graph is classified without real
    // time (CycleClassifier), so a step where RT and RW both hold is shown as its RW, not as RT: the
    // name (G2-item: two RW) and the levels (SER) then follow from the edges the explanation shows.
    final boolean withoutRealTime = steps.stream().allMatch(CycleStep::inSerGraph);
    final List<Integer> representative = new ArrayList<>(steps.size());
    final List<Edge> cycle = new ArrayList<>(steps.size());
    final List<Transaction> txns = new ArrayList<>(steps.size());
    for (final CycleStep s : steps) {
      final int id = representative(withoutRealTime ? s.withoutRealTime() : s, writeOrder);
      representative.add(id);
      cycle.add(toEdge(s, id));
      txns.add(view.txn(s.from()));
    }
    return new Anomaly(c.type(), c.name(), Level.shown(c.violates(), view.requestedLevels()), txns, cycle, explainer.cycle(steps, representative, c));
  }

  /** The edge shown for a step: the most telling dependency; -1 when only real time holds. */
  private int representative(final CycleStep s, final boolean writeOrder) {
    final EdgeKind[] preference = writeOrder
        ? new EdgeKind[] {EdgeKind.WW, EdgeKind.SO, EdgeKind.WR, EdgeKind.RW}
        : new EdgeKind[] {EdgeKind.WR, EdgeKind.WW, EdgeKind.SO, EdgeKind.RW};
    if (s.needsRealTime()) {
      return -1;
    }
    for (final EdgeKind k : preference) {
      for (final int id : s.edgeIds()) {
        if (view.edgeKind(id) == k) {
          return id;
        }
      }
    }
    return -1;
  }

  private Edge toEdge(final CycleStep s, final int id) {
    final String from = view.txnId(s.from());
    final String to = view.txnId(s.to());
    if (id < 0) {
      return new Edge(from, to, EdgeKind.RT, null, null);
    }
    final EdgeKind kind = view.edgeKind(id);
    if (kind == EdgeKind.SO) {
      return new Edge(from, to, EdgeKind.SO, null, null);
    }
    return new Edge(from, to, kind, view.keyName(view.edgeKey(id)), view.versionValue(view.edgeVersion(id)));
  }

  private int keyOfFirst(final CycleStep s, final EdgeKind kind) {
    for (final int id : s.edgeIds()) {
      if (view.edgeKind(id) == kind) {
        return view.edgeKey(id);
      }
    }
    return -1;
  }

  private int firstRead(final int txn, final int key) {
    final List<Op> ops = view.txn(txn).ops();
    final String name = view.keyName(key);
    for (int j = 0; j < ops.size(); j++) {
      if (ops.get(j).isRead() && ops.get(j).key().equals(name)) {
        return j;
      }
    }
    return Integer.MAX_VALUE;
  }
}
