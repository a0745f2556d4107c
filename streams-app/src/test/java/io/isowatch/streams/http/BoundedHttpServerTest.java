package io.isowatch.streams.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The server's protocol subset and its limits, against raw sockets. */
class BoundedHttpServerTest {
  private static final Duration PROMPT = Duration.ofSeconds(5);
  private final HttpClient http = HttpClient.newHttpClient();
  private BoundedHttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void shouldAnswer408AndCloseWhenTheRequestIsNotCompleteInTime() throws Exception {
    // Given
    start(new HttpLimits(Duration.ofMillis(300), Duration.ofSeconds(30), 64, 4));
    try (RawClient stuck = RawClient.connect(port())) {
      // When: half a request, then nothing
      stuck.send("GET /health HTTP/1.1\r\nHost: x\r\n");
      // Then
      final String answer = assertTimeoutPreemptively(PROMPT, stuck::readAll);
      assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
      assertEquals(1, server.timedOut());
    }
  }

  @Test
  void shouldEvictTheOldestIncompleteRequestWhenEveryConnectionSlotIsTaken() throws Exception {
    // Given: room for two incomplete requests, which never time out during the test
    start(new HttpLimits(Duration.ofMinutes(5), Duration.ofSeconds(30), 2, 4));
    try (RawClient first = RawClient.connect(port()).send("G");
        RawClient second = RawClient.connect(port()).send("G");
        RawClient third = RawClient.connect(port()).send("G")) {
      // When
      final HttpResponse<String> health = assertTimeoutPreemptively(PROMPT, () -> get("/health"));
      // Then: the newcomers evicted the oldest, the probe was answered
      assertEquals(200, health.statusCode());
      assertTrue(assertTimeoutPreemptively(PROMPT, first::closedByServer), "the oldest was evicted");
      assertTrue(server.evicted() >= 2, "evicted " + server.evicted());
    }
  }

  @Test
  void shouldFreeTheWorkerWhenAClientNeverReadsItsAnswer() throws Exception {
    // Given: one worker, and an answer far larger than the socket buffers
    start(new HttpLimits(Duration.ofSeconds(10), Duration.ofMillis(500), 64, 1));
    try (RawClient neverReads = RawClient.connect(port(), 1024)) {
      neverReads.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n");
      // When: the single worker is stuck writing /big until the response deadline closes it
      final HttpResponse<String> small = assertTimeoutPreemptively(Duration.ofSeconds(15), () -> get("/small"));
      // Then
      assertEquals(200, small.statusCode());
      assertEquals("small", small.body());
    }
  }

  @Test
  void shouldRefuseMalformedOversizedAndChunkedRequestsWithTheirStatus() throws Exception {
    // Given
    start(HttpLimits.DEFAULTS);
    final StringBuilder manyHeaders = new StringBuilder("GET /small HTTP/1.1\r\n");
    for (int i = 0; i <= HttpLimits.MAX_HEADERS; i++) {
      manyHeaders.append("X-").append(i).append(": v\r\n");
    }
    // When / Then
    assertEquals(400, status("GARBAGE\r\n\r\n"));
    assertEquals(400, status("GET http://elsewhere/ HTTP/1.1\r\n\r\n"));
    assertEquals(400, status("GET /small HTTP/1.1\r\n folded: header\r\n\r\n"));
    assertEquals(431, status(manyHeaders.append("\r\n").toString()));
    assertEquals(501, status("POST /small HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"));
    assertEquals(413, status("POST /small HTTP/1.1\r\nContent-Length: " + (HttpLimits.MAX_BODY_BYTES + 1) + "\r\n\r\n"));
    assertEquals(404, status("GET /nowhere HTTP/1.1\r\n\r\n"));
    try (RawClient c = RawClient.connect(port())) {
      final String answer = c.send("GET /small HTTP/1.1\r\nX: " + "a".repeat(HttpLimits.MAX_HEAD_BYTES) + "\r\n\r\n")
          .readAll();
      assertFalse(answer.startsWith("HTTP/1.1 200"), "an oversized head is never served: " + answer);
    }
  }

  @Test
  void shouldReadTheBodyAndAnswerHeadWithoutABodyWhenTheRequestIsValid() throws Exception {
    // Given
    start(HttpLimits.DEFAULTS);
    // When
    final String post;
    final String head;
    try (RawClient c = RawClient.connect(port())) {
      post = c.send("POST /echo HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello").readAll();
    }
    try (RawClient c = RawClient.connect(port())) {
      head = c.send("HEAD /small HTTP/1.0\r\n\r\n").readAll();
    }
    // Then
    assertTrue(post.startsWith("HTTP/1.1 200 OK\r\n"), post);
    assertTrue(post.contains("\r\nConnection: close\r\n"), post);
    assertTrue(post.endsWith("\r\n\r\nhello"), post);
    assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n"), head);
    assertTrue(head.endsWith("\r\n\r\n"), "no body after the headers: " + head);
  }

  private void start(final HttpLimits limits) throws IOException {
    server = BoundedHttpServer.bind(new InetSocketAddress("127.0.0.1", 0), limits);
    server.createProbeContext("/health", exchange -> reply(exchange, "RUNNING\n"));
    server.createContext("/small", exchange -> reply(exchange, "small"));
    server.createContext("/echo", exchange -> reply(exchange,
        new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
    server.createContext("/big", big());
    server.start();
  }

  private static HttpHandler big() {
    return exchange -> {
      final byte[] chunk = new byte[64 * 1024];
      exchange.sendResponseHeaders(200, 0);
      try (OutputStream out = exchange.getResponseBody()) {
        for (int i = 0; i < 1024; i++) {
          out.write(chunk);
        }
      }
    };
  }

  private static void reply(final HttpExchange exchange, final String body) throws IOException {
    final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(200, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private int status(final String request) throws IOException {
    try (RawClient c = RawClient.connect(port())) {
      final String answer = c.send(request).readAll();
      return Integer.parseInt(answer.substring("HTTP/1.1 ".length(), "HTTP/1.1 ".length() + 3));
    }
  }

  private int port() {
    return server.getAddress().getPort();
  }

  private HttpResponse<String> get(final String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
