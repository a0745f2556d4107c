package io.isowatch.streams.metrics;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.isowatch.streams.http.BoundedHttpServer;
import io.isowatch.streams.http.HttpLimits;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checker's HTTP endpoint ({@link BoundedHttpServer}: slow or stuck clients cannot starve it):
 *
 * <ul>
 *   <li>{@code GET /metrics}: every metric in the Prometheus text format 0.0.4;
 *   <li>{@code GET /health}: 200 with the state name while the app is healthy (RUNNING or
 *       REBALANCING), 503 with the state name otherwise; never behind the token, for probes;
 *   <li>every other path, when given: the web UI and its REST API ({@code io.isowatch.streams.ui}).
 * </ul>
 *
 * <p>With a bearer-token filter, /metrics and the UI require the token (Prometheus sends it with
 * {@code authorization: {credentials_file: ...}}). /health runs on the server's probe lane, so it
 * answers while the UI's workers are busy and while slow clients hold connections ({@link HttpLimits}).
 */
public final class HealthAndMetricsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HealthAndMetricsServer.class);
  private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";

  /** The app's state as the health check sees it. */
  public record Health(boolean healthy, String state) {}

  private final BoundedHttpServer server;

  private HealthAndMetricsServer(final BoundedHttpServer server) {
    this.server = server;
  }

  /** Binds and starts the server with /metrics and /health only, open; port 0 picks a free one. */
  public static HealthAndMetricsServer start(final String host, final int port, final CheckerMetrics metrics,
      final Supplier<Health> health) throws IOException {
    return start(host, port, metrics, health, Optional.empty(), Optional.empty(), HttpLimits.DEFAULTS);
  }

  /** Binds and starts the server with the default {@link HttpLimits}; port 0 picks a free one. */
  public static HealthAndMetricsServer start(final String host, final int port, final CheckerMetrics metrics,
      final Supplier<Health> health, final Optional<Filter> auth, final Optional<HttpHandler> ui) throws IOException {
    return start(host, port, metrics, health, auth, ui, HttpLimits.DEFAULTS);
  }

  /**
   * Binds and starts the server; port 0 picks a free one.
   *
   * @param auth when present, guards every path but /health (the web UI, its API and /metrics)
   * @param ui when present, serves every other path (the web UI and its API)
   * @param limits what one client may cost the server (timeouts, connections, workers)
   */
  public static HealthAndMetricsServer start(final String host, final int port, final CheckerMetrics metrics,
      final Supplier<Health> health, final Optional<Filter> auth, final Optional<HttpHandler> ui,
      final HttpLimits limits) throws IOException {
    final BoundedHttpServer server = BoundedHttpServer.bind(new InetSocketAddress(host, port), limits);
    final HttpContext metricsContext = server.createContext("/metrics",
        exchange -> respond(exchange, 200, TEXT_FORMAT, metrics.scrape()));
    auth.ifPresent(metricsContext.getFilters()::add);
    // Probes carry no credentials: /health stays open, and tells only the state's name.
    server.createProbeContext("/health", exchange -> {
      final Health h = health.get();
      respond(exchange, h.healthy() ? 200 : 503, "text/plain; charset=utf-8", h.state() + "\n");
    });
    if (ui.isPresent()) {
      final HttpContext uiContext = server.createContext("/", ui.get());
      auth.ifPresent(uiContext.getFilters()::add);
    }
    server.start();
    LOG.info("HTTP endpoint started address=[{}] paths=[{}] auth=[{}] requestTimeoutMs=[{}] responseTimeoutMs=[{}]"
        + " maxConnections=[{}]", server.getAddress(),
        ui.isPresent() ? "/metrics, /health, / (web UI), /api" : "/metrics, /health",
        auth.isPresent() ? "bearer token" : "none", limits.requestTimeout().toMillis(),
        limits.responseTimeout().toMillis(), limits.maxConnections());
    return new HealthAndMetricsServer(server);
  }

  /** The bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  private static void respond(final HttpExchange exchange, final int status, final String contentType,
      final String body) throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod()) && !"HEAD".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
