package io.isowatch.core.debug;

import java.lang.management.ManagementFactory;

/**
 * Phase timestamps of one command for profiling its critical path ({@code
 * -Disowatch.debug.timing=true}): each {@link #mark} prints, on stderr, the milliseconds since the
 * JVM started, the CPU time of the calling thread, the thread and the phase. Off by default; then a mark costs one field read.
 */
public final class DebugTimings {
  private static final boolean ON = Boolean.getBoolean("isowatch.debug.timing");
  private static final long JVM_START_MS = ON ? ManagementFactory.getRuntimeMXBean().getStartTime() : 0;

  private DebugTimings() {}

  /** Whether marks are printed. */
  public static boolean on() {
    return ON;
  }

  /** Prints {@code phase} with the time since the JVM started, when on. */
  public static void mark(final String phase) {
    if (ON) {
      System.err.printf("isowatch-timing %6d ms (thread CPU %6d ms) [%s] %s%n",
          System.currentTimeMillis() - JVM_START_MS,
          ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1_000_000,
          Thread.currentThread().getName(), phase);
    }
  }
}
