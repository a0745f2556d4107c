package io.isowatch.core.online;

import java.util.Arrays;

/** One long per slot, growing as slots come; 0 for a slot never set. */
final class SlotLongs {
  private long[] values;

  SlotLongs(final int expectedSlots) {
    values = new long[Math.max(16, expectedSlots)];
  }

  void set(final int slot, final long v) {
    if (slot >= values.length) {
      values = Arrays.copyOf(values, Math.max(slot + 1, 2 * values.length));
    }
    values[slot] = v;
  }

  long get(final int slot) {
    return slot < values.length ? values[slot] : 0;
  }
}
