package io.isowatch.core.check;

import io.isowatch.core.graph.IntList;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds SO, WR, WW and RW for the counted transactions (MTC Algorithm 1, BuildDependency, without
 * the transitive closure of WW per Section IV-C).
 *
 * <p>WR comes from unique values. WW links the version a transaction read to the version it then
 * wrote on the same key: in any dependency graph that is not already cyclic, a read-modify-write
 * installs the version right after the one it read. RW links every other reader of a version to
 * the transaction that overwrote it. A version with two or more such successors is an instance of
 * the Divergence pattern (MTC Definition 10, a lost update).
 *
 * <p>Blind writes (no earlier read of the key in the transaction) start a new chain whose place in
 * the version order the history does not fix, and so do reads of a value written more than once:
 * such keys are undetermined and levels with no certain violation become UNKNOWN. Only edges that
 * hold in every candidate graph are built, so every cycle found is a certain violation; among them
 * RW from each reader of a key's initial version to each chain head of the key, since every
 * version order puts the initial version first. (A key's
 * single blind chain must follow its initial chain, but inferring that needs to know no other
 * blind write will come, which an online checker never knows; both engines leave it open.)
 */
final class DependencyGraph implements DependencyView {
  final ReadResolution res;
  final IndexedHistory h;
  final EdgeTable edges;
  final List<int[]> divergences = new ArrayList<>();
  /** Keys whose version order the history leaves open, with the reason. */
  final List<String> undeterminedReasons = new ArrayList<>();
  long blindWrites;
  long undeterminedKeys;
  /** Per key id: the history leaves its version order open. */
  boolean[] undeterminedKey;

  // Per version id: linked lists of successors (installed rows) and of readers (read rows).
  private final int[] succHead;
  private final IntList succNext = new IntList();
  private final IntList succRow = new IntList();
  private final int[] readHead;
  private final int[] readNext;

  private DependencyGraph(final ReadResolution res) {
    this.res = res;
    this.h = res.h;
    this.edges = new EdgeTable(res::keyOfVersion);
    final int versionIds = res.versions.capacity() + h.keys();
    succHead = new int[versionIds];
    readHead = new int[versionIds];
    java.util.Arrays.fill(succHead, -1);
    java.util.Arrays.fill(readHead, -1);
    readNext = new int[res.readTxn.size()];
  }

  static DependencyGraph build(final ReadResolution res) {
    final DependencyGraph g = new DependencyGraph(res);
    g.indexReads();
    g.addSessionOrder();
    g.addWriteRead();
    g.linkSuccessors();
    g.markUndeterminedKeys();
    g.addWriteWriteAndReadWrite();
    g.addReadWriteFromInitial();
    return g;
  }

  @Override
  public io.isowatch.core.history.Transaction txn(final int t) {
    return h.txns[t];
  }

  @Override
  public String keyName(final int key) {
    return h.keyNames[key];
  }

  @Override
  public Long initialValue() {
    return res.initialValue;
  }

  @Override
  public int versionKey(final int version) {
    return res.keyOfVersion(version);
  }

  @Override
  public int versionWriter(final int version) {
    return res.writerOfVersion(version);
  }

  @Override
  public Long versionValue(final int version) {
    return res.valueOfVersion(version);
  }

  @Override
  public EdgeKind edgeKind(final int edge) {
    return edges.kind(edge);
  }

  @Override
  public int edgeVersion(final int edge) {
    return edges.version(edge);
  }

  private void indexReads() {
    for (int r = res.readTxn.size() - 1; r >= 0; r--) {
      final int ver = res.readVersion.get(r);
      if (ver >= 0) {
        readNext[r] = readHead[ver];
        readHead[ver] = r;
      }
    }
  }

  private void addSessionOrder() {
    int prev = -1;
    for (int t = 1; t < h.size(); t++) {
      if (!res.counted[t]) {
        continue;
      }
      if (prev > 0 && h.sessionOf[prev] == h.sessionOf[t]) {
        edges.add(prev, t, EdgeKind.SO, -1);
      }
      prev = t;
    }
  }

  private void addWriteRead() {
    for (int r = 0; r < res.readTxn.size(); r++) {
      final int ver = res.readVersion.get(r);
      if (ver >= 0) {
        edges.add(res.writerOfVersion(ver), res.readTxn.get(r), EdgeKind.WR, ver);
      }
    }
  }

  private void linkSuccessors() {
    for (int row = 0; row < res.instTxn.size(); row++) {
      final int pred = res.instPred.get(row);
      if (pred >= 0) {
        addSuccessor(pred, row);
      }
    }
  }

