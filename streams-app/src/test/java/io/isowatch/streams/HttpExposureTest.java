package io.isowatch.streams;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.isowatch.streams.metrics.CheckerMetrics;
import io.isowatch.streams.metrics.HealthAndMetricsServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Who may reach the HTTP endpoint: loopback by default, the network only with a token or consent. */
class HttpExposureTest {
  @Test
  void shouldBindLoopbackWhenNoHostIsConfigured() throws Exception {
    // Given
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), Map.of(), Map.of());
    final String host = config.getString(IsoWatchStreamsConfig.HTTP_HOST_CONFIG);
    // When
    try (HealthAndMetricsServer server = HealthAndMetricsServer.start(host, 0, new CheckerMetrics(),
        () -> new HealthAndMetricsServer.Health(true, "RUNNING"))) {
      // Then: bound to loopback, and so allowed without a token
      assertTrue(InetAddress.getByName(host).isLoopbackAddress(), host);
      assertDoesNotThrow(config::requireSafeHttpExposure);
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()), 5_000);
        assertTrue(s.isConnected());
      }
    }
  }

  @Test
  void shouldRefuseANonLoopbackBindWhenNoTokenIsSet() {
    for (final String host : new String[] {"0.0.0.0", "::", "192.0.2.10", "no-such-host.invalid"}) {
      // Given
      final IsoWatchStreamsConfig config = config(Map.of(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, host));
      // When
      final ConfigException e = assertThrows(ConfigException.class, config::requireSafeHttpExposure, host);
      // Then: the message says what to do
      assertTrue(e.getMessage().contains("http.auth.token (ISOWATCH_HTTP_AUTH_TOKEN)"), e.getMessage());
      assertTrue(e.getMessage().contains("http.allow.unauthenticated=true (ISOWATCH_HTTP_ALLOW_UNAUTHENTICATED)"),
          e.getMessage());
      assertTrue(e.getMessage().contains(host), e.getMessage());
    }
  }

  @Test
  void shouldAllowANonLoopbackBindWhenATokenIsSetOrUnauthenticatedAccessIsExplicitlyAllowed() throws Exception {
    // Given
    final IsoWatchStreamsConfig withToken = config(Map.of(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "0.0.0.0",
        IsoWatchStreamsConfig.HTTP_AUTH_TOKEN_CONFIG, "t0ken"));
    final IsoWatchStreamsConfig allowedByEnv = ConfigSources.load(Optional.empty(),
        Map.of("ISOWATCH_HTTP_HOST", "0.0.0.0", "ISOWATCH_HTTP_ALLOW_UNAUTHENTICATED", "true"), Map.of());
    final IsoWatchStreamsConfig blankToken = config(Map.of(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "0.0.0.0",
        IsoWatchStreamsConfig.HTTP_AUTH_TOKEN_CONFIG, "  "));
    final IsoWatchStreamsConfig disabled = config(Map.of(IsoWatchStreamsConfig.HTTP_HOST_CONFIG, "0.0.0.0",
        IsoWatchStreamsConfig.HTTP_PORT_CONFIG, "-1"));
    // When / Then
    assertDoesNotThrow(withToken::requireSafeHttpExposure);
    assertDoesNotThrow(allowedByEnv::requireSafeHttpExposure);
    assertDoesNotThrow(disabled::requireSafeHttpExposure);
    assertThrows(ConfigException.class, blankToken::requireSafeHttpExposure, "a blank token is no token");
  }

  @Test
  void shouldTreatLocalhostAndEveryLoopbackLiteralAsLoopback() {
    assertTrue(HttpExposure.loopback("127.0.0.1"));
    assertTrue(HttpExposure.loopback("127.1.2.3"));
    assertTrue(HttpExposure.loopback("::1"));
    assertTrue(HttpExposure.loopback("localhost"));
    assertFalse(HttpExposure.loopback("0.0.0.0"));
  }

  @Test
  void shouldDeriveTheServerLimitsFromTheConfiguration() {
    // Given
    final IsoWatchStreamsConfig config = config(Map.of(IsoWatchStreamsConfig.HTTP_REQUEST_TIMEOUT_MS_CONFIG, "1500",
        IsoWatchStreamsConfig.HTTP_RESPONSE_TIMEOUT_MS_CONFIG, "2500",
        IsoWatchStreamsConfig.HTTP_MAX_CONNECTIONS_CONFIG, "7"));
    // When / Then
    assertEquals(1_500, config.httpLimits().requestTimeout().toMillis());
    assertEquals(2_500, config.httpLimits().responseTimeout().toMillis());
    assertEquals(7, config.httpLimits().maxConnections());
    assertThrows(ConfigException.class,
        () -> config(Map.of(IsoWatchStreamsConfig.HTTP_REQUEST_TIMEOUT_MS_CONFIG, "0")));
  }

  private static IsoWatchStreamsConfig config(final Map<String, String> props) {
    return new IsoWatchStreamsConfig(props);
  }
}
