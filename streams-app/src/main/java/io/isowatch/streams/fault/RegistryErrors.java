package io.isowatch.streams.fault;

import io.apicurio.registry.rest.client.exception.RestClientException;
import io.apicurio.rest.client.auth.exception.AuthException;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Tells a schema registry failure that says nothing about the record (the registry is unreachable,
 * slow, overloaded, failing, or refuses our credentials) from one that does (the record's schema id
 * is unknown to it: 404). Only the first kind is transient: the record must be retried, never
 * dead-lettered, or its transaction would go missing and its readers would become false
 * ThinAirReads.
 *
 * <p>Apicurio 2.6's client maps an I/O failure (connection refused, timeout) to a {@link
 * RestClientException} without a cause whose error has no HTTP status, and an HTTP error to one with
 * the status; its cache wraps either in a plain {@link RuntimeException}. Transient is decided on
 * evidence only: a client error without status, HTTP 408, 429 or 5xx, an authentication or
 * authorization refusal (fixed by the operator, not by the record), an {@link IOException}, a
 * timeout, or {@link RegistryUnavailableException}. Anything else (404, a bad magic byte, an Avro
 * body that does not decode) is the record's fault.
 */
public final class RegistryErrors {
  private RegistryErrors() {}

  /** Whether {@code error} or one of its causes is a transient registry (or network) failure. */
  public static boolean isTransient(final Throwable error) {
    final Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (Throwable t = error; t != null && seen.put(t, Boolean.TRUE) == null; t = t.getCause()) {
      if (t instanceof RegistryUnavailableException || t instanceof AuthException
          || t instanceof IOException || t instanceof java.util.concurrent.TimeoutException
          || t instanceof org.apache.kafka.common.errors.TimeoutException) {
        return true;
      }
      if (t instanceof RestClientException r) {
        final Integer status = r.getError() == null ? null : r.getError().getErrorCode();
        return status == null || status == 0 || status == 408 || status == 429 || status == 401 || status == 403
            || status >= 500;
      }
    }
    return false;
  }
}