  private void addSuccessor(final int version, final int row) {
    succNext.add(succHead[version]);
    succRow.add(row);
    succHead[version] = succRow.size() - 1;
  }

  /** Marks the keys whose version order the history leaves open. */
  private void markUndeterminedKeys() {
    final int keys = h.keys();
    undeterminedKey = new boolean[keys];
    final int[] heads = new int[keys];
    final boolean[] ambiguous = new boolean[keys];
    for (int row = 0; row < res.instTxn.size(); row++) {
      final int k = res.instKey.get(row);
      if (res.versions.isMultiplyWritten(res.instVersion.get(row))) {
        ambiguous[k] = true;
      }
      if (res.instBlind.get(row) == 1) {
        blindWrites++;
      }
      if (res.instPred.get(row) < 0) {
        heads[k]++;
        if (res.instBlind.get(row) == 0) {
          ambiguous[k] |= res.instPred.get(row) == ReadResolution.AMBIGUOUS;
        }
      }
    }
    for (int r = 0; r < res.readTxn.size(); r++) {
      if (res.readVersion.get(r) == ReadResolution.AMBIGUOUS) {
        ambiguous[res.readKey.get(r)] = true;
      }
    }
    for (int k = 0; k < keys; k++) {
      if (ambiguous[k]) {
        undetermined(k, UnknownReasons.valuesNotUnique(h.keyNames[k]));
      } else if (heads[k] > 0) {
        undetermined(k, UnknownReasons.versionsWithoutRead(heads[k], h.keyNames[k]));
      }
    }
  }

  private void undetermined(final int key, final String reason) {
    undeterminedKeys++;
    undeterminedKey[key] = true;
    if (undeterminedReasons.size() < 3) {
      undeterminedReasons.add(reason);
    }
  }

  private void addWriteWriteAndReadWrite() {
    final int versionIds = succHead.length;
    for (int ver = 0; ver < versionIds; ver++) {
      if (succHead[ver] < 0) {
        continue;
      }
      final int writer = res.writerOfVersion(ver);
      final IntList succ = new IntList(2);
      for (int s = succHead[ver]; s >= 0; s = succNext.get(s)) {
        succ.add(res.instTxn.get(succRow.get(s)));
      }
      sortAscending(succ);
      for (int i = 0; i < succ.size(); i++) {
        edges.add(writer, succ.get(i), EdgeKind.WW, ver);
        for (int j = i + 1; j < succ.size(); j++) {
          divergences.add(new int[] {ver, succ.get(i), succ.get(j)});
        }
      }
      for (int r = readHead[ver]; r >= 0; r = readNext[r]) {
        final int reader = res.readTxn.get(r);
        for (int i = 0; i < succ.size(); i++) {
          if (succ.get(i) != reader) {
            edges.add(reader, succ.get(i), EdgeKind.RW, ver);
          }
        }
      }
    }
  }

  /**
   * Every version order puts the initial version first, so a reader of a key's initial version
   * precedes every other writer of the key: RW(reader → head) for each head of a chain of its own
   * (a blind write, or a write after a read that cannot be attributed); the other writers follow
   * through their chain (RW to its first writer, then WW). Writers after an anomalous read get
   * none: that read already violates every level. Same edges as the online engine's
   * {@code Processor#chainHead} (docs/anomalies.md, "Certain edges").
   */
  private void addReadWriteFromInitial() {
    final IntList[] heads = new IntList[h.keys()];
    for (int row = 0; row < res.instTxn.size(); row++) {
      if (res.instBlind.get(row) == 1 || res.instPred.get(row) == ReadResolution.AMBIGUOUS) {
        final int k = res.instKey.get(row);
        if (heads[k] == null) {
          heads[k] = new IntList(2);
        }
        heads[k].add(res.instTxn.get(row));
      }
    }
    for (int k = 0; k < heads.length; k++) {
      if (heads[k] == null) {
        continue;
      }
      sortAscending(heads[k]);
      final int init = res.initVersion(k);
      for (int r = readHead[init]; r >= 0; r = readNext[r]) {
        final int reader = res.readTxn.get(r);
        for (int i = 0; i < heads[k].size(); i++) {
          if (heads[k].get(i) != reader) {
            edges.add(reader, heads[k].get(i), EdgeKind.RW, init);
          }
        }
      }
    }
  }

  private static void sortAscending(final IntList list) {
    for (int i = 1; i < list.size(); i++) {
      final int v = list.get(i);
      int j = i - 1;
      while (j >= 0 && list.get(j) > v) {
        list.set(j + 1, list.get(j));
        j--;
      }
      list.set(j + 1, v);
    }
  }
}
