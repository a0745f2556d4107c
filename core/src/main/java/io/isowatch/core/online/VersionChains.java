package io.isowatch.core.online;

import io.isowatch.core.check.EdgeKind;
import io.isowatch.core.history.InternedOps;
import java.util.Objects;

/**
 * The version chains of one segment (design steps 4-6): the keys ({@link Keys}), the versions
 * written of each ({@link Versions}), who read each version ({@link VersionReaders}), who read it
 * and then wrote its key ({@link VersionSuccessors}), and per key the counted transactions whose
 * version starts a chain of its own (chain heads: a blind write, or a write after a read of a value
 * written twice). It owns the edges these imply: a read of a version is WR from its writer, a
 * read-modify-write of it WW; its readers get RW to its successors, two successors are a lost
 * update, and a reader of the key's initial version, when that is the history's initial value,
 * gets RW to every chain head (docs/anomalies.md, "Certain edges").
 *
 * <p>It also keeps whether each key's version order is open (heads, repeated values: {@link Keys}).
 * Readers, successors and chain heads are rebuilt by the replay of a cut or a restore, so they are
 * not checkpointed; keys, their initial values and their open-order flags are.
 */
final class VersionChains {
  /** Where a read-modify-write of a version that already has a successor goes: a lost update. */
  @FunctionalInterface
  interface LostUpdates {
    void lostUpdate(int version, int first, int second);
  }

  private final Long initialValue;
  private final Keys keys = new Keys();
  private final Versions versions;
  private final VersionSuccessors successors;
  private final VersionReaders readers;
  private final IntMultimap chainHeads;

  /** Chains whose keys first seen start at {@code initialValue}, sized for that many transactions. */
  VersionChains(final Long initialValue, final int expectedTransactions) {
    this.initialValue = initialValue;
    // Mini-transactions write about 1.6 values each; sizing the table up front avoids rehashing.
    this.versions = new Versions(Math.max(1 << 10, 2 * expectedTransactions));
    this.successors = new VersionSuccessors(expectedTransactions);
    this.readers = new VersionReaders(2 * expectedTransactions);
    this.chainHeads = new IntMultimap(1 << 10);
  }

  // Keys.

  /** The id of the key, made on first sight with the initial value as its initial version. */
  int key(final String name) {
    return keys.intern(name, versions, initialValue);
  }

  /** The id of the key of {@code ops}' {@code j}th op, found by its number when it can be ({@link Keys#intern(InternedOps, int, Versions, Long)}). */
  int key(final InternedOps ops, final int j) {
    return keys.intern(ops, j, versions, initialValue);
  }

  /** Makes the next key id for {@code name}, starting at {@code initial} (a cut's frontier, a restore). */
  void seedKey(final String name, final Long initial) {
    keys.seed(name, versions, initial);
  }

  /** After a cut seeded every key of {@code old} in its id order: its key numbering is valid here too. */
  void carryNumbering(final VersionChains old) {
    keys.carryNumbering(old.keys);
  }

  int keyCount() {
    return keys.count();
  }

  String keyName(final int k) {
    return keys.name(k);
  }

  /** The key's initial version: the initial value, or after a cut the key's frontier value. */
  int initialVersion(final int k) {
    return keys.initVersion(k);
  }

  /** The value of the key's initial version. */
  Long initialValueOf(final int k) {
    return versions.value(keys.initVersion(k));
  }

  /** Whether a read of {@code v} of the key reads its initial version. */
  boolean readsInitial(final int k, final Long v) {
    // Once per resolved read: compared in place, without boxing the initial value.
    return versions.hasValue(keys.initVersion(k), v);
  }

  /**
   * Whether k's initial version is the history's initial value, which every version order puts
   * first, and not a frontier value a cut seeded from a pruned writer, whose place among the
   * retained blind writes is open. The initial value is never written (INITIAL_VALUE_WRITE), so
   * the value tells them apart.
   */
  private boolean initialIsFirst(final int k) {
    return Objects.equals(initialValueOf(k), initialValue);
  }

  // Versions.

  /** The version of (k, v), or -1 when nobody wrote it yet. */
  int find(final int k, final long v) {
    return versions.find(k, v);
  }

  /**
   * Registers (k, v) written by {@code writer}: returns -1 when the version is new ({@link
   * #lastVersion()} is it), or the version already written with that value.
   */
  int addWritten(final int k, final long v, final int writer, final boolean isFinal) {
    return versions.addWritten(k, v, writer, isFinal);
  }

  /** The newest version id; versions are numbered from 0 in the order they were added. */
  int lastVersion() {
    return versions.last();
  }

  /** Its value was written more than once: a read of it cannot be attributed. */
  void markRepeated(final int version) {
    versions.markRepeated(version);
  }

  boolean isRepeated(final int version) {
    return versions.isRepeated(version);
  }

  /** Whether it is its writer's last write of the key (not an intermediate version). */
  boolean isFinal(final int version) {
    return versions.isFinal(version);
  }

  int versionKey(final int version) {
    return versions.key(version);
  }

  int writer(final int version) {
    return versions.writer(version);
  }

  Long value(final int version) {
    return versions.value(version);
  }

  /** The value as stored (0 for the absent initial version): the key of pending reads and filters. */
  long rawValue(final int version) {
    return versions.rawValue(version);
  }

