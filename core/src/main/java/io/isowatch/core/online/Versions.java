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

  private final KeyValueTable written;
  private final IntList key;
  private final LongList value;
  private final IntList writer;
  private byte[] flags;

  Versions(final int expected) {
    written = new KeyValueTable(expected);
    key = new IntList(expected);
    value = new LongList(expected);
    writer = new IntList(expected);
    flags = new byte[Math.max(16, expected)];
  }

  /** The version of a written (key, value), or -1 if nobody wrote it yet. */
  int find(final int k, final long v) {
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
    add(k, v, writerSlot, isFinal ? FINAL : 0);
    return -1;
  }

  /** The newest version. */
  int last() {
    return key.size() - 1;
  }

  /** The initial version of key k; {@code initial} null means keys start absent. */
  int addInitial(final int k, final Long initial) {
    return add(k, initial == null ? 0 : initial, TxnIndex.INIT,
        (byte) (INITIAL | FINAL | (initial == null ? ABSENT : 0)));
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
