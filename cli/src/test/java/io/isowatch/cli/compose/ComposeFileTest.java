package io.isowatch.cli.compose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml, checked without Docker (which does not run here): see {@link ComposeChecks}
 * for the rules. The broken fixture shows that each rule can fail.
 */
class ComposeFileTest {
  /** Surefire runs in the module directory, one level below the repository root. */
  private static final Path ROOT = Path.of(System.getProperty("user.dir")).toAbsolutePath().getParent();
  private static final Path BROKEN = Path.of("src/test/resources/compose/broken.yml");
  private static final Path BROKEN_HTTP = Path.of("src/test/resources/compose/broken-http.yml");

  @Test
  void shouldFindNoProblemWhenCheckingTheRepositorysComposeFile() throws Exception {
    // When
    final List<String> problems = ComposeChecks.problems(ROOT.resolve("docker-compose.yml"));
    // Then
    assertEquals(List.of(), problems);
  }

  @Test
  void shouldRunEveryServiceTheStackNeedsWhenComposed() throws Exception {
    // When
    final Map<String, Map<String, Object>> services = ComposeChecks.services(ROOT.resolve("docker-compose.yml"));
    // Then: the services the issue lists, with a canary and an anomalous agent.
    assertTrue(services.keySet().containsAll(List.of("kafka", "registry", "postgres", "mariadb", "topic-init",
        "checker", "agent-pg-serializable", "agent-pg-read-committed", "prometheus", "alertmanager", "grafana")),
        services.keySet().toString());
    assertTrue(String.valueOf(services.get("agent-pg-serializable").get("command")).contains("serializable"));
    assertTrue(String.valueOf(services.get("agent-pg-read-committed").get("command")).contains("read-committed"));
    assertTrue(String.valueOf(services.get("kafka").get("image")).startsWith("apache/kafka:4."));
  }

  @Test
  void shouldReportEachDefectWhenTheFileIsBroken() throws Exception {
    // When
    final List<String> problems = ComposeChecks.problems(BROKEN);
    // Then
    final List<String> expected = List.of(
        "kafka: no health check",
        "kafka: port 29092:29092 is not bound to 127.0.0.1",
        "registry: no health check",
        "checker: Dockerfile",
        "checker: ISOWATCH_CHECK_GRACE is not a configuration key of isowatch run",
        "checker: ISOWATCH_KAFKA_SECURITY_PROTOCL sets kafka.security.protocl, which no Kafka client or Streams declares",
        "checker: bind-mounted ./no-such-file.properties does not exist",
        "checker: named volume undeclared-state is not declared under volumes",
        "checker: depends on kafka with condition service_started",
        "checker: waits for registry to be healthy",
        "checker: command [run, --no-such-flag] does not parse",
        "agent: depends_on must use the long form",
        "prometheus: rule file /etc/prometheus/alerts.yml is not mounted",
        "prometheus: scrapes checker:9464 but the checker serves /metrics on port 9465",
        "prometheus: scrapes checker:9464 but the checker binds its HTTP endpoint to 127.0.0.1 inside its container");
    assertProblems(expected, problems);
  }

  @Test
  void shouldReportEachHttpAccessDefectWhenTheCheckerOrPrometheusIsMisconfigured() throws Exception {
    // When
    final List<String> problems = ComposeChecks.problems(BROKEN_HTTP);
    // Then
    final List<String> expected = List.of(
        "checker-open: the checker refuses to start: Invalid value 0.0.0.0 for configuration http.host",
        "prometheus: scrapes checker-loopback:9464 but the checker binds its HTTP endpoint to 127.0.0.1",
        "prometheus: scrapes checker-no-credentials:9464 without the checker's token",
        "prometheus: scrapes checker-wrong-token:9464 with a token other than the checker's ISOWATCH_HTTP_AUTH_TOKEN",
        "prometheus: the token file /etc/prometheus/no-such-token is not mounted");
    assertProblems(expected, problems);
  }

  @Test
  void shouldGiveTheCheckerATokenThatPrometheusSendsWhenComposed() throws Exception {
    // Given
    final Map<String, Map<String, Object>> services = ComposeChecks.services(ROOT.resolve("docker-compose.yml"));
    // When
    final Map<?, ?> env = (Map<?, ?>) services.get("checker").get("environment");
    // Then: bound for Prometheus, guarded by a token the user can set (the demo default otherwise)
    assertEquals("0.0.0.0", env.get("ISOWATCH_HTTP_HOST"));
    assertEquals("${ISOWATCH_HTTP_AUTH_TOKEN:-isowatch-demo-token}", env.get("ISOWATCH_HTTP_AUTH_TOKEN"));
    assertTrue(!env.containsKey("ISOWATCH_HTTP_ALLOW_UNAUTHENTICATED"), "a token, not an exemption");
    // and the token rules are checked on this very file (shouldFindNoProblem...): Prometheus sends it.
    assertEquals(List.of(), ComposeChecks.problems(ROOT.resolve("docker-compose.yml")));
  }

  /** Each expected problem starts one of {@code problems}, and there are no others. */
  private static void assertProblems(final List<String> expected, final List<String> problems) {
    for (final String e : expected) {
      assertTrue(problems.stream().anyMatch(p -> p.startsWith(e)), "expected a problem starting with '" + e + "' in "
          + String.join("\n", problems));
    }
    assertEquals(expected.size(), problems.size(), String.join("\n", problems));
  }
}
