package io.isowatch.streams;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The checker's start-up in phases, for its log: the milliseconds from the JVM's start to {@link
 * CheckerApp#start} (the JVM, class loading, the command line and the configuration), then between
 * each mark of the start (topics, the topology, the Kafka Streams client, its group join and
 * stores, RUNNING). One line at RUNNING, so that an operator, or a benchmark, can tell the waits of
 * a start (the group join, the broker's first use) from its CPU (class loading, the JIT) without a
 * profiler. docs/streaming-design.md, "Start-up", reads these lines.
 */
final class StartupTimeline {
  private final long originNanos = System.nanoTime();
  private final long jvmStartToOriginMs;
  private final List<String> names = new ArrayList<>();
  private final List<Long> at = new ArrayList<>();

  StartupTimeline() {
    this.jvmStartToOriginMs = sinceJvmStartMs();
  }

  /** Marks the end of a phase named {@code name} (the time since the previous mark). */
  synchronized void mark(final String name) {
    names.add(name);
    at.add(System.nanoTime());
  }

  /**
   * One line: {@code beforeStart=812 topics=310 topology=120 ... total=6540} (ms), where
   * beforeStart runs from the process's start to {@link CheckerApp#start} (for {@code run}: the JVM,
   * class loading and the configuration) and total is from the process's start.
   */
  synchronized String describe() {
    final StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "beforeStart=%d", jvmStartToOriginMs));
    long previous = originNanos;
    for (int i = 0; i < names.size(); i++) {
      out.append(String.format(Locale.ROOT, " %s=%d", names.get(i), (at.get(i) - previous) / 1_000_000));
      previous = at.get(i);
    }
    final long total = at.isEmpty() ? 0 : (at.get(at.size() - 1) - originNanos) / 1_000_000;
    out.append(String.format(Locale.ROOT, " total=%d", jvmStartToOriginMs < 0 ? -1 : jvmStartToOriginMs + total));
    return out.toString();
  }

  /** Milliseconds since this process started (from the OS), or -1 when it does not say. */
  static long sinceJvmStartMs() {
    return ProcessHandle.current().info().startInstant()
        .map(start -> Instant.now().toEpochMilli() - start.toEpochMilli())
        .orElse(-1L);
  }
}
