package io.isowatch.streams.metrics;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checker's HTTP endpoint (JDK server, a few threads):
 *
 * <ul>
 *   <li>{@code GET /metrics}: every metric in the Prometheus text format 0.0.4;
 *   <li>{@code GET /health}: 200 with the state name while the app is healthy (RUNNING or
 *       REBALANCING), 503 with the state name otherwise; never behind the token, for probes;
 *   <li>every other path, when given: the web UI and its REST API ({@code io.isowatch.streams.ui}).
 * </ul>
 *
 * <p>With a bearer-token filter, /metrics and the UI require the token (Prometheus sends it with
 * {@code authorization: {credentials: ...}}).
 */
public final class HealthAndMetricsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HealthAndMetricsServer.class);
  private static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
  private static final int THREADS = 4;

  /** The app's state as the health check sees it. */
  public record Health(boolean healthy, String state) {}

  private final HttpServer server;
  private final ExecutorService executor;

  private HealthAndMetricsServer(final HttpServer server, final ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Binds and starts the server with /metrics and /health only, open; port 0 picks a free one. */
  public static HealthAndMetricsServer start(final String host, final int port, final CheckerMetrics metrics,
      final Supplier<Health> health) throws IOException {
    return start(host, port, metrics, health, Optional.empty(), Optional.empty());
  }

  /**
   * Binds and starts the server; port 0 picks a free one.
   *
   * @param auth when present, guards every path but /health (the web UI, its API and /metrics)
   * @param ui when present, serves every other path (the web UI and its API)
   */
  public static HealthAndMetricsServer start(final String host, final int port, final CheckerMetrics metrics,
      final Supplier<Health> health, final Optional<Filter> auth, final Optional<HttpHandler> ui) throws IOException {
    final HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
    final HttpContext metricsContext = server.createContext("/metrics",
        exchange -> respond(exchange, 200, TEXT_FORMAT, metrics.scrape()));
    auth.ifPresent(metricsContext.getFilters()::add);
    // Probes carry no credentials: /health stays open, and tells only the state's name.
    server.createContext("/health", exchange -> {
      final Health h = health.get();
      respond(exchange, h.healthy() ? 200 : 503, "text/plain; charset=utf-8", h.state() + "\n");
    });
    if (ui.isPresent()) {
      final HttpContext uiContext = server.createContext("/", ui.get());
      auth.ifPresent(uiContext.getFilters()::add);
    }
    // A few threads: browsers poll the UI's API while Prometheus scrapes.
    final ExecutorService executor = Executors.newFixedThreadPool(THREADS, r -> {
      final Thread t = new Thread(r, "isowatch-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.start();
    LOG.info("HTTP endpoint started address=[{}] paths=[{}] auth=[{}]", server.getAddress(),
        ui.isPresent() ? "/metrics, /health, / (web UI), /api" : "/metrics, /health",
        auth.isPresent() ? "bearer token" : "none");
    return new HealthAndMetricsServer(server, executor);
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
    executor.shutdownNow();
  }
}
