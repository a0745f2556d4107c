package io.isowatch.streams.metrics;

import io.prometheus.client.Collector;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.List;

/**
 * The heap's use and bound, for the "state near its bound" alert: every tenant's engine lives on
 * the heap, so the checker's state is bounded by {@code -Xmx}. Current use includes garbage not yet
 * collected; its minimum over a few minutes ({@code min_over_time}) approximates the live data.
 */
final class HeapCollector extends Collector {
  @Override
  public List<MetricFamilySamples> collect() {
    final MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    return List.of(
        gauge(MetricNames.HEAP_USED_BYTES, "Heap bytes in use (garbage included).", heap.getUsed()),
        gauge(MetricNames.HEAP_MAX_BYTES, "Maximum heap size (-Xmx); -1 when undefined.", heap.getMax()));
  }

  private static MetricFamilySamples gauge(final String name, final String help, final double value) {
    return new MetricFamilySamples(name, Type.GAUGE, help,
        List.of(new MetricFamilySamples.Sample(name, List.of(), List.of(), value)));
  }
}
