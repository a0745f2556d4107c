package io.isowatch.core.online;

import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.graph.IntList;
import java.util.Arrays;

/**
 * Store {@code dependency-edges}: every SO, WR, WW and RW edge built (edge id → kind and version,
 * for explanations), grouped: a group is the edges between one ordered pair of transactions that
 * one processing step built, and it is what the level graphs insert or refuse as a unit. A group
 * of the SSER graph's real-time encoding (transaction → time point, point → transaction) has no
 * dependency edges. Endpoints are slots, or {@code -(point + 1)} for a time point.
 */
final class DependencyEdges {
  static final EdgeKind[] KINDS = EdgeKind.values();
  static final int RT_MASK = 1 << EdgeKind.RT.ordinal();
  static final int RW_MASK = 1 << EdgeKind.RW.ordinal();

  private byte[] kind;
  private final IntList version;
  private final IntList groupFrom;
  private final IntList groupTo;
  private final IntList groupFirst;
  private final IntList groupCount;
  private final IntList groupMask;

  DependencyEdges(final int expectedTransactions) {
    final int edges = Math.max(1 << 10, 5 * expectedTransactions);
    final int groups = Math.max(1 << 10, 6 * expectedTransactions);
    kind = new byte[edges];
    version = new IntList(edges);
    groupFrom = new IntList(groups);
    groupTo = new IntList(groups);
    groupFirst = new IntList(groups);
    groupCount = new IntList(groups);
    groupMask = new IntList(groups);
  }

  int addEdge(final EdgeKind k, final int versionId) {
    final int e = version.size();
    if (e == kind.length) {
      kind = Arrays.copyOf(kind, 2 * e);
    }
    kind[e] = (byte) k.ordinal();
    version.add(versionId);
    return e;
  }

  /** Opens a group whose edges are the next ones added. */
  int openGroup(final int from, final int to) {
    final int g = groupFrom.size();
    groupFrom.add(from);
    groupTo.add(to);
    groupFirst.add(version.size());
    groupCount.add(0);
    groupMask.add(0);
    return g;
  }

  void addToGroup(final int g, final EdgeKind k, final int versionId) {
    addEdge(k, versionId);
    groupCount.set(g, groupCount.get(g) + 1);
    groupMask.set(g, groupMask.get(g) | (1 << k.ordinal()));
  }

  /** Marks a group as real-time encoding (it has no dependency edges). */
  void markRealTime(final int g) {
    groupMask.set(g, groupMask.get(g) | RT_MASK);
  }

  /** Edges counted but not stored ({@link #countUngrouped}). */
  private long ungrouped;

  /** Counts edges that no level graph needs (none is requested), without storing them. */
  void countUngrouped(final int edges) {
    ungrouped += edges;
  }

  /** Edges built, stored or only counted. */
  long edges() {
    return version.size() + ungrouped;
  }

  EdgeKind kind(final int e) {
    return KINDS[kind[e]];
  }

  int version(final int e) {
    return version.get(e);
  }

  int from(final int g) {
    return groupFrom.get(g);
  }

  int to(final int g) {
    return groupTo.get(g);
  }

  int first(final int g) {
    return groupFirst.get(g);
  }

  int count(final int g) {
    return groupCount.get(g);
  }

  /** Kinds in the group, a bitmask over {@link EdgeKind} ordinals. */
  int mask(final int g) {
    return groupMask.get(g);
  }

  /** The group joins two transactions (not a time point). */
  boolean betweenTransactions(final int g) {
    return groupFrom.get(g) >= 0 && groupTo.get(g) >= 0;
  }
}
