package io.isowatch.core.online;

import java.util.Arrays;

/**
 * Store {@code versions}: (key, value) → version id, and per version its key, value, writer and
 * flags: whether the write was its writer's last of the key (only such a write may be read),
 * whether the value was written more than once (then reads of it are not attributed), and whether
 * it is a key's initial value. A key's initial version is made when the key is first seen.
 *
 * <p>Each version is one record of three longs in one array (value; key and writer; the key's
 * previous written version and the flags), so that what a lookup reads of a version sits in one
 * place. A key's written versions are linked newest first, and {@link #find} walks that chain: a
 * read almost always reads its key's newest version or the one before (the weak check resolves a
 * read-modify-write's read after the engine registered the write). No (key, value) table is kept
 * while the chains answer quickly:
 *
 * <ul>
 *   <li>A write of a value greater than every value its key had so far cannot repeat one, so it is
 *       added without a lookup and marked {@link #ORDERED}. Every version older than an ordered
 *       one has a smaller value, so a walk that meets an ordered version below the value sought
 *       stops there: no older version holds it. (Values that count up per key, as the generator's
 *       and most workloads' do, make nearly every write ordered.)
 *   <li>Any other write (a value not above the key's greatest) is looked up first: a repeat returns
 *       the version already written.
 *   <li>A walk longer than {@link #WALK} steps (a read of an old version, or values that do not count
 *       up) puts every version of its key in a (key, value) table, once; from then on the key's
 *       versions also go in the table, and a lookup walks two steps before asking it. So no lookup
 *       walks more than {@link #WALK} steps, and the work beyond a table of every version is at most
 *       one pass over each key's versions.
 * </ul>
 *
 * <p>A written (key, value) has exactly one version (a value written again keeps its first), the
 * one the chain and the table agree on; initial versions are in neither.
 */
final class Versions {
  static final byte FINAL = 1;
  static final byte REPEATED = 2;
  static final byte INITIAL = 4;
  static final byte ABSENT = 8;
  /** A second transaction read it and then wrote its key (two successors: a lost update). */
  static final byte SIBLINGS = 16;
  /** Its value was greater than every earlier value of its key (see the class comment). */
  static final byte ORDERED = 32;

  /** The longest walk along a key's chain before the key's versions are put in the table. */
  static final int WALK = 16;
  /** Walk length for a key whose versions are all in the table. */
  private static final int INDEXED_WALK = 2;

  /** Per-key state: every written version of the key is in the table. */
  private static final byte INDEXED_KEY = 1;

  private static final int STRIDE = 3;

  /** The versions of the keys whose chains were too long to walk (see the class comment); made on first use. */
  private KeyValueTable written;
  /**
   * Per version, at {@code 3 * id}: the value (0 for an absent initial version); then the key (high
   * half) and the writer; then the key's previous written version, or -1 (high half), and the flags.
   */
  private long[] records;
  private int size;
  /** Whether some version was marked {@link #SIBLINGS} (a lost update); until then none has two successors. */
  private boolean anySiblings;
  /** Per key id: its newest written version, or -1. */
  private int[] latest = filled(1 << 10);
  /** Per key id: the greatest value written (meaningful once the key has a written version). */
  private long[] greatest = new long[1 << 10];
  /** Per key id: {@link #INDEXED_KEY} or 0. */
  private byte[] keyState = new byte[1 << 10];

  Versions(final int expected) {
    records = new long[STRIDE * Math.max(16, expected)];
  }

  private static int[] filled(final int n) {
    final int[] a = new int[n];
    Arrays.fill(a, -1);
    return a;
  }

  /** The version of a written (key, value), or -1 if nobody wrote it yet. */
  int find(final int k, final long v) {
    if (k >= latest.length) {
      return -1;
    }
    final boolean indexed = keyState[k] != 0;
    final int limit = indexed ? INDEXED_WALK : WALK;
    int id = latest[k];
    for (int steps = 0; id >= 0; steps++) {
      final int at = STRIDE * id;
      final long value = records[at];
      if (value == v) {
        return id;
      }
      final long meta = records[at + 2];
      if ((meta & ORDERED) != 0 && value < v) {
        // Every earlier version of k has a value below this one's, so below v.
        return -1;
      }
      if (steps == limit) {
        if (!indexed) {
          index(k);
        }
        return written.get(k, v);
      }
      id = (int) (meta >> 32);
    }
    // The whole chain was walked: every written version of k was compared.
    return -1;
  }

