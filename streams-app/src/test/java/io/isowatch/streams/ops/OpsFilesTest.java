package io.isowatch.streams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.streams.metrics.MetricNames;
import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The files under ops/: every metric an alert rule or a dashboard panel uses is one the checker
 * exports (IsoWatch's own, {@link MetricNames#ALL}, and the bridged Kafka Streams families listed
 * in {@link MetricNames#KAFKA_STREAMS_USED}, which {@code OpsCommandsIT} finds in a live scrape);
 * the dashboard and its provisioning agree on the datasource; and, when {@code promtool} is
 * installed (on the PATH, or named by {@code PROMTOOL}), the rules pass {@code promtool check
 * rules} and the alert unit tests of alerts.test.yml. Without promtool those two are skipped,
 * saying so.
 */
class OpsFilesTest {
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
  private static final Path OPS = ROOT.resolve("ops");
  /** Identifiers in an expression that name one of IsoWatch's families (or a misspelling of one). */
  private static final Pattern APP_METRIC = Pattern.compile("\\b(?:isowatch|kafka_streams)_[a-zA-Z0-9_]+");
  private static final List<String> HISTOGRAM_SUFFIXES = List.of("_bucket", "_sum", "_count");

  @Test
  void shouldUseOnlyExportedMetricsWhenAlerting() throws Exception {
    // When
    final List<String> unknown = unknownMetrics(ruleExpressions(OPS.resolve("prometheus/alerts.yml")));
    // Then
    assertEquals(List.of(), unknown);
  }

  @Test
  void shouldUseOnlyExportedMetricsWhenDrawingTheDashboard() throws Exception {
    // Given
    final JsonNode dashboard = new ObjectMapper().readTree(OPS.resolve("grafana/dashboards/isowatch.json").toFile());
    final List<String> expressions = new ArrayList<>();
    dashboard.findValues("expr").forEach(e -> expressions.add(e.asText()));
    dashboard.findValues("definition").forEach(e -> expressions.add(e.asText()));
    // When
    final List<String> unknown = unknownMetrics(expressions);
    // Then
    assertTrue(expressions.size() > 10, "the dashboard has its queries");
    assertEquals(List.of(), unknown);
  }

  @Test
  void shouldChartEveryPromiseMetricWhenTheDashboardIsProvisioned() throws Exception {
    // Given: the metrics that separate "promise broken" from "weaker than X but allowed" (docs/levels.md,
    // "Database profiles"), which an operator of tenant.promises watches
    final JsonNode dashboard = new ObjectMapper().readTree(OPS.resolve("grafana/dashboards/isowatch.json").toFile());
    final List<String> missing = new ArrayList<>();
    // When
    for (final String metric : List.of(MetricNames.PROMISE_BROKEN_ANOMALIES_TOTAL,
        MetricNames.PROMISE_ALLOWED_ANOMALIES_TOTAL, MetricNames.PROMISE_UNCHECKED_LEVEL)) {
      final boolean charted = dashboard.path("panels").findValues("expr").stream()
          .anyMatch(e -> APP_METRIC.matcher(e.asText()).results().anyMatch(m -> m.group().equals(metric)));
      if (!charted) {
        missing.add(metric);
      }
    }
    // Then
    assertEquals(List.of(), missing, "promise metrics with no panel");
  }

  @Test
  void shouldReportMisspeltMetricsWhenARuleFileHasThem() throws Exception {
    // When
    final List<String> unknown = unknownMetrics(ruleExpressions(Path.of("src/test/resources/ops/broken-alerts.yml")));
    // Then
    assertEquals(List.of("isowatch_anomaly_total", "kafka_streams_consumer_fetch_manager_metrics_lag"), unknown);
  }

  @Test
  void shouldShowEveryPanelFromTheProvisionedDatasourceWhenGrafanaLoadsTheDashboard() throws Exception {
    // Given
    final Map<String, Object> datasources = yaml(OPS.resolve("grafana/provisioning/datasources/prometheus.yml"));
    final String uid = String.valueOf(((Map<?, ?>) ((List<?>) datasources.get("datasources")).get(0)).get("uid"));
    final JsonNode dashboard = new ObjectMapper().readTree(OPS.resolve("grafana/dashboards/isowatch.json").toFile());
    // When
    final Set<String> uids = new TreeSet<>();
    dashboard.findValues("datasource").forEach(d -> uids.add(d.path("uid").asText()));
    final Set<Integer> ids = new HashSet<>();
    dashboard.path("panels").forEach(p -> ids.add(p.path("id").asInt()));
    // Then
    assertEquals(Set.of(uid), uids);
    assertEquals(dashboard.path("panels").size(), ids.size(), "panel ids are unique");
    final Map<String, Object> provider = yaml(OPS.resolve("grafana/provisioning/dashboards/isowatch.yml"));
    assertFalse(((List<?>) provider.get("providers")).isEmpty());
  }

  @Test
  void shouldSendTheCheckersBearerTokenWhenPrometheusScrapesTheChecker() throws Exception {
    // Given: /metrics requires http.auth.token wherever the checker is reachable from another container
    final Map<String, Object> prometheus = yaml(OPS.resolve("prometheus/prometheus.yml"));
    // When
    final Map<?, ?> job = ((List<?>) prometheus.get("scrape_configs")).stream().map(j -> (Map<?, ?>) j)
        .filter(j -> "isowatch-checker".equals(j.get("job_name"))).findFirst().orElseThrow();
    // Then: a token file (docker-compose.yml mounts it), never a token written in the repository
    final Map<?, ?> authorization = (Map<?, ?>) job.get("authorization");
    assertEquals("Bearer", authorization.get("type"));
    assertEquals("/etc/prometheus/isowatch-http-token", authorization.get("credentials_file"));
    assertFalse(authorization.containsKey("credentials"));
  }

  @Test
  void shouldPassPromtoolWhenItIsInstalled() throws Exception {
    // Given
    final Optional<Path> promtool = promtool();
    assumeTrue(promtool.isPresent(), "promtool is not installed (PATH or PROMTOOL): rule syntax and alert unit tests"
        + " not run; Debian's `prometheus` package has it");
    // When
    final Result check = run(promtool.get().toString(), "check", "rules", OPS.resolve("prometheus/alerts.yml").toString());
    final Result unit = run(promtool.get().toString(), "test", "rules",
        OPS.resolve("prometheus/alerts.test.yml").toString());
    // Syntax only: the rule and token files it names exist in the container, not here.
    final Result config = run(promtool.get().toString(), "check", "config", "--syntax-only",
        OPS.resolve("prometheus/prometheus.yml").toString());
    // Then
    assertEquals(0, check.exit(), check.output());
    assertEquals(0, config.exit(), config.output());
    assertEquals(0, unit.exit(), unit.output());
    assertTrue(unit.output().contains("SUCCESS"), unit.output());
  }

  /** The metric names used in {@code expressions} that the checker does not export, sorted. */
  static List<String> unknownMetrics(final List<String> expressions) {
    final Set<String> unknown = new TreeSet<>();
    for (final String expr : expressions) {
      final Matcher m = APP_METRIC.matcher(expr);
      while (m.find()) {
        if (!exported(m.group())) {
          unknown.add(m.group());
        }
      }
    }
    return List.copyOf(unknown);
  }

  private static boolean exported(final String name) {
    if (MetricNames.ALL.contains(name) || MetricNames.KAFKA_STREAMS_USED.contains(name)) {
      return true;
    }
    return HISTOGRAM_SUFFIXES.stream().anyMatch(s -> (MetricNames.DETECTION_LATENCY_SECONDS + s).equals(name)
        || (MetricNames.ARRIVAL_LATENESS_SECONDS + s).equals(name));
  }

  private static List<String> ruleExpressions(final Path file) throws IOException {
    final List<String> out = new ArrayList<>();
    for (final Object group : (List<?>) yaml(file).get("groups")) {
      for (final Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
        out.add(String.valueOf(((Map<?, ?>) rule).get("expr")));
      }
    }
    assertFalse(out.isEmpty(), "no rules in " + file);
    return out;
  }

  private static Map<String, Object> yaml(final Path file) throws IOException {
    try (Reader in = Files.newBufferedReader(file)) {
      return new Yaml().load(in);
    }
  }

  private static Optional<Path> promtool() {
    final String env = System.getenv("PROMTOOL");
    if (env != null && Files.isExecutable(Path.of(env))) {
      return Optional.of(Path.of(env));
    }
    for (final String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      final Path p = Path.of(dir, "promtool");
      if (Files.isExecutable(p)) {
        return Optional.of(p);
      }
    }
    return Optional.empty();
  }

  private record Result(int exit, String output) {}

  private static Result run(final String... command) throws IOException, InterruptedException {
    final Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool finished");
    return new Result(p.exitValue(), output);
  }
}
