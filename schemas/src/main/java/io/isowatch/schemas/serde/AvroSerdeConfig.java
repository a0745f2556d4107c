package io.isowatch.schemas.serde;

import io.apicurio.registry.resolver.SchemaResolverConfig;
import io.apicurio.registry.serde.Legacy4ByteIdHandler;
import io.apicurio.registry.serde.SerdeConfig;
import io.apicurio.registry.serde.avro.AvroKafkaSerdeConfig;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How IsoWatch's Avro serdes talk to the schema registry (Apicurio, Confluent-compatible).
 *
 * <p>Records are framed in the Confluent wire format (magic byte 0, 4-byte schema id, Avro binary),
 * readable by any Confluent-compatible consumer; the id is Apicurio's content id, which its
 * {@code /apis/ccompat/v7/schemas/ids/{id}} resolves. Apicurio writes that format only with all
 * three of {@code as-confluent}, {@code use-id=contentId} and headers disabled, so those are fixed
 * here and not configurable.
 *
 * @param registryUrl base URL of the registry, e.g. {@code http://127.0.0.1:8081} (no path), or {@code
 *     inprocess://NAME} for an {@link InProcessRegistry} of this JVM
 * @param autoRegister whether a serializer registers an unknown schema itself: off in production,
 *     where schemas are registered by the release process and a producer with an unregistered
 *     schema must fail; on in development and tests
 * @param security basic authentication and TLS stores of the registry client
 */
public record AvroSerdeConfig(URI registryUrl, boolean autoRegister, RegistryClientSecurity security) {
  /** Path of Apicurio's native v2 API, which its serdes use. */
  public static final String REGISTRY_API_PATH = "/apis/registry/v2";

  public AvroSerdeConfig {
    Objects.requireNonNull(registryUrl, "registryUrl");
    Objects.requireNonNull(security, "security");
    final String path = registryUrl.getPath();
    if (path != null && !path.isEmpty() && !"/".equals(path)) {
      throw new IllegalArgumentException(
          "registry URL must be the base URL without a path, got " + registryUrl);
    }
  }

  /** A registry without authentication, trusted by the JVM's default trust store. */
  public AvroSerdeConfig(final URI registryUrl, final boolean autoRegister) {
    this(registryUrl, autoRegister, RegistryClientSecurity.none());
  }

  /** The same, with the given security. */
  public AvroSerdeConfig withSecurity(final RegistryClientSecurity newSecurity) {
    return new AvroSerdeConfig(registryUrl, autoRegister, newSecurity);
  }

  /** Production profile: schemas must already be registered. */
  public static AvroSerdeConfig production(final URI registryUrl) {
    return new AvroSerdeConfig(registryUrl, false);
  }

  /** Development profile: serializers register their schemas on first use. */
  public static AvroSerdeConfig development(final URI registryUrl) {
    return new AvroSerdeConfig(registryUrl, true);
  }

  /** URL of the registry API the serdes call. */
  public String apiUrl() {
    final String base = registryUrl.toString();
    return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + REGISTRY_API_PATH;
  }

  /** Configuration of Apicurio's serializer and deserializer. */
  public Map<String, Object> serdeProperties() {
    final Map<String, Object> p = new HashMap<>(security.serdeProperties());
    p.putAll(Map.of(
        SerdeConfig.REGISTRY_URL, apiUrl(),
        SerdeConfig.AUTO_REGISTER_ARTIFACT, autoRegister,
        // The three settings of the Confluent wire format (see the type's Javadoc).
        SerdeConfig.ENABLE_CONFLUENT_ID_HANDLER, true,
        // The id handler as-confluent installs anyway, named so that Apicurio does not warn of a
        // "Duplicate id-handler configuration" (its default handler vs. as-confluent) per serde.
        SerdeConfig.ID_HANDLER, Legacy4ByteIdHandler.class.getName(),
        SerdeConfig.USE_ID, "contentId",
        SerdeConfig.ENABLE_HEADERS, false,
        // Decode into the generated classes, read with their schema as the reader schema.
        AvroKafkaSerdeConfig.USE_SPECIFIC_AVRO_READER, true,
        // Apicurio's default provider, with one reader per writer schema instead of one per record.
        AvroKafkaSerdeConfig.AVRO_DATUM_PROVIDER, CachingAvroDatumProvider.class.getName(),
        // Look schemas up (production) and register them (development) whole, nested named types
        // inlined, under the subject <topic>-value: see TopicSubjectStrategy for why both are needed.
        SerdeConfig.ARTIFACT_RESOLVER_STRATEGY, TopicSubjectStrategy.class.getName(),
        SchemaResolverConfig.DEREFERENCE_SCHEMA, true));
    // A cached schema is looked up again every check period (30 s); without this a registry outage
    // fails even the schemas already known (a content id's schema never changes), so every record.
    p.put(SchemaResolverConfig.FAULT_TOLERANT_REFRESH, true);
    if (InProcessRegistry.names(registryUrl)) {
      // A registry in this JVM (replay --file): Apicurio's serdes, with the resolver that asks it.
      p.put(SerdeConfig.SCHEMA_RESOLVER, InProcessSchemaResolver.class.getName());
      p.put(InProcessSchemaResolver.REGISTRY_PROPERTY, registryUrl.toString());
    }
    return p;
  }
}
