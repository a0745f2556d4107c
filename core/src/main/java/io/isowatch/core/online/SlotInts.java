package io.isowatch.core.online;

import java.util.Arrays;

/** One int per slot, growing as slots come; 0 for a slot never set. */
final class SlotInts {
  private int[] values;

  SlotInts(final int expectedSlots) {
    values = new int[Math.max(16, expectedSlots)];
  }

  void set(final int slot, final int v) {
    if (slot >= values.length) {
      values = Arrays.copyOf(values, Math.max(slot + 1, 2 * values.length));
    }
    values[slot] = v;
  }

  int get(final int slot) {
    return slot < values.length ? values[slot] : 0;
  }
}
