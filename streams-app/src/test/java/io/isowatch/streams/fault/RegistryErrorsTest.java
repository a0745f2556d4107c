package io.isowatch.streams.fault;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.apicurio.registry.rest.client.exception.RestClientException;
import io.apicurio.registry.rest.v2.beans.Error;
import java.net.ConnectException;
import org.apache.avro.AvroRuntimeException;
import org.junit.jupiter.api.Test;

class RegistryErrorsTest {
  @Test
  void shouldBeTransientWhenTheRegistryGaveNoAnswerOrFailed() {
    // Given: Apicurio's shapes of an unreachable, overloaded, failing or refusing registry,
    // wrapped as its cache wraps them.
    // Then
    assertTrue(RegistryErrors.isTransient(new RuntimeException(restError(null, "ConnectException"))));
    assertTrue(RegistryErrors.isTransient(new RuntimeException(restError(503, "ServiceUnavailable"))));
    assertTrue(RegistryErrors.isTransient(restError(500, "Internal")));
    assertTrue(RegistryErrors.isTransient(restError(429, "Too many requests")));
    assertTrue(RegistryErrors.isTransient(restError(401, "Unauthorized")));
    assertTrue(RegistryErrors.isTransient(new IllegalStateException(new ConnectException("refused"))));
    assertTrue(RegistryErrors.isTransient(new RegistryUnavailableException("down", null)));
  }

  @Test
  void shouldNotBeTransientWhenTheRecordItselfIsAtFault() {
    // Then: an unknown schema id (404), a bad magic byte, an undecodable Avro body, a bug.
    assertFalse(RegistryErrors.isTransient(new RuntimeException(restError(404, "No content with id"))));
    assertFalse(RegistryErrors.isTransient(restError(400, "Bad request")));
    assertFalse(RegistryErrors.isTransient(new IllegalStateException("Unknown magic byte!")));
    assertFalse(RegistryErrors.isTransient(new AvroRuntimeException("Malformed data. Length is negative: -3")));
    assertFalse(RegistryErrors.isTransient(new NullPointerException()));
  }

  private static RestClientException restError(final Integer status, final String name) {
    final Error e = new Error();
    e.setErrorCode(status);
    e.setName(name);
    e.setMessage(name);
    return new RestClientException(e);
  }
}
