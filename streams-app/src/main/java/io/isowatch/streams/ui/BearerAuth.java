package io.isowatch.streams.ui;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The optional bearer token of the HTTP endpoint ({@code http.auth.token}). A request passes when it
 * carries one of:
 *
 * <ul>
 *   <li>{@code Authorization: Bearer <token>} (REST clients, Prometheus' {@code authorization});
 *   <li>the session cookie {@value #COOKIE}, set by opening any UI page once with {@code
 *       ?token=<token>}: the answer is a redirect to the same page without the parameter (so the
 *       token leaves the address bar and the history) that sets the cookie ({@code HttpOnly},
 *       {@code SameSite=Strict}, and {@code Secure} when the endpoint is reached over TLS: see
 *       below). The cookie holds a SHA-256 digest of the token, not the token.
 * </ul>
 *
 * <p>The endpoint itself speaks plain HTTP; TLS is terminated by a proxy in front of it (an ingress,
 * a load balancer). The cookie is marked {@code Secure}, so that the browser never sends it over
 * plain HTTP, when {@code http.cookie.secure} says so or when the request came through such a proxy
 * ({@code X-Forwarded-Proto: https} or {@code Forwarded: proto=https}). A forged header can only make
 * the cookie stricter, never weaker.
 *
 * <p>Anything else gets 401 with {@code WWW-Authenticate: Bearer}. Comparisons are constant-time
 * (digests compared with {@link MessageDigest#isEqual}). Neither the token nor request URIs (which
 * may hold it) are ever logged.
 */
public final class BearerAuth extends Filter {
  /** Name of the session cookie. */
  public static final String COOKIE = "isowatch_session";

  private static final String QUERY_PARAM = "token";

  private final byte[] tokenDigest;
  private final String sessionValue;
  private final boolean secureCookie;

  private BearerAuth(final String token, final boolean secureCookie) {
    this.tokenDigest = sha256("isowatch-token:" + token);
    this.sessionValue = HexFormat.of().formatHex(sha256("isowatch-ui-session:" + token));
    this.secureCookie = secureCookie;
  }

  /** The filter for a configured token; the cookie is Secure only for requests forwarded over TLS. */
  public static BearerAuth of(final String token) {
    return of(token, false);
  }

  /**
   * The filter for a configured token.
   *
   * @param secureCookie whether the session cookie is always {@code Secure} ({@code http.cookie.secure}:
   *     the endpoint is only reached through TLS)
   */
  public static BearerAuth of(final String token, final boolean secureCookie) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("the token must not be blank");
    }
    return new BearerAuth(token, secureCookie);
  }

  @Override
  public String description() {
    return "bearer token";
  }

  @Override
  public void doFilter(final HttpExchange exchange, final Chain chain) throws IOException {
    if (authorized(exchange)) {
      chain.doFilter(exchange);
      return;
    }
    final Optional<String> fromQuery = queryToken(exchange.getRequestURI().getRawQuery());
    if (fromQuery.isPresent() && matches(fromQuery.get())) {
      exchange.getResponseHeaders().add("Set-Cookie", COOKIE + "=" + sessionValue + "; Path=/; HttpOnly; SameSite=Strict"
          + (secureCookie || forwardedOverTls(exchange) ? "; Secure" : ""));
      exchange.getResponseHeaders().set("Location", withoutToken(exchange));
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      exchange.sendResponseHeaders(303, -1);
      exchange.close();
      return;
    }
    refuse(exchange);
  }

  /** Whether the request carries the token in its header or the session cookie. */
  boolean authorized(final HttpExchange exchange) {
    for (final String header : exchange.getRequestHeaders().getOrDefault("Authorization", List.of())) {
      if (header.regionMatches(true, 0, "Bearer ", 0, 7) && matches(header.substring(7).trim())) {
        return true;
      }
    }
    for (final String header : exchange.getRequestHeaders().getOrDefault("Cookie", List.of())) {
      for (final String part : header.split(";")) {
        final String c = part.trim();
        if (c.startsWith(COOKIE + "=") && MessageDigest.isEqual(
            c.substring(COOKIE.length() + 1).getBytes(StandardCharsets.US_ASCII),
            sessionValue.getBytes(StandardCharsets.US_ASCII))) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a TLS-terminating proxy says the client used https (RFC 7239, or the de facto header). */
  static boolean forwardedOverTls(final HttpExchange exchange) {
    for (final String v : exchange.getRequestHeaders().getOrDefault("X-Forwarded-Proto", List.of())) {
      if (v.split(",")[0].trim().equalsIgnoreCase("https")) {
        return true;
      }
    }
    for (final String v : exchange.getRequestHeaders().getOrDefault("Forwarded", List.of())) {
      for (final String pair : v.split(",")[0].split(";")) {
        if (pair.trim().equalsIgnoreCase("proto=https") || pair.trim().equalsIgnoreCase("proto=\"https\"")) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean matches(final String candidate) {
    return MessageDigest.isEqual(sha256("isowatch-token:" + candidate), tokenDigest);
  }

  private static void refuse(final HttpExchange exchange) throws IOException {
    final boolean html = exchange.getRequestHeaders().getOrDefault("Accept", List.of()).stream()
        .anyMatch(a -> a.contains("text/html"));
    final String body = html
        ? "<!doctype html><html><head><meta charset=\"utf-8\"><title>IsoWatch: sign in</title></head>"
            + "<body style=\"font-family:system-ui,sans-serif;margin:3rem;color:#263238\"><h1>401: token required</h1>"
            + "<p>This IsoWatch checker requires its access token (<code>http.auth.token</code>). Open this"
            + " address once with <code>?token=&lt;token&gt;</code> appended; the browser then keeps a session"
            + " cookie.</p></body></html>"
        : "{\"error\":\"unauthorized\",\"message\":\"send Authorization: Bearer <token>\"}";
    final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"isowatch\"");
    exchange.getResponseHeaders().set("Content-Type", html ? "text/html; charset=utf-8" : "application/json");
    exchange.getResponseHeaders().set("Cache-Control", "no-store");
    exchange.sendResponseHeaders(401, "HEAD".equals(exchange.getRequestMethod()) ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      if (!"HEAD".equals(exchange.getRequestMethod())) {
        out.write(bytes);
      }
    }
  }

  private static Optional<String> queryToken(final String rawQuery) {
    if (rawQuery == null) {
      return Optional.empty();
    }
    for (final String pair : rawQuery.split("&")) {
      if (pair.startsWith(QUERY_PARAM + "=")) {
        return Optional.of(URLDecoder.decode(pair.substring(QUERY_PARAM.length() + 1), StandardCharsets.UTF_8));
      }
    }
    return Optional.empty();
  }

  /** The request's path and query without the token parameter (a relative redirect target). */
  private static String withoutToken(final HttpExchange exchange) {
    final String path = exchange.getRequestURI().getRawPath();
    final String query = exchange.getRequestURI().getRawQuery();
    final StringBuilder rest = new StringBuilder();
    for (final String pair : query.split("&")) {
      if (!pair.isEmpty() && !pair.startsWith(QUERY_PARAM + "=")) {
        rest.append(rest.length() == 0 ? "?" : "&").append(pair);
      }
    }
    return path + rest;
  }

  private static byte[] sha256(final String s) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
    } catch (final NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