  // Chains and the edges they imply.

  /**
   * {@code reader} read {@code version} and the read is attributed to its writer (design step 6):
   * WR from the writer; when the reader also writes the key, WW from the writer, RW from the
   * version's earlier readers, a lost update with each earlier successor, and the reader becomes a
   * successor; RW from the reader to every other successor; for the key's initial version when it
   * is the history's initial value, RW to every other chain head.
   */
  void addRead(final int reader, final int version, final boolean writesKey, final StepEdges step,
      final LostUpdates lost) {
    final int w = versions.writer(version);
    step.add(w, reader, EdgeKind.WR, version);
    if (writesKey) {
      step.add(w, reader, EdgeKind.WW, version);
      for (int e = successors.first(version); e >= 0; e = successors.next(e)) {
        lost.lostUpdate(version, successors.slot(e), reader);
      }
      for (int e = readers.first(version); e >= 0; e = readers.next(e)) {
        step.add(readers.slot(e), reader, EdgeKind.RW, version);
      }
      if (successors.first(version) >= 0) {
        versions.markSiblings(version);
      }
      successors.add(version, reader);
    }
    for (int e = successors.first(version); e >= 0; e = successors.next(e)) {
      final int succ = successors.slot(e);
      if (succ != reader) {
        step.add(reader, succ, EdgeKind.RW, version);
      }
    }
    final int k = versions.key(version);
    // Keys without blind writes (every mini-transaction history) have no chain heads: no cost there.
    if (chainHeads.first(k) >= 0 && version == keys.initVersion(k) && initialIsFirst(k)) {
      for (int e = chainHeads.first(k); e >= 0; e = chainHeads.next(e)) {
        if (chainHeads.value(e) != reader) {
          step.add(reader, chainHeads.value(e), EdgeKind.RW, version);
        }
      }
    }
    readers.add(version, reader);
  }

  /**
   * {@code head} wrote k without a read of another version of k first (blindly, or after a read
   * that cannot be attributed): one more head of the key ({@link #addOpenHead}). Its version
   * follows the initial version in every version order, so every reader of the initial version
   * gets RW(reader → head); the other writers of k follow the initial version through their chain
   * (RW to its first writer, then WW), which already orders them (docs/anomalies.md, "Certain edges").
   */
  void startChain(final int k, final int head, final StepEdges step) {
    keys.addHead(k);
    final int init = keys.initVersion(k);
    if (initialIsFirst(k)) {
      for (int e = readers.first(init); e >= 0; e = readers.next(e)) {
        if (readers.slot(e) != head) {
          step.add(readers.slot(e), head, EdgeKind.RW, init);
        }
      }
    }
    chainHeads.add(k, head);
  }

  /** Whether {@code slot} read {@code version} and then wrote its key (a successor of it). */
  boolean isSuccessor(final int version, final int slot) {
    return successors.contains(version, slot);
  }

  /**
   * Whether two transactions read {@code version} and then wrote its key (it has two successors or
   * more: a lost update). Without it no two transactions are both successors of it, so a caller
   * asking that of a pair need not walk the successors ({@link #isSuccessor}).
   */
  boolean hasSiblingSuccessors(final int version) {
    return versions.hasSiblings(version);
  }

  /**
   * Whether some version has two successors (some lost update was found): false means {@link
   * #hasSiblingSuccessors} is false for every version, so a caller need not ask it per edge.
   */
  boolean anySiblingSuccessors() {
    return versions.anySiblings();
  }

  /** The first successor entry of the version, or -1; walk with {@link #nextSuccessor}. */
  int firstSuccessor(final int version) {
    return successors.first(version);
  }

  int nextSuccessor(final int entry) {
    return successors.next(entry);
  }

  /** The transaction of a successor entry. */
  int successor(final int entry) {
    return successors.slot(entry);
  }

  // Whether each key's version order is open.

  /**
   * A version of k was written after a read of k that has no writer (thin air, stale, or an
   * anomalous read): its place in k's version order is open, but it starts no chain that edges
   * can follow.
   */
  void addOpenHead(final int k) {
    keys.addHead(k);
  }

  /** Undoes one {@link #addOpenHead} (a retracted ThinAirRead whose read is attributed after all). */
  void removeOpenHead(final int k) {
    keys.removeHead(k);
  }

  /** A value of k was written twice: reads of it cannot be attributed. */
  void markAmbiguous(final int k) {
    keys.markAmbiguous(k);
  }

  boolean isAmbiguous(final int k) {
    return keys.isAmbiguous(k);
  }

  /** Versions of k written without a read of the key first. */
  int headCount(final int k) {
    return keys.heads(k);
  }

  /** Keys whose version order is open. */
  int undeterminedKeys() {
    return keys.undeterminedCount();
  }

  /** Per key id: its head count (checkpointed). */
  int[] headCounts() {
    return keys.headCounts();
  }

  /** Per key id: whether a value of it was written twice (checkpointed). */
  boolean[] ambiguousFlags() {
    return keys.ambiguousFlags();
  }

  /** Sets the open-order flags of the keys {@code 0 .. heads.length - 1} (a cut, a restore). */
  void setOrderFlags(final int[] headCounts, final boolean[] ambiguousFlags) {
    keys.setFlags(headCounts, ambiguousFlags);
  }
}
