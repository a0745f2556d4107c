package io.isowatch.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AvroSerdeConfigTest {
  private static final URI REGISTRY = URI.create("http://127.0.0.1:8081");

  @Test
  void shouldConfigureConfluentWireFormatWithoutAutoRegistrationWhenProduction() {
    // Given
    final AvroSerdeConfig config = AvroSerdeConfig.production(REGISTRY);
    // When
    final Map<String, Object> props = config.serdeProperties();
    // Then
    assertEquals(
        Map.ofEntries(
            Map.entry("apicurio.registry.fault-tolerant-refresh", true),
            Map.entry("apicurio.registry.url", "http://127.0.0.1:8081/apis/registry/v2"),
            Map.entry("apicurio.registry.auto-register", false),
            Map.entry("apicurio.registry.as-confluent", true),
            Map.entry("apicurio.registry.use-id", "contentId"),
            Map.entry("apicurio.registry.headers.enabled", false),
            Map.entry("apicurio.registry.use-specific-avro-reader", true),
            Map.entry("apicurio.registry.avro-datum-provider", CachingAvroDatumProvider.class.getName()),
            Map.entry("apicurio.registry.artifact-resolver-strategy", TopicSubjectStrategy.class.getName()),
            Map.entry("apicurio.registry.dereference-schema", true),
            Map.entry("apicurio.registry.id-handler", "io.apicurio.registry.serde.Legacy4ByteIdHandler")),
        props);
  }

  @Test
  void shouldConfigureTheDeserializerWithoutApicuriosDuplicateIdHandlerWarning() {
    // Given: Apicurio warns "Duplicate id-handler configuration" at every configure() in which
    // as-confluent meets any id handler but its own Confluent one
    final java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
    final java.io.PrintStream original = System.err;
    System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
    // When
    try (TransactionEventDeserializer d = new TransactionEventDeserializer()) {
      d.configure(AvroSerdeConfig.production(REGISTRY).serdeProperties(), false);
    } finally {
      System.setErr(original);
    }
    // Then
    final String logged = err.toString(java.nio.charset.StandardCharsets.UTF_8);
    assertFalse(logged.contains("Duplicate id-handler"), logged);
  }

  @Test
  void shouldAutoRegisterWhenDevelopment() {
    // Given
    final AvroSerdeConfig config = AvroSerdeConfig.development(URI.create("http://127.0.0.1:8081/"));
    // When
    final Map<String, Object> props = config.serdeProperties();
    // Then
    assertEquals(true, props.get("apicurio.registry.auto-register"));
    assertEquals("http://127.0.0.1:8081/apis/registry/v2", props.get("apicurio.registry.url"));
  }

  @Test
  void shouldRejectTheUrlWhenItAlreadyHasAnApiPath() {
    // Given
    final URI withPath = URI.create("http://127.0.0.1:8081/apis/registry/v2");
    // When / Then
    assertThrows(IllegalArgumentException.class, () -> AvroSerdeConfig.production(withPath));
  }
}