  /**
   * The version of (k, v) if it was written already (the caller reports the repeat), else -1
   * after adding it as written by {@code writerSlot}.
   */
  int addWritten(final int k, final long v, final int writerSlot, final boolean isFinal) {
    ensureKey(k);
    final int newest = latest[k];
    // A value above every earlier value of the key cannot be one of them: no lookup.
    final boolean ordered = newest < 0 || v > greatest[k];
    if (!ordered) {
      final int existing = find(k, v);
      if (existing >= 0) {
        return existing;
      }
    }
    final int id = add(k, v, writerSlot, (isFinal ? FINAL : 0) | (ordered ? ORDERED : 0), newest);
    latest[k] = id;
    if (ordered) {
      greatest[k] = v;
    }
    if (keyState[k] != 0) {
      written.put(k, v, id);
    }
    return -1;
  }

  /** Puts every written version of k in the table; its later versions go there too. */
  private void index(final int k) {
    if (written == null) {
      written = new KeyValueTable(1 << 10);
    }
    final KeyValueTable t = written;
    for (int id = latest[k]; id >= 0; id = (int) (records[STRIDE * id + 2] >> 32)) {
      t.put(k, records[STRIDE * id], id);
    }
    keyState[k] |= INDEXED_KEY;
  }

  /** The newest version. */
  int last() {
    return size - 1;
  }

  /** The initial version of key k; {@code initial} null means keys start absent. */
  int addInitial(final int k, final Long initial) {
    ensureKey(k);
    return add(k, initial == null ? 0 : initial, TxnIndex.INIT,
        INITIAL | FINAL | (initial == null ? ABSENT : 0), -1);
  }

  private void ensureKey(final int k) {
    if (k >= latest.length) {
      final int old = latest.length;
      final int n = Math.max(k + 1, 2 * old);
      latest = Arrays.copyOf(latest, n);
      Arrays.fill(latest, old, n, -1);
      greatest = Arrays.copyOf(greatest, n);
      keyState = Arrays.copyOf(keyState, n);
    }
  }

  private int add(final int k, final long v, final int w, final int f, final int previous) {
    final int id = size;
    if (STRIDE * (id + 1) > records.length) {
      records = Arrays.copyOf(records, 2 * records.length);
    }
    final int at = STRIDE * id;
    records[at] = v;
    records[at + 1] = (long) k << 32 | (w & 0xFFFFFFFFL);
    records[at + 2] = (long) previous << 32 | (f & 0xFF);
    size++;
    return id;
  }

  private void flag(final int version, final byte f) {
    records[STRIDE * version + 2] |= f;
  }

  private boolean has(final int version, final byte f) {
    return (records[STRIDE * version + 2] & f) != 0;
  }

  void markRepeated(final int version) {
    flag(version, REPEATED);
  }

  void markSiblings(final int version) {
    flag(version, SIBLINGS);
    anySiblings = true;
  }

  /** Whether some version has two successors or more: false means {@link #hasSiblings} is false for all. */
  boolean anySiblings() {
    return anySiblings;
  }

  boolean hasSiblings(final int version) {
    return has(version, SIBLINGS);
  }

  boolean isRepeated(final int version) {
    return has(version, REPEATED);
  }

  boolean isFinal(final int version) {
    return has(version, FINAL);
  }

  int key(final int version) {
    return (int) (records[STRIDE * version + 1] >>> 32);
  }

  int writer(final int version) {
    return (int) records[STRIDE * version + 1];
  }

  Long value(final int version) {
    return has(version, ABSENT) ? null : Long.valueOf(records[STRIDE * version]);
  }

  /** {@code Objects.equals(v, value(version))} without boxing ({@code v} null: the version is absent). */
  boolean hasValue(final int version, final Long v) {
    final boolean absent = has(version, ABSENT);
    return v == null ? absent : !absent && records[STRIDE * version] == v;
  }

  long rawValue(final int version) {
    return records[STRIDE * version];
  }
}
