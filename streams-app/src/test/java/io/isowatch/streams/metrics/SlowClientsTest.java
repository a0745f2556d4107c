package io.isowatch.streams.metrics;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Slow and stuck clients against the checker's endpoint as it runs (default limits): /health must
 * still answer at once. A behaviour test with a generous bound, not a benchmark.
 */
class SlowClientsTest {
  private static final int EACH = 12;
  private static final String SLOW_HEAD = "GET /metrics HTTP/1.1\r\nHost: checker\r\nX-Slow: " + "a".repeat(4096);

  @Test
  void shouldAnswerHealthPromptlyWhenSlowStuckAndBusyClientsHoldTheEndpoint() throws Exception {
    // Given: a UI whose requests block until the end of the test (every worker busy)
    final CountDownLatch release = new CountDownLatch(1);
    final HttpHandler blockingUi = exchange -> {
      try {
        release.await();
        exchange.sendResponseHeaders(200, -1);
      } catch (final InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        exchange.close();
      }
    };
    final List<Socket> sockets = new ArrayList<>();
    final ScheduledExecutorService trickle = Executors.newSingleThreadScheduledExecutor();
    final AtomicInteger trickled = new AtomicInteger();
    try (HealthAndMetricsServer server = HealthAndMetricsServer.start("127.0.0.1", 0, new CheckerMetrics(),
        () -> new HealthAndMetricsServer.Health(true, "RUNNING"), Optional.empty(), Optional.of(blockingUi))) {
      for (int i = 0; i < EACH; i++) {
        // Stuck: connect, send the first bytes of a request, then nothing.
        sockets.add(open(server.port(), "GET /metr"));
        // Busy: a complete request that occupies a worker.
        sockets.add(open(server.port(), "GET /ui HTTP/1.1\r\nHost: checker\r\n\r\n"));
      }
      // Trickling: one byte every 50 ms per connection, never the end of the head.
      final List<Socket> tricklers = new ArrayList<>();
      for (int i = 0; i < EACH; i++) {
        tricklers.add(open(server.port(), ""));
      }
      sockets.addAll(tricklers);
      trickle.scheduleAtFixedRate(() -> {
        final int n = trickled.getAndIncrement();
        for (final Socket s : tricklers) {
          try {
            s.getOutputStream().write(SLOW_HEAD.charAt(n % SLOW_HEAD.length()));
            s.getOutputStream().flush();
          } catch (final IOException e) {
            throw new IllegalStateException("a trickling client was cut off early", e);
          }
        }
      }, 0, 50, TimeUnit.MILLISECONDS);
      await().atMost(Duration.ofSeconds(10)).until(() -> trickled.get() >= 10);

      // When
      final HttpResponse<String> health = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> HttpClient
          .newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/health"))
              .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString()));

      // Then
      assertEquals(200, health.statusCode());
      assertEquals("RUNNING\n", health.body());
    } finally {
      release.countDown();
      trickle.shutdownNow();
      for (final Socket s : sockets) {
        s.close();
      }
    }
  }

  private static Socket open(final int port, final String text) throws IOException {
    final Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    final OutputStream out = s.getOutputStream();
    out.write(text.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    return s;
  }
}
