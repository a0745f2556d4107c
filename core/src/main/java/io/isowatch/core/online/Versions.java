package io.isowatch.core.online;

import io.isowatch.core.graph.IntList;
import java.util.Arrays;

/**
 * Store {@code versions}: (key, value) → version id, and per version its key, value, writer and
 * flags: whether the write was its writer's last of the key (only such a write may be read),
 * whether the value was written more than once (then reads of it are not attributed), and whether
 * it is a key's initial value. A key's initial version is made when the key is first seen.
 */
final class Versions {
  static final byte FINAL = 1;
  static final byte REPEATED = 2;
  static final byte INITIAL = 4;
  static final byte ABSENT = 8;
  /** A second transaction read it and then wrote its key (two successors: a lost update). */
  static final byte SIBLINGS = 16;

  private final KeyValueTable written;
  private final IntList key;
  private final LongList value;
  private final IntList writer;
  private byte[] flags;
  /**
   * Per key id: its newest written version, or -1. A read usually reads its key's newest version,
   * and a writer looks its own versions up again right after writing them: {@link #find} answers
   * those from this array and the version's value, which were touched a moment ago, instead of
   * probing the table (a cache miss in a table of millions of entries). A written (key, value) has
   * exactly one version, the one the table holds, so the answer is the table's.
   */
  private int[] latest = filled(1 << 10);

  Versions(final int expected) {
    written = new KeyValueTable(expected);
    key = new IntList(expected);
    value = new LongList(expected);
    writer = new IntList(expected);
    flags = new byte[Math.max(16, expected)];
  }

  private static int[] filled(final int n) {
    final int[] a = new int[n];
    Arrays.fill(a, -1);
    return a;
  }

  /** The version of a written (key, value), or -1 if nobody wrote it yet. */
  int find(final int k, final long v) {
    final int newest = k < latest.length ? latest[k] : -1;
    if (newest >= 0 && value.get(newest) == v) {
      return newest;
    }
    return written.get(k, v);
  }

  /**
   * The version of (k, v) if it was written already (the caller reports the repeat), else -1
   * after adding it as written by {@code writerSlot}.
   */
  int addWritten(final int k, final long v, final int writerSlot, final boolean isFinal) {
    final int existing = written.putIfAbsent(k, v, key.size());
    if (existing >= 0) {
      return existing;
    }
    final int id = add(k, v, writerSlot, isFinal ? FINAL : 0);
    ensureKey(k);
    latest[k] = id;
    return -1;
  }

  /** The newest version. */
  int last() {
    return key.size() - 1;
  }

  /** The initial version of key k; {@code initial} null means keys start absent. */
  int addInitial(final int k, final Long initial) {
    ensureKey(k);
    return add(k, initial == null ? 0 : initial, TxnIndex.INIT,
        (byte) (INITIAL | FINAL | (initial == null ? ABSENT : 0)));
  }

  private void ensureKey(final int k) {
    if (k >= latest.length) {
      final int old = latest.length;
      latest = Arrays.copyOf(latest, Math.max(k + 1, 2 * old));
      Arrays.fill(latest, old, latest.length, -1);
    }
  }

  private int add(final int k, final long v, final int w, final int f) {
    final int id = key.size();
    key.add(k);
    value.add(v);
    writer.add(w);
    if (id == flags.length) {
      flags = Arrays.copyOf(flags, 2 * id);
    }
    flags[id] = (byte) f;
    return id;
  }

  void markRepeated(final int version) {
    flags[version] |= REPEATED;
  }

  void markSiblings(final int version) {
    flags[version] |= SIBLINGS;
  }

  boolean hasSiblings(final int version) {
    return (flags[version] & SIBLINGS) != 0;
  }

  boolean isRepeated(final int version) {
    return (flags[version] & REPEATED) != 0;
  }

  boolean isFinal(final int version) {
    return (flags[version] & FINAL) != 0;
  }

  int key(final int version) {
    return key.get(version);
  }

  int writer(final int version) {
    return writer.get(version);
  }

  Long value(final int version) {
    return (flags[version] & ABSENT) != 0 ? null : Long.valueOf(value.get(version));
  }

  long rawValue(final int version) {
    return value.get(version);
  }
}
