package io.isowatch.streams.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.core.check.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

class HealthAndMetricsServerTest {
  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void shouldServePrometheusTextWithEveryCheckerFamilyWhenScraped() throws Exception {
    // Given
    final CheckerMetrics metrics = new CheckerMetrics(
        io.isowatch.streams.PromisedLevels.parse(List.of("acme:SER", "*:SI"), List.of("rc=postgres:read-committed")),
        EnumSet.of(Level.SSER, Level.SER, Level.SI));
    metrics.transactionChecked("rc");
    metrics.anomalyPublished("rc", "G-single", "LostUpdate", EnumSet.of(Level.SER, Level.SI), null);
    metrics.transactionChecked("acme");
    metrics.transactionChecked("acme");
    metrics.arrived("acme", 0);
    metrics.arrived("acme", 300_000L);
    metrics.anomalyPublished("acme", "G-single", "LostUpdate", EnumSet.of(Level.SER, Level.SI), 1_500_000L);
    metrics.anomalyPublished("acme", "thin-air", "ThinAirRead", EnumSet.of(Level.SER), null);
    metrics.anomalyRetracted("acme", "thin-air", "ThinAirRead", EnumSet.of(Level.SER));
    metrics.tenantState("acme", 3, 1, 42);
    metrics.pruned("acme", 0.02, 9, 21);
    metrics.retiredFalsePositiveRatio("acme", 0.00025);
    metrics.retiredRuns("acme", 41, 656);
    metrics.checkpointed("acme", 123_456, 0.003);
    metrics.inputsDeleted("acme", 40);
    metrics.deadLettered(new IllegalArgumentException("x"));
    metrics.inputFinding("acme", "MALFORMED_TRANSACTION");
    metrics.tenantRestored("acme");
    metrics.verdictPublished("acme");
    metrics.levelVerdicts("acme", Map.of(Level.SER, io.isowatch.core.check.Verdict.VIOLATED));
    metrics.verdictFindings("acme", Map.of("SEQ_GAP", 1L));
    metrics.tenantQuarantined("acme");
    metrics.registryRetry();
    metrics.register(new KafkaStreamsCollector(HealthAndMetricsServerTest::kafkaMetrics));
    try (HealthAndMetricsServer server = HealthAndMetricsServer.start("127.0.0.1", 0, metrics,
        () -> new HealthAndMetricsServer.Health(true, "RUNNING"))) {
      // When
      final HttpResponse<String> r = get(server.port(), "/metrics");
      // Then
      assertEquals(200, r.statusCode());
      assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
      final String body = r.body();
      assertTrue(body.contains("isowatch_transactions_checked_total{tenant=\"acme\",} 2.0"), body);
      assertTrue(body.contains(
          "isowatch_anomalies_total{tenant=\"acme\",type=\"G-single\",name=\"LostUpdate\",level=\"SER\",} 1.0"), body);
      assertTrue(body.contains("isowatch_anomalies_retracted_total{tenant=\"acme\",type=\"thin-air\",name=\"ThinAirRead\",level=\"SER\",} 1.0"), body);
      assertTrue(body.contains("isowatch_detection_latency_seconds_bucket{tenant=\"acme\",le=\"2.5\",} 1.0"), body);
      assertTrue(body.contains("isowatch_detection_latency_seconds_bucket{tenant=\"acme\",le=\"1.0\",} 0.0"), body);
      assertTrue(body.contains("isowatch_arrival_lateness_seconds_bucket{tenant=\"acme\",le=\"0.25\",} 1.0"), body);
      assertTrue(body.contains("isowatch_arrival_lateness_seconds_bucket{tenant=\"acme\",le=\"0.5\",} 2.0"), body);
      assertTrue(body.contains("isowatch_pending_reads{tenant=\"acme\",} 3.0"), body);
      assertTrue(body.contains("isowatch_state_transactions{tenant=\"acme\",} 42.0"), body);
      assertTrue(body.contains("isowatch_pruned_transactions_total{tenant=\"acme\",} 9.0"), body);
      assertTrue(body.contains("isowatch_retained_transactions{tenant=\"acme\",} 21.0"), body);
      assertTrue(body.contains("isowatch_retired_false_positive_ratio{tenant=\"acme\",} 2.5E-4"), body);
      assertTrue(body.contains("isowatch_retired_runs{tenant=\"acme\",} 41.0"), body);
      assertTrue(body.contains("isowatch_retired_run_bytes{tenant=\"acme\",} 656.0"), body);
      assertTrue(body.contains("isowatch_prune_seconds_bucket{tenant=\"acme\",le=\"0.05\",} 1.0"), body);
      assertTrue(body.contains("isowatch_checkpoint_bytes{tenant=\"acme\",} 123456.0"), body);
      assertTrue(body.contains("isowatch_checkpoints_total{tenant=\"acme\",} 1.0"), body);
      assertTrue(body.contains("isowatch_inputs_deleted_total{tenant=\"acme\",} 40.0"), body);
      assertTrue(body.contains("isowatch_checkpoint_seconds_bucket{tenant=\"acme\",le=\"0.01\",} 1.0"), body);
      assertTrue(body.contains("isowatch_dlq_records_total{error=\"IllegalArgumentException\",} 1.0"), body);
      assertTrue(body.contains("isowatch_promised_level{tenant=\"acme\",level=\"SER\",} 1.0"), body);
      assertTrue(!body.contains("isowatch_promised_level{tenant=\"acme\",level=\"SI\""), "acme has entries of its own");
      assertTrue(body.contains("isowatch_promise_broken_anomalies_total{tenant=\"acme\",type=\"G-single\","
          + "name=\"LostUpdate\",} 1.0"), body);
      assertTrue(body.contains("isowatch_promise_allowed_anomalies_total{tenant=\"rc\",type=\"G-single\","
          + "name=\"LostUpdate\",weaker_than=\"SI\",} 1.0"), body);
      assertTrue(body.contains("isowatch_promise_unchecked_level{tenant=\"rc\",level=\"RC\",} 1.0"), body);
      assertTrue(body.contains("isowatch_level_verdict{tenant=\"acme\",level=\"SER\",verdict=\"VIOLATED\",} 1.0"), body);
      assertTrue(body.contains("isowatch_level_verdict{tenant=\"acme\",level=\"SER\",verdict=\"SATISFIED\",} 0.0"), body);
      assertTrue(body.contains("isowatch_heap_max_bytes "), body);
      assertTrue(body.contains("isowatch_tenant_quarantined{tenant=\"acme\",} 1.0"), body);
      assertTrue(body.contains("isowatch_registry_retries_total 1.0"), body);
      assertTrue(body.contains(
          "kafka_streams_stream_thread_metrics_process_rate{thread_id=\"t-1\",} 12.5"), body);
      // Every isowatch_ family served is in the documented list.
      final Matcher m = Pattern.compile("(?m)^# TYPE (isowatch_\\w+) ").matcher(body);
      final Set<String> served = new java.util.TreeSet<>();
      while (m.find()) {
        served.add(m.group(1));
      }
      final Set<String> documented = new java.util.TreeSet<>();
      documented.addAll(MetricNames.ALL);
      documented.remove(MetricNames.UP);
      assertEquals(documented, served);
    }
  }

