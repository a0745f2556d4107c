package io.isowatch.streams.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.sun.net.httpserver.HttpServer;
import io.apicurio.registry.resolver.SchemaResolverConfig;
import io.isowatch.schemas.TransactionEvent;
import io.isowatch.schemas.serde.AvroSerdeConfig;
import io.isowatch.schemas.serde.AvroSerdes;
import io.isowatch.streams.ConfigSources;
import io.isowatch.streams.IsoWatchStreamsConfig;
import io.isowatch.streams.testkit.TestEvents;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class RegistryClientSecurityTest {
  @Test
  void shouldGiveTheSerdesBasicAuthAndTlsStoresWhenConfigured() throws Exception {
    // Given
    final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), Map.of(
        "ISOWATCH_SCHEMA_REGISTRY_AUTH_PASSWORD", "s3cret"), Map.of(
        IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, "https://registry.internal:8443",
        IsoWatchStreamsConfig.SCHEMA_REGISTRY_AUTH_USERNAME_CONFIG, "isowatch",
        IsoWatchStreamsConfig.SCHEMA_REGISTRY_SSL_TRUSTSTORE_LOCATION_CONFIG, "/etc/isowatch/truststore.p12",
        IsoWatchStreamsConfig.SCHEMA_REGISTRY_SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12",
        IsoWatchStreamsConfig.SCHEMA_REGISTRY_SSL_TRUSTSTORE_PASSWORD_CONFIG, "trust-pw"));
    // When
    final Map<String, Object> serde = config.avroSerdeConfig().serdeProperties();
    // Then
    assertEquals("https://registry.internal:8443/apis/registry/v2", serde.get("apicurio.registry.url"));
    assertEquals("isowatch", serde.get(SchemaResolverConfig.AUTH_USERNAME));
    assertEquals("s3cret", serde.get(SchemaResolverConfig.AUTH_PASSWORD));
    assertEquals("/etc/isowatch/truststore.p12", serde.get(SchemaResolverConfig.REQUEST_TRUSTSTORE_LOCATION));
    assertEquals("PKCS12", serde.get(SchemaResolverConfig.REQUEST_TRUSTSTORE_TYPE));
    assertEquals("trust-pw", serde.get(SchemaResolverConfig.REQUEST_TRUSTSTORE_PASSWORD));
    assertFalse(serde.containsKey(SchemaResolverConfig.REQUEST_KEYSTORE_LOCATION), "no key store configured");
    // ... and printing the security never shows a password.
    assertFalse(config.registryClientSecurity().toString().contains("s3cret"));
    assertFalse(config.registryClientSecurity().toString().contains("trust-pw"));
  }

  @Test
  void shouldAddNothingWhenNoSecurityIsConfigured() {
    // When
    final Map<String, Object> serde = AvroSerdeConfig.production(URI.create("http://127.0.0.1:8081")).serdeProperties();
    // Then
    assertFalse(serde.keySet().stream().anyMatch(k -> k.startsWith("apicurio.auth.")
        || k.startsWith("apicurio.registry.request.ssl.")), serde.toString());
  }

  @Test
  void shouldSendTheBasicAuthHeaderWhenTheSerializerAsksTheRegistry() throws Exception {
    // Given: a registry stand-in that records the Authorization header and knows no schema.
    final List<String> authorizations = new CopyOnWriteArrayList<>();
    final HttpServer registry = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    registry.createContext("/", exchange -> {
      authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
      final byte[] body = "{\"error_code\":404,\"message\":\"No artifact\"}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(404, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    registry.start();
    try {
      final IsoWatchStreamsConfig config = ConfigSources.load(Optional.empty(), Map.of(), Map.of(
          IsoWatchStreamsConfig.SCHEMA_REGISTRY_URL_CONFIG, "http://127.0.0.1:" + registry.getAddress().getPort(),
          IsoWatchStreamsConfig.SCHEMA_REGISTRY_AUTH_USERNAME_CONFIG, "isowatch",
          IsoWatchStreamsConfig.SCHEMA_REGISTRY_AUTH_PASSWORD_CONFIG, "s3cret"));
      final Serializer<TransactionEvent> serializer =
          new AvroSerdes(config.avroSerdeConfig()).valueSerde(TransactionEvent.class).serializer();
      // When: the schema is looked up (and not found)
      assertThrows(RuntimeException.class, () ->
          serializer.serialize("isowatch.txn-events.v1", TestEvents.rmw("t", "s", 0, "s-0", "x", 0L, 1)));
      // Then: every request carried the credentials.
      assertFalse(authorizations.isEmpty(), "the registry was asked");
      final String expected = "Basic " + Base64.getEncoder().encodeToString(
          "isowatch:s3cret".getBytes(StandardCharsets.UTF_8));
      assertEquals(List.of(expected), authorizations.stream().distinct().toList());
    } finally {
      registry.stop(0);
    }
  }
}
