package io.isowatch.core.online;

import java.util.Arrays;
import java.util.BitSet;

/**
 * The (key, value) pairs for which a cut's replay was told "already checked" ({@link
 * ReplayOracle}): recorded during the cut when a checkpoint may follow, written into it, and read
 * back to answer the restore's replay exactly as the replaced state did (docs/segmentation.md,
 * "Checkpoints"). Recording costs one hash insertion per read of a pruned writer's version.
 */
final class CheckedReads implements ReplayOracle {
  private final KeyValueTable values;
  /** Keys whose absent (null) value was answered "already checked". */
  private final BitSet absent = new BitSet();

  CheckedReads(final int expected) {
    this.values = new KeyValueTable(Math.max(16, expected));
  }

  /** Records (k, v) when {@code checked}; returns {@code checked}, so a replay can wrap an oracle. */
  boolean note(final int k, final Long v, final boolean checked) {
    if (checked) {
      add(k, v);
    }
    return checked;
  }

  void add(final int k, final Long v) {
    if (v == null) {
      absent.set(k);
    } else {
      values.put(k, v, 0);
    }
  }

  @Override
  public boolean alreadyChecked(final int k, final Long v) {
    return v == null ? absent.get(k) : values.get(k, v) >= 0;
  }

  /** Keys recorded with the absent value, ascending. */
  int[] absentKeys() {
    return absent.stream().toArray();
  }

  /** The recorded (key, value) pairs with a value, sorted by key then value: {@code [k0, v0, k1, v1, …]}. */
  long[] sortedValues() {
    return sortedPairs(values);
  }

  /** The pairs of a table sorted by key then value, flattened: {@code [k0, v0, k1, v1, …]}. */
  static long[] sortedPairs(final KeyValueTable table) {
    final long[][] pairs = new long[table.size()][];
    final int[] n = {0};
    table.forEach((k, v, id) -> pairs[n[0]++] = new long[] {k, v});
    Arrays.sort(pairs, (a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    final long[] flat = new long[2 * pairs.length];
    for (int i = 0; i < pairs.length; i++) {
      flat[2 * i] = pairs[i][0];
      flat[2 * i + 1] = pairs[i][1];
    }
    return flat;
  }
}
