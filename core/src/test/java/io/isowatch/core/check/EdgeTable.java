package io.isowatch.core.check;

import io.isowatch.core.graph.IntList;
import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * The dependency edges of one history, as parallel primitive arrays (millions of edges; no
 * objects). Each edge has a kind, and for WR/WW/RW the version it is about (see {@link Edge} for
 * what the version means per kind); the key is the version's key, so it is not stored again.
 */
final class EdgeTable {
  static final EdgeKind[] KINDS = EdgeKind.values();

  private final IntList from = new IntList(1 << 14);
  private final IntList to = new IntList(1 << 14);
  private final IntList version = new IntList(1 << 14);
  private byte[] kind = new byte[1 << 14];
  private final IntUnaryOperator keyOfVersion;

  EdgeTable(final IntUnaryOperator keyOfVersion) {
    this.keyOfVersion = keyOfVersion;
  }

  /** Adds an edge; {@code versionId} is -1 for SO. Returns its id. */
  int add(final int u, final int v, final EdgeKind k, final int versionId) {
    final int id = from.size();
    if (id == kind.length) {
      kind = Arrays.copyOf(kind, kind.length + (kind.length >> 1));
    }
    kind[id] = (byte) k.ordinal();
    from.add(u);
    to.add(v);
    version.add(versionId);
    return id;
  }

  int size() {
    return from.size();
  }

  int from(final int e) {
    return from.get(e);
  }

  int to(final int e) {
    return to.get(e);
  }

  EdgeKind kind(final int e) {
    return KINDS[kind[e]];
  }

  /** The key id of a WR/WW/RW edge; -1 for SO. */
  int key(final int e) {
    final int v = version.get(e);
    return v < 0 ? -1 : keyOfVersion.applyAsInt(v);
  }

  int version(final int e) {
    return version.get(e);
  }
}