  @Test
  void shouldAnswer503WhenTheAppIsNotRunning() throws Exception {
    // Given
    final AtomicReference<HealthAndMetricsServer.Health> health =
        new AtomicReference<>(new HealthAndMetricsServer.Health(true, "REBALANCING"));
    try (HealthAndMetricsServer server = HealthAndMetricsServer.start("127.0.0.1", 0, new CheckerMetrics(),
        health::get)) {
      // When
      final HttpResponse<String> healthy = get(server.port(), "/health");
      health.set(new HealthAndMetricsServer.Health(false, "ERROR"));
      final HttpResponse<String> failed = get(server.port(), "/health");
      // Then
      assertEquals(200, healthy.statusCode());
      assertEquals("REBALANCING\n", healthy.body());
      assertEquals(503, failed.statusCode());
      assertEquals("ERROR\n", failed.body());
    }
  }

  private HttpResponse<String> get(final int port, final String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static Map<MetricName, Metric> kafkaMetrics() {
    final Map<MetricName, Metric> out = new LinkedHashMap<>();
    final MetricName rate = new MetricName("process-rate", "stream-thread-metrics", "records per second",
        Map.of("thread-id", "t-1"));
    out.put(rate, metric(rate, 12.5));
    final MetricName text = new MetricName("version", "app-info", "", Map.of());
    out.put(text, metric(text, "4.3.1"));
    return out;
  }

  private static Metric metric(final MetricName name, final Object value) {
    return new Metric() {
      @Override
      public MetricName metricName() {
        return name;
      }

      @Override
      public Object metricValue() {
        return value;
      }
    };
  }

}
