package io.isowatch.core.online;

import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.graph.IntList;

/**
 * The edges built while processing one released transaction (its own, and those of the pending
 * reads and promotions it triggers), before they are grouped by pair and inserted into the level
 * graphs in a fixed order. Endpoints are slots, or {@code -(point + 1)} for a time point.
 */
final class StepEdges {
  private final IntList from = new IntList(64);
  private final IntList to = new IntList(64);
  private final IntList kind = new IntList(64);
  private final IntList version = new IntList(64);

  void add(final int u, final int v, final EdgeKind k, final int versionId) {
    from.add(u);
    to.add(v);
    kind.add(k.ordinal());
    version.add(versionId);
  }

  int size() {
    return from.size();
  }

  int from(final int i) {
    return from.get(i);
  }

  int to(final int i) {
    return to.get(i);
  }

  int kind(final int i) {
    return kind.get(i);
  }

  int version(final int i) {
    return version.get(i);
  }

  void clear() {
    from.clear();
    to.clear();
    kind.clear();
    version.clear();
  }

  /** Endpoint code of a time point. */
  static int point(final int p) {
    return -(p + 1);
  }
}
