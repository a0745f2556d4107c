package io.isowatch.core.check;

import io.isowatch.core.graph.IntList;

/**
 * The dependency edges of one history, as parallel primitive arrays (millions of edges; no
 * objects). Each edge has a kind, and for WR/WW/RW the key and the version it is about (see {@link
 * Edge} for what the version means per kind).
 */
final class EdgeTable {
  static final EdgeKind[] KINDS = EdgeKind.values();

  private final IntList from = new IntList(1 << 14);
  private final IntList to = new IntList(1 << 14);
  private final IntList kind = new IntList(1 << 14);
  private final IntList key = new IntList(1 << 14);
  private final IntList version = new IntList(1 << 14);

  int add(final int u, final int v, final EdgeKind k, final int keyId, final int versionId) {
    from.add(u);
    to.add(v);
    kind.add(k.ordinal());
    key.add(keyId);
    version.add(versionId);
    return from.size() - 1;
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
    return KINDS[kind.get(e)];
  }

  int key(final int e) {
    return key.get(e);
  }

  int version(final int e) {
    return version.get(e);
  }
}
