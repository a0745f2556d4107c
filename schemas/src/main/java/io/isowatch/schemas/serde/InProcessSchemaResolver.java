package io.isowatch.schemas.serde;

import io.apicurio.registry.resolver.ParsedSchema;
import io.apicurio.registry.resolver.ParsedSchemaImpl;
import io.apicurio.registry.resolver.SchemaLookupResult;
import io.apicurio.registry.resolver.SchemaParser;
import io.apicurio.registry.resolver.SchemaResolver;
import io.apicurio.registry.resolver.SchemaResolverConfig;
import io.apicurio.registry.resolver.data.Record;
import io.apicurio.registry.resolver.strategy.ArtifactReference;
import io.apicurio.registry.resolver.strategy.ArtifactReferenceResolverStrategy;
import io.apicurio.registry.rest.client.RegistryClient;
import io.apicurio.registry.serde.SerdeConfig;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Apicurio's schema resolver for an {@link InProcessRegistry}: what Apicurio's default resolver
 * asks a registry server over HTTP (register a schema or find its content id; a content id's
 * schema) answered from the registry object in this JVM. Plugged in by {@link
 * AvroSerdeConfig#serdeProperties} for an {@code inprocess://} URL; the serializer and the
 * deserializer, the id handler and so the wire format are Apicurio's, unchanged.
 *
 * <p>As Apicurio's resolver does with its cache, a content id's schema is parsed once and the same
 * {@link ParsedSchema} (the same Avro {@code Schema} instance) is handed out for it after, which
 * {@link CachingAvroDatumProvider} and {@link TransactionEventDeserializer} rely on for speed, not
 * for correctness. A schema not registered when the serdes do not register ({@code
 * schemas.auto.register=false}) and an unknown content id fail as they fail with a registry server.
 *
 * @param <S> the schema type (Avro's {@code Schema})
 * @param <T> the data type
 */
public final class InProcessSchemaResolver<S, T> implements SchemaResolver<S, T> {
  /** The serde property naming the registry: its {@code inprocess://NAME} URL. */
  public static final String REGISTRY_PROPERTY = "isowatch.registry.in-process";

  private InProcessRegistry registry;
  private SchemaParser<S, T> parser;
  private boolean register;
  private boolean dereference;
  private final Map<Long, SchemaLookupResult<S>> byId = new ConcurrentHashMap<>();

  @Override
  public void configure(final Map<String, ?> configs, final SchemaParser<S, T> schemaParser) {
    this.parser = schemaParser;
    this.registry = InProcessRegistry.of(String.valueOf(configs.get(REGISTRY_PROPERTY)));
    this.register = Boolean.parseBoolean(String.valueOf(configs.get(SerdeConfig.AUTO_REGISTER_ARTIFACT)));
    this.dereference = Boolean.parseBoolean(String.valueOf(configs.get(SchemaResolverConfig.DEREFERENCE_SCHEMA)));
  }

  /** No client: nothing goes over the network. */
  @Override
  public void setClient(final RegistryClient client) {}

  /** Artifact ids name nothing here: content ids are all the wire format carries. */
  @Override
  public void setArtifactResolverStrategy(final ArtifactReferenceResolverStrategy<S, T> strategy) {}

  @Override
  public SchemaParser<S, T> getSchemaParser() {
    return parser;
  }

  @Override
  public SchemaLookupResult<S> resolveSchema(final Record<T> data) {
    final ParsedSchema<S> schema = parser.getSchemaFromData(data, dereference);
    final long id = registry.idOf(schema.getRawSchema(), register).orElseThrow(() -> new IllegalStateException(
        "the schema is not registered in " + registry + " and schemas.auto.register is off"));
    return byId.computeIfAbsent(id, i -> result(i, schema));
  }

  @Override
  public SchemaLookupResult<S> resolveSchemaByArtifactReference(final ArtifactReference reference) {
    final Long id = reference.getContentId() != null ? reference.getContentId() : reference.getGlobalId();
    if (id == null) {
      throw new IllegalArgumentException("an in-process registry resolves content ids only, not " + reference);
    }
    return byId.computeIfAbsent(id, i -> {
      final byte[] raw = registry.content(i).orElseThrow(() -> new IllegalStateException(
          "no schema with content id " + i + " in " + registry));
      return result(i, new ParsedSchemaImpl<S>().setRawSchema(raw).setParsedSchema(parser.parseSchema(raw, Map.of())));
    });
  }

  private SchemaLookupResult<S> result(final long id, final ParsedSchema<S> schema) {
    // Content and global ids are one here: one version per content.
    return SchemaLookupResult.<S>builder().parsedSchema(schema).contentId(id).globalId(id).version("1").build();
  }

  @Override
  public void reset() {
    byId.clear();
  }

  @Override
  public void close() {}
}
