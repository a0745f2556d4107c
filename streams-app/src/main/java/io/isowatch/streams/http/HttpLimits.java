package io.isowatch.streams.http;

import java.time.Duration;

/**
 * What one client may cost the HTTP endpoint, so that slow or stuck clients cannot starve it
 * ({@link BoundedHttpServer}).
 *
 * @param requestTimeout time from accepting a connection to having its whole request (line, headers,
 *     body); a client slower than that is answered 408 and disconnected
 * @param responseTimeout time a handler and the client together have to deliver the answer; past it
 *     the connection is closed (a client that never reads its answer holds a worker no longer)
 * @param maxConnections connections still sending their request at once; one more evicts the oldest
 *     of them, so a flood of slow clients cannot lock a quick one (a probe) out
 * @param workers threads running the handlers of ordinary paths; probe paths have their own
 */
public record HttpLimits(Duration requestTimeout, Duration responseTimeout, int maxConnections, int workers) {
  /** Bytes of a request's line and headers; more is answered 431. */
  public static final int MAX_HEAD_BYTES = 16 * 1024;
  /** Headers of a request; more is answered 431. */
  public static final int MAX_HEADERS = 100;
  /** Bytes of a request's body (the endpoint is read-only: GET and HEAD); more is answered 413. */
  public static final int MAX_BODY_BYTES = 64 * 1024;

  /** The defaults of the configuration (http.request.timeout.ms, ...). */
  public static final HttpLimits DEFAULTS = new HttpLimits(Duration.ofSeconds(10), Duration.ofSeconds(30), 64, 4);

  public HttpLimits {
    if (requestTimeout.isNegative() || requestTimeout.isZero() || responseTimeout.isNegative()
        || responseTimeout.isZero()) {
      throw new IllegalArgumentException("timeouts must be positive");
    }
    if (maxConnections < 1 || workers < 1) {
      throw new IllegalArgumentException("maxConnections and workers must be at least 1");
    }
  }
}
