package io.isowatch.streams.metrics;

import io.prometheus.client.Collector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;

/**
 * Bridges Kafka's metrics (e.g. {@code KafkaStreams#metrics()}: threads, tasks, stores, clients) to
 * Prometheus. A Kafka metric {@code group/name{tags}} becomes the gauge {@code
 * kafka_streams_<group>_<name>} with its tags as labels, names lower-cased with every character
 * outside {@code [a-z0-9_]} turned into {@code _} (so {@code stream-thread-metrics/process-rate}
 * becomes {@code kafka_streams_stream_thread_metrics_process_rate}). Non-numeric metrics are left
 * out.
 */
public final class KafkaStreamsCollector extends Collector {
  private final Supplier<Map<MetricName, ? extends Metric>> metrics;

  public KafkaStreamsCollector(final Supplier<Map<MetricName, ? extends Metric>> metrics) {
    this.metrics = metrics;
  }

  @Override
  public List<MetricFamilySamples> collect() {
    final Map<String, List<MetricFamilySamples.Sample>> families = new LinkedHashMap<>();
    final Map<String, String> help = new LinkedHashMap<>();
    for (final Map.Entry<MetricName, ? extends Metric> e : metrics.get().entrySet()) {
      final Object value = e.getValue().metricValue();
      if (!(value instanceof Number number)) {
        continue;
      }
      final MetricName m = e.getKey();
      final String family = MetricNames.KAFKA_STREAMS_PREFIX + sanitize(m.group()) + "_" + sanitize(m.name());
      final List<String> labelNames = new ArrayList<>();
      final List<String> labelValues = new ArrayList<>();
      m.tags().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(t -> {
        labelNames.add(sanitize(t.getKey()));
        labelValues.add(t.getValue());
      });
      families.computeIfAbsent(family, f -> new ArrayList<>())
          .add(new MetricFamilySamples.Sample(family, labelNames, labelValues, number.doubleValue()));
      help.putIfAbsent(family, m.description() == null || m.description().isEmpty() ? m.name() : m.description());
    }
    final List<MetricFamilySamples> out = new ArrayList<>();
    families.forEach((name, samples) ->
        out.add(new MetricFamilySamples(name, Type.GAUGE, help.get(name), samples)));
    return out;
  }

  /** A Prometheus-safe name part. */
  static String sanitize(final String s) {
    return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
  }
}
