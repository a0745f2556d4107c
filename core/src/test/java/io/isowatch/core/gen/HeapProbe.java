package io.isowatch.core.gen;

import java.lang.management.ManagementFactory;

/** Live heap after a full collection, for coarse memory assertions in tests. */
final class HeapProbe {
  private HeapProbe() {}

  static long liveBytes() {
    // Two collections: the first may only move objects with finalizers or soft references along.
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
